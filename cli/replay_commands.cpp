#include "cli/replay_commands.h"

#include <cstdio>
#include <filesystem>

#include "harness/implementations.h"
#include "harness/shell_quote.h"
#include "properties/registry.h"
#include "reports/html_text.h"
#include "reports/regression_draft.h"

namespace bc {
namespace {

// The running broadcheck (/proc/self/exe), so that a command copied anywhere runs this very binary.
std::string this_binary() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("broadcheck") : self.string();
}

std::string absolute(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

}  // namespace

std::string finding_id(const Case& c) {
  char id[32];
  std::snprintf(id, sizeof id, "finding-%012llx",
                static_cast<unsigned long long>(stable_hash(canonical_form(c)) & 0xffffffffffffull));
  return id;
}

std::string replay_prefix(const RunOptions& options, const std::string& config,
                          const std::vector<ExternalSpec>& oracles) {
  std::vector<std::string> words = {this_binary(), "replay"};
  if (config.empty()) words.push_back("--no-config");
  else words.insert(words.end(), {"--config", absolute(config)});
  for (const ExternalSpec& s : oracles) words.insert(words.end(), {"--oracle", s.name + "=" + s.command});
  if (options.declarations.empty()) words.push_back("--no-known");
  else words.insert(words.end(), {"--known", absolute(options.declarations)});
  if (options.strict_zeros) words.push_back("--strict-zeros");
  if (!options.isolate) words.push_back("--no-isolation");
  if (options.timeout_ms != RunOptions{}.timeout_ms)
    words.insert(words.end(), {"--timeout-ms", std::to_string(options.timeout_ms)});
  return shell_words(words);
}

void describe_reproduction(Finding& f, const std::string& prefix) {
  Case bare = f.minimal.c;
  bare.tags.clear();
  const std::string start = prefix + " --out broadcheck-" + finding_id(f.minimal.c);
  // A generated case is judged by its property's check (an equivalence, finite differences, algebra), not as a
  // corpus case on every oracle; a reproduce token names its property itself.
  const std::string check = find_property(f.property) ? " --property " + shell_word(f.property) : "";
  f.replay_command = start + check + " --case " + shell_quote(json_text(to_json(bare)));
  f.reproduce_command = f.reproduce.empty() ? "" : start + " --reproduce " + shell_word(f.reproduce);
  f.adapter_commands.clear();
  for (const std::string& who : f.minimal.judgement.odd_ones)
    if (const Implementation* i = find_implementation(who); i && i->shell_reproduction)
      f.adapter_commands[who] = i->shell_reproduction(f.minimal.c);
  f.regression_draft = regression_draft(f.minimal);
}

}  // namespace bc
