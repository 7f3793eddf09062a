#include "cli/external_implementations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/implementations.h"
#include "harness/shell_quote.h"
#include "oracles/external_oracle.h"

namespace bc {
namespace {

// An adapter's part of a regression draft: it has no GoogleTest test, its reproduction is a shell command.
constexpr const char* kAdapterDraft =
    "// An adapter: the case on it alone is the finding's adapter command (a shell command: the handshake, then the "
    "request, piped into the adapter).\n";

std::vector<ExternalSpec>& registered() {
  static std::vector<ExternalSpec> all;
  return all;
}

}  // namespace

ExternalSpec parse_oracle_option(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos) throw std::invalid_argument("--oracle takes NAME=COMMAND, got \"" + text + "\"");
  ExternalSpec s{text.substr(0, eq), text.substr(eq + 1), false, "--oracle"};
  if (s.name.empty() || s.command.empty()) throw std::invalid_argument("--oracle needs a name and a command: \"" + text + "\"");
  // The folder it was named in, written into the command: a replay or reproduction run elsewhere finds what it names.
  s.command = "cd " + shell_quote(std::filesystem::current_path().string()) + " && " + s.command;
  return s;
}

std::vector<ExternalSpec> load_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read the config file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("oracles") || !j["oracles"].is_object())
    throw std::runtime_error(path + ": needs {\"oracles\": {\"NAME\": {\"command\": \"...\"}}}");
  const std::string dir = std::filesystem::absolute(path).parent_path().string();
  std::vector<ExternalSpec> out;
  for (auto it = j["oracles"].begin(); it != j["oracles"].end(); ++it) {
    ExternalSpec s{it.key(), "", false, path};
    if (it->is_string()) {
      s.command = it->get<std::string>();
    } else if (it->is_object() && it->contains("command") && (*it)["command"].is_string()) {
      s.command = (*it)["command"].get<std::string>();
      s.optional = it->value("optional", false);
    } else {
      throw std::runtime_error(path + ": oracle \"" + it.key() + "\" needs a \"command\" string");
    }
    s.command = "cd " + shell_quote(dir) + " && exec " + s.command;
    out.push_back(std::move(s));
  }
  return out;
}

std::string register_external_implementations(const std::vector<ExternalSpec>& specs, int timeout_ms,
                                              std::ostream& notes) {
  for (const ExternalSpec& s : specs) {
    if (const Implementation* i = find_implementation(s.name); i && i->role != Role::voter)
      return "--oracle " + s.name + ": the name of a built-in implementation that cannot be replaced";
    std::string title;
    try {
      ExternalOracle probe(s.name, s.command, std::chrono::milliseconds(timeout_ms));
      title = probe.capabilities().name;
    } catch (const std::exception& e) {
      if (!s.optional) return e.what();
      notes << "broadcheck: leaving out " << s.name << " (" << s.source << "): " << e.what() << "\n";
      continue;
    }
    const std::string command = s.command;
    register_implementation({s.name, title, Role::voter,
                             [](const Case&, const Outcome&, const std::string&) {
                               return std::string(kAdapterDraft);
                             },
                             "", {}, [command](const Case& c) { return external_reproduction(command, c); }});
    auto& all = registered();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const ExternalSpec& e) { return e.name == s.name; }),
              all.end());
    all.push_back(s);
  }
  return "";
}

const std::vector<ExternalSpec>& external_implementations() { return registered(); }

}  // namespace bc
