// The scoreboard: for each implementation and op family, how many cases it ran and how it stood in them (agreeing
// with the majority or the rule, departing in a declared way, departing in a new way) and how many it could not
// run (unsupported). Counted from run records; summed across shards.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>


namespace bc {

struct Score {
  long run = 0;          // its outcome was not unsupported
  long agree = 0;        // run, and not an odd one out
  long known = 0;        // an odd one out in a case whose differences are all declared
  long fresh = 0;        // an odd one out in a case with a new difference
  long unsupported = 0;
  friend bool operator==(const Score& a, const Score& b) {
    return a.run == b.run && a.agree == b.agree && a.known == b.known && a.fresh == b.fresh &&
           a.unsupported == b.unsupported;
  }
};

// implementation -> op family -> score (found by any string-like key: a run counts every outcome of every case)
using FamilyScores = std::map<std::string, Score, std::less<>>;
using Scoreboard = std::map<std::string, FamilyScores, std::less<>>;

// Adds every count of `from` to `into`.
void add_score(Score& into, const Score& from);
// An implementation's scores over all its op families.
Score total_score(const FamilyScores& families);

struct CaseRecord;

// Counts one case for every implementation that has an outcome in it (an implementation's unfused twin in the
// equivalence property counts as the implementation itself, once per case).
void add_to_scoreboard(Scoreboard& board, const CaseRecord& r);
void merge_scoreboards(Scoreboard& into, const Scoreboard& from);

nlohmann::json to_json(const Scoreboard& board);
Scoreboard scoreboard_from_json(const nlohmann::json& j);

}  // namespace bc
