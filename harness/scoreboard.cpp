#include "harness/scoreboard.h"

#include <algorithm>
#include <string_view>

#include "harness/run_record.h"

namespace bc {

namespace {

// map[key], without building a string when the key is there already.
template <class Map>
typename Map::mapped_type& at_key(Map& map, std::string_view key) {
  auto it = map.find(key);
  if (it == map.end()) it = map.emplace(std::string(key), typename Map::mapped_type{}).first;
  return it->second;
}

}  // namespace

void add_to_scoreboard(Scoreboard& board, const CaseRecord& r) {
  const std::string_view family = to_string(entry(r.c.op).family);
  const auto& odd = r.judgement.odd_ones;
  for (const auto& [name, o] : r.outcomes) {
    if (name.find(" unfused") != std::string::npos) continue;
    Score& s = at_key(at_key(board, name), family);
    if (o.status == Status::unsupported) {
      ++s.unsupported;
      continue;
    }
    ++s.run;
    if (r.judgement.verdict == Verdict::agree || std::find(odd.begin(), odd.end(), name) == odd.end()) ++s.agree;
    else if (r.judgement.verdict == Verdict::known) ++s.known;
    else ++s.fresh;
  }
}

void add_score(Score& into, const Score& from) {
  into.run += from.run;
  into.agree += from.agree;
  into.known += from.known;
  into.fresh += from.fresh;
  into.unsupported += from.unsupported;
}

Score total_score(const FamilyScores& families) {
  Score total;
  for (const auto& [family, s] : families) add_score(total, s);
  return total;
}

void merge_scoreboards(Scoreboard& into, const Scoreboard& from) {
  for (const auto& [name, families] : from)
    for (const auto& [family, s] : families) add_score(into[name][family], s);
}

nlohmann::json to_json(const Scoreboard& board) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, families] : board)
    for (const auto& [family, s] : families)
      j[name][family] = {{"run", s.run}, {"agree", s.agree}, {"known", s.known}, {"new", s.fresh},
                         {"unsupported", s.unsupported}};
  return j;
}

Scoreboard scoreboard_from_json(const nlohmann::json& j) {
  Scoreboard board;
  for (auto who = j.begin(); who != j.end(); ++who)
    for (auto fam = who->begin(); fam != who->end(); ++fam)
      board[who.key()][fam.key()] = Score{fam->at("run").get<long>(), fam->at("agree").get<long>(),
                                          fam->at("known").get<long>(), fam->at("new").get<long>(),
                                          fam->at("unsupported").get<long>()};
  return board;
}

}  // namespace bc
