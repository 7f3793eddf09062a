// broadcheck's command line: `run` (corpus replay, then property search), `replay` (corpus files or --case).
// Exit codes: 0 nothing new disagrees, 1 new findings, 2 bad usage or input, 3 internal error.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/run.h"
#include "properties/registry.h"

#ifndef BC_DEFAULT_CORPUS_DIR
#define BC_DEFAULT_CORPUS_DIR "corpus"
#endif

namespace {

// corpus/*.jsonl except the divergence declarations, in name order (seeds before findings).
std::vector<std::string> default_corpus(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto& p = entry.path();
    if (p.extension() == ".jsonl" && p.filename() != "known_divergences.jsonl") files.push_back(p.string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"broadcheck: differential conformance of tensor broadcasting across our engine, LibTorch and xtensor"};
  app.require_subcommand(1);
  bc::RunOptions options;
  for (int i = 0; i < argc; ++i) options.arguments.push_back(argv[i]);
  std::string corpus_dir = BC_DEFAULT_CORPUS_DIR;
  std::string known;
  bool no_replay = false, no_known = false;

  auto common = [&](CLI::App* cmd) {
    cmd->add_option("--out", options.out, "folder for results.jsonl, summary.json, junit.xml, report.html")
        ->capture_default_str();
    cmd->add_option("--known", known, "known divergences file (default: CORPUS_DIR/known_divergences.jsonl)");
    cmd->add_flag("--no-known", no_known, "declare no known divergences (every difference is new)");
    cmd->add_option("--corpus-dir", corpus_dir, "where the corpus lives")->capture_default_str();
    cmd->add_flag("-q,--quiet", options.quiet, "print nothing but errors");
  };

  CLI::App* run = app.add_subcommand("run", "replay the corpus, then check every property on generated cases");
  run->add_option("--seed", options.seed, "random seed; the same seed and flags give the same cases")
      ->capture_default_str();
  run->add_option("--cases", options.cases, "generated cases per property")->capture_default_str()->check(
      CLI::NonNegativeNumber);
  run->add_option("--property", options.properties, "only this property (repeatable): " + bc::property_names());
  run->add_flag("--no-replay", no_replay, "skip the corpus replay");
  common(run);

  CLI::App* replay = app.add_subcommand("replay", "run corpus cases on every oracle and check their expectations");
  replay->add_option("files", options.corpus_files, "corpus files (JSON Lines)");
  replay->add_option("--case", options.inline_cases, "one case as JSON text (repeatable)");
  common(replay);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : bc::kExitBadInput;
  }

  if (!no_known) options.declarations = known.empty() ? corpus_dir + "/known_divergences.jsonl" : known;
  if (run->parsed()) {
    options.command = "run";
    if (!no_replay) options.corpus_files = default_corpus(corpus_dir);
  } else {
    options.command = "replay";
    options.random = false;
    if (options.corpus_files.empty() && options.inline_cases.empty()) {
      std::cerr << "broadcheck replay: give corpus files or --case '<json>'\n";
      return bc::kExitBadInput;
    }
  }
  return bc::run_conformance(options);
}
