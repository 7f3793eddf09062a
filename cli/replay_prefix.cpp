#include "cli/replay_prefix.h"

#include <filesystem>

#include "harness/shell_quote.h"

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

}  // namespace bc
