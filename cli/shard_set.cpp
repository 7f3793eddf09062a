#include "cli/shard_set.h"

#include <map>

namespace bc {
namespace {

struct ShardNumber {
  long index = 0, count = 1;
  bool valid = true;
};

ShardNumber parse(const std::string& text) {
  ShardNumber n;
  if (text.empty()) return n;
  const auto slash = text.find('/');
  try {
    size_t used = 0;
    n.index = std::stol(text.substr(0, slash), &used);
    n.valid = slash != std::string::npos && used == slash;
    n.count = std::stol(text.substr(slash + 1), &used);
    n.valid = n.valid && used == text.size() - slash - 1 && n.count >= 1 && n.index >= 0 && n.index < n.count;
  } catch (const std::exception&) {
    n.valid = false;
  }
  return n;
}

std::string name(long index, long count) { return std::to_string(index) + "/" + std::to_string(count); }

}  // namespace

std::vector<std::string> shard_set_problems(const std::vector<ShardInput>& shards) {
  std::vector<std::string> problems;
  if (shards.empty()) return {"no shard to merge"};
  const ShardInput& first = shards.front();
  for (const ShardInput& s : shards)
    if (s.summary.fingerprint.empty())
      problems.push_back("shard " + s.dir +
                         " has no fingerprint in its summary.json (written by an older "
                         "broadcheck): run it again");
  for (size_t k = 1; k < shards.size(); ++k) {
    const ShardInput& s = shards[k];
    if (s.summary.command != first.summary.command)
      problems.push_back("shard " + s.dir + " is a \"" + s.summary.command + "\" but " + first.dir + " is a \"" +
                         first.summary.command + "\"");
    if (s.summary.seed != first.summary.seed)
      problems.push_back("shard " + s.dir + " was run with seed " + std::to_string(s.summary.seed) + ", " + first.dir +
                         " with seed " + std::to_string(first.summary.seed));
    if (s.summary.fingerprint.empty() || first.summary.fingerprint.empty()) continue;
    std::string differ;
    for (const char* part : {"flags", "corpus", "declarations", "implementations"}) {
      const auto a = s.summary.fingerprint.find(part), b = first.summary.fingerprint.find(part);
      const bool same =
          a != s.summary.fingerprint.end() && b != first.summary.fingerprint.end() && a->second == b->second;
      if (!same) differ += (differ.empty() ? "" : ", ") + std::string(part);
    }
    if (!differ.empty())
      problems.push_back("shard " + s.dir + " was run with different " + differ + " than " + first.dir);
  }

  const ShardNumber reference = parse(first.summary.shard);
  std::map<long, std::string> seen;  // index -> folder
  bool counts_agree = true;
  for (const ShardInput& s : shards) {
    const ShardNumber n = parse(s.summary.shard);
    if (!n.valid) {
      problems.push_back("shard " + s.dir + " has an unreadable shard \"" + s.summary.shard + "\"");
      counts_agree = false;
      continue;
    }
    if (n.count != reference.count) {
      problems.push_back("shard " + s.dir + " is shard " + name(n.index, n.count) + " but " + first.dir +
                         " is one of " + std::to_string(reference.count));
      counts_agree = false;
      continue;
    }
    auto [it, fresh] = seen.emplace(n.index, s.dir);
    if (!fresh) problems.push_back("duplicate shard " + name(n.index, n.count) + " in " + it->second + " and " + s.dir);
  }
  if (counts_agree && reference.valid)
    for (long i = 0; i < reference.count; ++i)
      if (!seen.count(i)) problems.push_back("missing shard " + name(i, reference.count));
  return problems;
}

}  // namespace bc
