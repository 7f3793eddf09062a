#include "cli/run_fingerprint.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness/case.h"
#include "harness/known_divergence.h"

namespace bc {
namespace {

std::string hex(const std::string& text) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(stable_hash(text)));
  return buf;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "unreadable: " + path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each item with its length, so that no two lists of items give the same text.
void append(std::string& text, const std::string& item) { text += std::to_string(item.size()) + ":" + item + "\n"; }

// The declarations in force: the file, and those of them this machine's processor lacks a feature for (inactive
// here: harness/processor.h), so that shards run on unlike processors are not merged as one run.
std::string declarations_in_force(const std::string& path) {
  if (path.empty()) return "none";
  std::string text = "file:" + contents(path);
  for (const std::string& inactive : inactive_on_this_processor(read_declarations(path).declarations))
    append(text, "inactive:" + inactive);
  return text;
}

}  // namespace

std::map<std::string, std::string> run_fingerprint(const RunOptions& o,
                                                   const std::map<std::string, std::string>& versions) {
  std::string flags;
  append(flags, "command=" + o.command);
  append(flags, "seed=" + std::to_string(o.seed));
  append(flags, "cases=" + (o.cases ? std::to_string(*o.cases) : std::string("unlimited")));
  append(flags, "time=" + std::to_string(o.time_budget));
  for (const std::string& p : o.properties) append(flags, "property=" + p);
  append(flags, "random=" + std::to_string(o.random));
  append(flags, "corpus_files=" + std::to_string(o.corpus_files.size()));
  append(flags, "max_shrink=" + std::to_string(o.max_shrink_evaluations));
  append(flags, std::string("shrink=") + to_string(o.shrinking));
  append(flags, "isolate=" + std::to_string(o.isolate));
  append(flags, "strict_zeros=" + std::to_string(o.strict_zeros));
  append(flags, "fail_on_stale=" + std::to_string(o.fail_on_stale));
  append(flags, "fail_on_missing_coverage=" + std::to_string(o.fail_on_missing_coverage));
  append(flags, "timeout_ms=" + std::to_string(o.timeout_ms));
  append(flags, std::string("results=") + (o.results == ResultsMode::all ? "all" : "findings"));

  std::string corpus;
  for (const std::string& f : o.corpus_files) append(corpus, "file:" + contents(f));
  for (const std::string& c : o.inline_cases) append(corpus, "case:" + c);
  if (!o.case_property.empty()) append(corpus, "case_property:" + o.case_property);
  for (const std::string& r : o.reproduce) append(corpus, "reproduce:" + r);

  std::string implementations;
  for (const auto& [name, version] : versions) append(implementations, name + "=" + version);

  return {{"flags", hex(flags)},
          {"corpus", hex(corpus)},
          {"declarations", hex(declarations_in_force(o.declarations))},
          {"implementations", hex(implementations)}};
}

}  // namespace bc
