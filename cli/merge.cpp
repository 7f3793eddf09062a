#include "cli/merge.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "cli/outputs.h"
#include "reports/text_file.h"
#include "cli/publish.h"
#include "run/exit_codes.h"
#include "run/run_options.h"
#include "cli/shard_set.h"
#include "harness/utf8.h"
#include "reports/results_counts.h"
#include "reports/results_filter.h"

namespace bc {
RunSummary merge_summaries(const std::vector<RunSummary>& shards, const std::vector<std::string>& arguments) {
  if (shards.empty()) throw std::runtime_error("nothing to merge");
  RunSummary m = shards.front();
  m.shard = "";
  m.arguments = arguments;
  m.seconds = 0;
  m.verdicts.clear();
  m.cases_per_property.clear();
  m.cases_per_op.clear();
  m.statuses.clear();
  m.scoreboard.clear();
  m.coverage = Coverage{};
  m.findings.clear();
  m.interrupted = false;
  m.fail_on_stale = false;
  m.fail_on_missing_coverage = false;
  m.difference_classes.clear();
  m.messages = MessageCatalog{};
  m.signal = 0;
  m.job_deaths.clear();
  for (DeclarationUse& u : m.declarations) u.covered = u.matched = 0;
  std::map<std::string, size_t> by_key;
  for (const RunSummary& s : shards) {
    if (s.seed != m.seed || s.cases_requested != m.cases_requested || s.command != m.command)
      throw std::runtime_error("the shards come from different runs (seed, --cases or command differ)");
    m.seconds = std::max(m.seconds, s.seconds);
    m.started_at = std::min(m.started_at, s.started_at);
    m.interrupted = m.interrupted || s.interrupted;
    m.fail_on_stale = m.fail_on_stale || s.fail_on_stale;
    m.fail_on_missing_coverage = m.fail_on_missing_coverage || s.fail_on_missing_coverage;
    for (const auto& [k, n] : s.difference_classes) m.difference_classes[k] += n;
    m.messages.merge(s.messages);
    if (s.signal != 0) m.signal = s.signal;
    m.job_deaths.insert(m.job_deaths.end(), s.job_deaths.begin(), s.job_deaths.end());
    for (const auto& [k, n] : s.verdicts) m.verdicts[k] += n;
    for (const auto& [k, n] : s.cases_per_property) m.cases_per_property[k] += n;
    for (const auto& [property, ops] : s.cases_per_op)
      for (const auto& [op, n] : ops) m.cases_per_op[property][op] += n;
    for (const auto& [k, n] : s.statuses) m.statuses[k] += n;
    merge_scoreboards(m.scoreboard, s.scoreboard);
    m.coverage.merge(s.coverage);
    for (const DeclarationUse& u : s.declarations)
      for (DeclarationUse& mine : m.declarations)
        if (mine.declaration.id == u.declaration.id) {
          mine.covered += u.covered;
          mine.matched += u.matched;
        }
    for (const Finding& f : s.findings) {
      auto it = by_key.find(f.key);
      if (it == by_key.end()) {
        by_key[f.key] = m.findings.size();
        m.findings.push_back(f);
        continue;
      }
      Finding& have = m.findings[it->second];
      const long hits = have.hits + f.hits;
      if (f.first_seq < have.first_seq) have = f;
      have.hits = hits;
    }
  }
  // Discovery order of the unsharded run, then new before known (as `run` sorts).
  std::sort(m.findings.begin(), m.findings.end(), [](const Finding& a, const Finding& b) { return a.first_seq < b.first_seq; });
  std::stable_sort(m.findings.begin(), m.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.is_new() && !b.is_new(); });
  // Every shard read the same corpus, so each reported the same input errors: keep one copy.
  m.exit_code = exit_code_for(m, m.signal);  // an interrupted shard makes the merged run interrupted too
  return m;
}

