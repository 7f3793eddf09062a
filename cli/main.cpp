// broadcheck's command line: run, replay, shrink, merge, list, lint. Exit codes: 0 nothing new disagrees, 1 new findings,
// 2 bad usage or input, 3 internal error (and 128 + signal for an interrupted run with nothing new).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>

#include "cli/build_info.h"
#include "cli/builtin_implementations.h"
#include "cli/external_implementations.h"
#include "cli/jobs.h"
#include "cli/lint.h"
#include "cli/list_command.h"
#include "cli/merge.h"
#include "cli/replay_prefix.h"
#include "harness/number_text.h"
#include "cli/run.h"
#include "run/exit_codes.h"
#include "run/run_options.h"
#include "cli/shrink_command.h"
#include "harness/case.h"
#include "harness/utf8.h"
#include "properties/registry.h"

namespace {

// corpus/*.jsonl except the divergence declarations, in name order (findings.jsonl before seeds.jsonl). A folder
// that does not exist (or cannot be listed) is an input error: a run must not silently replay nothing.
std::vector<std::string> default_corpus(const std::string& dir, std::vector<std::string>& errors) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    errors.push_back("--corpus-dir " + dir + ": not a folder (it does not exist, or is a file); give the corpus "
                     "folder, or --no-replay");
    return files;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto& p = entry.path();
    if (p.extension() == ".jsonl" && p.filename() != "known_divergences.jsonl") files.push_back(p.string());
  }
  if (ec) errors.push_back("--corpus-dir " + dir + ": cannot list it: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

// Every text number option, read strictly (harness/number_text.h); false with a message naming the option.
struct NumberOptions {
  std::string seed = "1", cases = "200", time, timeout_ms = "10000", budget = "4000";
};

bool read_numbers(const NumberOptions& text, bc::RunOptions& options, long& cases, int& budget) {
  auto refuse = [](const std::string& option, const std::string& want, const std::string& got) {
    std::cerr << "broadcheck: " << option << " wants " << want << ", got \"" << got << "\"\n";
    return false;
  };
  const auto seed = bc::parse_uint64(text.seed);
  if (!seed) return refuse("--seed", "a whole number from 0 to 18446744073709551615", text.seed);
  options.seed = *seed;
  const auto count = bc::parse_count(text.cases);
  if (!count) return refuse("--cases", "a whole number of cases, 0 or more", text.cases);
  cases = *count;
  if (!text.time.empty()) {
    const auto seconds = bc::parse_positive_seconds(text.time);
    if (!seconds) return refuse("--time", "a number of seconds above 0 (leave --time out for no limit)", text.time);
    options.time_budget = *seconds;
  }
  const auto timeout = bc::parse_count(text.timeout_ms);
  if (!timeout || *timeout < 1 || *timeout > 86400000)
    return refuse("--timeout-ms", "a whole number of milliseconds from 1 to 86400000", text.timeout_ms);
  options.timeout_ms = static_cast<int>(*timeout);
  const auto tries = bc::parse_count(text.budget);
  if (!tries || *tries < 1 || *tries > 100000000) return refuse("--budget", "a whole number from 1 to 100000000", text.budget);
  budget = static_cast<int>(*tries);
  return true;
}

// --op names, each an op of the table, parsed into `parsed`; false with the valid names otherwise.
bool check_ops(const std::vector<std::string>& ops, std::vector<bc::Op>& parsed) {
  for (const std::string& op : ops) {
    const bc::OpEntry* e = bc::find_op(op);
    if (!e) {
      std::cerr << "broadcheck: --op: unknown op \"" << op << "\"; valid ops: " << bc::known_op_names() << "\n";
      return false;
    }
    parsed.push_back(e->op);
  }
  return true;
}

// "I/N" with 0 <= I < N, or GoogleTest's GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS when --shard is absent.
bool parse_shard(const std::string& text, bc::Shard& shard) {
  std::string t = text;
  if (t.empty()) {
    const char* index = std::getenv("GTEST_SHARD_INDEX");
    const char* total = std::getenv("GTEST_TOTAL_SHARDS");
    if (!index || !total) return true;
    t = std::string(index) + "/" + total;
  }
  const auto slash = t.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument(t);
    size_t used = 0;
    shard.index = std::stol(t.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument(t);
    shard.count = std::stol(t.substr(slash + 1), &used);
    if (used != t.size() - slash - 1) throw std::invalid_argument(t);
  } catch (const std::exception&) {
    std::cerr << "broadcheck: a shard is written I/N (for example 0/4), got \"" << t << "\"\n";
    return false;
  }
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count) {
    std::cerr << "broadcheck: shard " << t << " is out of range: need 0 <= I < N\n";
    return false;
  }
  return true;
}