std::optional<RunSummary> merge_into(const std::vector<std::string>& dirs, const std::string& out,
                                     const std::vector<std::string>& arguments, bool whole_set, std::string& unwritten) {
  std::vector<ShardInput> inputs;
  for (const std::string& dir : dirs) {
    const std::string summary_path = dir + "/summary.json";
    try {
      std::ifstream in(summary_path);
      if (!in) throw std::runtime_error("cannot open");
      inputs.push_back({dir, run_summary_from_json(nlohmann::json::parse(in))});
    } catch (const std::exception& e) {
      std::cerr << "broadcheck merge: " << summary_path << ": " << e.what() << "\n";
      return std::nullopt;
    }
  }
  if (whole_set) {
    const std::vector<std::string> problems = shard_set_problems(inputs);
    for (const std::string& p : problems) std::cerr << "broadcheck merge: " << p << "\n";
    if (!problems.empty()) return std::nullopt;
  }

  std::vector<RunSummary> shards;
  struct Line {
    long seq;
    std::string property, signature, verdict, text;
  };
  std::vector<Line> lines;
  ResultsCounts counts;
  for (const ShardInput& input : inputs) {
    shards.push_back(input.summary);
    const std::string results_path = input.dir + "/results.jsonl";
    std::ifstream results(results_path);
    if (!results) {
      std::cerr << "broadcheck merge: " << results_path << ": cannot open\n";
      return std::nullopt;
    }
    std::string line;
    for (int n = 1; std::getline(results, line); ++n) {
      if (line.empty()) continue;
      try {
        const nlohmann::json j = nlohmann::json::parse(line);
        if (ResultsCounts::is_count_line(j)) counts.add_line(j);
        else
          lines.push_back({j.at("seq").get<long>(), j.at("property").get<std::string>(),
                           j.value("signature", ""), j.at("verdict").get<std::string>(), line});
      } catch (const std::exception& e) {
        std::cerr << "broadcheck merge: " << results_path << ":" << n << ": " << e.what() << "\n";
        return std::nullopt;
      }
    }
  }
  RunSummary merged;
  ResultsMode mode = ResultsMode::all;
  try {
    merged = merge_summaries(shards, arguments);
    mode = results_mode_from_string(merged.results);
  } catch (const std::exception& e) {
    std::cerr << "broadcheck merge: " << e.what() << "\n";
    return std::nullopt;
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.seq < b.seq; });
  const std::string results_path = out + "/results.jsonl";
  errno = 0;
  std::ofstream results(results_path, std::ios::trunc);
  // Each shard kept the first cases of each signature of its own slice; in run order the filter keeps the ones the
  // unsharded run kept.
  ResultsFilter filter(mode);
  std::map<std::string, long> written;
  for (const Line& line : lines) {
    if (!filter.keep(line.property, line.signature, line.verdict)) continue;
    results << line.text << "\n";
    ++written[line.property];
  }
  counts.set_written(written);
  for (const std::string& line : counts.lines()) results << line << "\n";
  results.close();
  if (!results) unwritten = write_failure(results_path, errno);  // errno: the failed open or write(2)'s
  return merged;
}

int merge_runs(const std::vector<std::string>& dirs, const std::string& out, bool quiet,
               const std::vector<std::string>& arguments) {
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (std::filesystem::equivalent(dir, out, ec)) {  // false (with ec) when either does not exist
      std::cerr << "broadcheck merge: --out " << visible_utf8(out) << " is the shard folder " << visible_utf8(dir)
                << ": the merge would replace that shard's outputs; give a folder of its own\n";
      return kExitBadInput;
    }
  }
  OutputFolder outputs;  // one merge's set of outputs in `out`, as a run leaves it (its inputs may be there)
  const std::string unwritable = outputs.open(out, OutputFolder::Earlier::keep);
  if (!unwritable.empty()) {
    std::cerr << "broadcheck merge: " << unwritable << "\n";
    return kExitBadInput;
  }
  std::string unwritten;
  const std::optional<RunSummary> merged = merge_into(dirs, outputs.staging(), arguments, true, unwritten);
  if (!merged) return kExitBadInput;
  if (!quiet) {
    long cases = 0;
    for (const auto& [property, n] : merged->cases_per_property) cases += n;
    std::cerr << "merged " << dirs.size() << " shard(s), " << cases << " cases, " << merged->findings.size()
              << " finding(s)\n";
  }
  RunOptions as_run;  // what publishing needs to know: where, and how much to say
  as_run.out = out;
  as_run.progress = quiet ? Progress::quiet : Progress::automatic;
  return publish_run(*merged, outputs, as_run, unwritten);
}

}  // namespace bc