// The config's and --oracle's implementations registered; "" on success, else the reason (naming the file or the
// option) the first one could not be.
// The config's and --oracle's implementations registered, and the replay commands' prefix set from them; "" on
// success, else the reason (naming the file or the option) the first one could not be.
std::string register_voters(const std::string& config, bool no_config, const std::vector<std::string>& oracle_texts,
                            bc::RunOptions& options) {
  std::vector<bc::ExternalSpec> specs, oracles;
  std::string config_read;  // "" when none is
  try {
    // The default config is read when it exists; one given with --config must.
    if (!no_config && (config != bc::default_config() || std::filesystem::exists(config))) {
      specs = bc::load_config(config);
      config_read = config;
    }
    std::set<std::string> named;
    for (const std::string& text : oracle_texts) {
      oracles.push_back(bc::parse_oracle_option(text));
      if (!named.insert(oracles.back().name).second) return "--oracle " + oracles.back().name + " is given twice";
    }
  } catch (const std::exception& e) {
    return e.what();
  }
  specs.insert(specs.end(), oracles.begin(), oracles.end());
  options.replay_prefix = bc::replay_prefix(options, config_read, oracles);
  return bc::register_external_implementations(specs, options.timeout_ms, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  bc::register_builtin_implementations();
  CLI::App app{"broadcheck: differential conformance of tensor broadcasting and autograd across implementations"};
  app.require_subcommand(1);
  bc::RunOptions options;
  for (int i = 0; i < argc; ++i) options.arguments.push_back(argv[i]);
  std::string corpus_dir = bc::default_corpus_dir(), known, shard_text, shrink_case;
  std::vector<std::string> merge_dirs;
  bool no_replay = false, no_known = false, quiet = false, no_isolation = false;
  long cases = 200;
  int budget = 4000;
  int jobs = bc::available_cores();
  NumberOptions numbers;
  app.set_version_flag("--version", bc::version_text, "print broadcheck's commit and the libraries' versions");

  auto common = [&](CLI::App* cmd) {
    cmd->add_option("--out", options.out, "folder for results.jsonl, summary.json, junit.xml, report.html")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", quiet, "print only errors, the verdict line and the report's path");
  };
  std::string config = bc::default_config();
  std::vector<std::string> oracle_texts;
  bool no_config = false;
  auto voters = [&](CLI::App* cmd) {
    cmd->add_option("--oracle", oracle_texts, "an implementation outside broadcheck, NAME=COMMAND speaking "
                                              "docs/protocol.md (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--config", config, "config file naming external implementations")->capture_default_str();
    cmd->add_flag("--no-config", no_config, "read no config file (only --oracle adds implementations)");
  };
  auto judged = [&](CLI::App* cmd) {
    voters(cmd);
    cmd->add_option("--known", known, "known divergences file (default: CORPUS_DIR/known_divergences.jsonl)");
    cmd->add_flag("--no-known", no_known, "declare no known divergences (every difference is new)");
    cmd->add_option("--corpus-dir", corpus_dir, "where the corpus lives")->capture_default_str();
    cmd->add_flag("--no-isolation", no_isolation, "call LibTorch in this process (a crash ends the run)");
    cmd->add_flag("--strict-zeros", options.strict_zeros,
                  "a difference in the sign of zero (values otherwise equal) fails the case; by default it is counted");
    cmd->add_flag("--fail-on-stale", options.fail_on_stale,
                  "fail the run (exit 1) when a declaration covered cases but explained none of them");
    cmd->add_flag("--fail-on-missing-coverage", options.fail_on_missing_coverage,
                  "fail the run (exit 1) when a coverage class a property requires was never drawn");
    cmd->add_option("--timeout-ms", numbers.timeout_ms,
                    "a case LibTorch has not answered by then is a timeout (1 or more; default 10000)");
  };
  auto op_filter = [&](CLI::App* cmd) {
    cmd->add_option("--op", options.ops, "only cases of this op (repeatable; `broadcheck list ops` names them)")
        ->allow_extra_args(false);
  };

  std::string results_mode = "findings";
  auto results_option = [&](CLI::App* cmd) {
    cmd->add_option("--results", results_mode, "which cases get a line in results.jsonl: findings (cases that "
                                               "do not simply agree, at most 50 per signature) or all")
        ->check(CLI::IsMember({"findings", "all"}))
        ->capture_default_str();
  };

  CLI::App* run = app.add_subcommand("run", "replay the corpus, then check every property on generated cases");
  run->add_option("--seed", numbers.seed, "random seed, 0 to 2^64-1; the same seed and flags give the same cases "
                                         "(default 1)");
  CLI::Option* cases_opt = run->add_option("--cases", numbers.cases, "generated cases per property (default 200; "
                                                                     "unlimited when only --time is given)");
  run->add_option("--time", numbers.time, "stop after this many seconds (above 0; 0 is refused: leave --time out "
                                          "for no limit), whatever --cases says");
  run->add_option("--property", options.properties, "only this property (repeatable): " + bc::property_names())
      ->allow_extra_args(false);
  op_filter(run);
  run->add_option("--shard", shard_text,
                  "run slice I of N (0-based, I/N); default from GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS");
  run->add_option("--save", options.save, "append each new minimal case to this corpus file (deduplicated)");
  run->add_flag("--no-replay", no_replay, "skip the corpus replay");
  std::string shrink_mode = "new";
  run->add_option("--shrink", shrink_mode, "which findings are shrunk to a minimal case: new (those no declaration "
                                           "explains), all (known ones too) or none")
      ->check(CLI::IsMember({"new", "all", "none"}))
      ->capture_default_str();
  run->add_option("--jobs", jobs, "split the run over this many processes (default: the cores available; at "
                                  "most 4 per core); the outputs are those of one process")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  common(run);
  judged(run);
  results_option(run);

  CLI::App* replay = app.add_subcommand("replay", "run corpus cases on every oracle and check their expectations");
  replay->add_option("files", options.corpus_files, "corpus files (JSON Lines)");
  replay->add_option("--case", options.inline_cases, "one case as JSON text (repeatable)")->allow_extra_args(false);
  replay->add_option("--reproduce", options.reproduce, "a finding's reproduce token bc1/SEED/PROPERTY/INDEX/PATH[/CASEPATH] "
                                                      "(its cases are judged as PROPERTY judges them)")
      ->allow_extra_args(false);
  replay->add_option("--property", options.case_property, "judge the --case cases as this property does (default: "
                                                          "on every oracle, as corpus cases)");
  op_filter(replay);
  common(replay);
  judged(replay);
  results_option(replay);

  CLI::App* shrink = app.add_subcommand("shrink", "shrink one case to a minimal one that fails the same way");
  shrink->add_option("--case", shrink_case, "the case as JSON text")->required();
  shrink->add_option("--budget", numbers.budget, "at most this many cases tried (default 4000)");
  shrink->add_flag("-q,--quiet", quiet, "print only the minimal case");
  judged(shrink);

  CLI::App* merge = app.add_subcommand("merge", "merge the output folders of shards into one result set");
  merge->add_option("dirs", merge_dirs, "shard output folders")->required();
  common(merge);
  voters(merge);

  std::string list_what;
  bool list_json = false;
  CLI::App* list = app.add_subcommand("list", "list ops (with each implementation's support), properties, kinds or oracles");
  list->add_option("what", list_what, "ops, properties, kinds or oracles")->required();
  list->add_flag("--json", list_json, "print JSON for scripts");
  voters(list);

  std::vector<std::string> lint_files, lint_known;
  CLI::App* lint = app.add_subcommand("lint", "check corpus and declaration files without running anything");
  lint->add_option("files", lint_files, "corpus files; a known_divergences.jsonl is read as declarations")->required();
  lint->add_option("--known", lint_known, "a declarations file of another name (repeatable)")->allow_extra_args(false);
  lint->add_flag("-q,--quiet", quiet, "print only errors");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : bc::kExitBadInput;
  }
  if (lint->parsed()) return bc::lint_command(lint_files, lint_known, quiet);
  if (!read_numbers(numbers, options, cases, budget) || !check_ops(options.ops, options.op_filter)) return bc::kExitBadInput;

  if (!no_known) options.declarations = known.empty() ? corpus_dir + "/known_divergences.jsonl" : known;
  if (quiet) options.progress = bc::Progress::quiet;
  options.results = bc::results_mode_from_string(results_mode);
  options.shrinking = *bc::shrinking_from_string(shrink_mode);
  options.isolate = !no_isolation;
  {
    // Every command registers the external implementations (merge too: the report titles them). A run or replay
    // that cannot reports why in its outputs, as it does every input error, and runs nothing.
    const std::string failed = register_voters(config, no_config, oracle_texts, options);
    if (!failed.empty()) {
      if (!run->parsed() && !replay->parsed()) {
        std::cerr << "broadcheck: " << failed << "\n";
        return bc::kExitBadInput;
      }
      options.input_errors.push_back(bc::visible_utf8(failed));
    }
  }
  if (list->parsed()) return bc::list_command(list_what, list_json);
  if (shrink->parsed()) return bc::shrink_command(shrink_case, options.declarations, budget, quiet);
  if (merge->parsed()) return bc::merge_runs(merge_dirs, options.out, quiet, options.arguments);
  if (run->parsed()) {
    options.command = "run";
    if (!parse_shard(shard_text, options.shard)) return bc::kExitBadInput;
    options.cases = cases;
    if (options.time_budget > 0 && cases_opt->count() == 0) options.cases.reset();
    if (!no_replay) options.corpus_files = default_corpus(corpus_dir, options.input_errors);
  } else {
    options.command = "replay";
    options.random = false;
    if (options.corpus_files.empty() && options.inline_cases.empty() && options.reproduce.empty()) {
      std::cerr << "broadcheck replay: give corpus files, --case '<json>' or --reproduce TOKEN\n";
      return bc::kExitBadInput;
    }
  }
  if (run->parsed()) {
    // Many more jobs than cores only compete for them, and the adapters and workers they start then miss their
    // deadlines (256 jobs on 2 cores was an internal error). The outputs are the same for any number of jobs.
    if (const int most = bc::kJobsPerCore * bc::available_cores(); jobs > most) {
      if (!quiet)
        std::cerr << "broadcheck: --jobs " << jobs << ": at most " << bc::kJobsPerCore << " per core available here, "
                  << "so the run takes " << most << " job(s); the outputs are the same\n";
      jobs = most;
    }
    return bc::run_jobs(options, jobs);
  }
  return bc::run_conformance(options);
}
