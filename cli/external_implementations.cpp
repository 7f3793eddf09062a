#include "cli/external_implementations.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/implementations.h"
#include "harness/input_lines.h"
#include "harness/shell_quote.h"
#include "harness/utf8.h"
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

// The config file's text; throws InputError with the reason it cannot be read.
std::string config_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("cannot read the config file: a directory, not a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(std::string("cannot read the config file: ") + (errno ? std::strerror(errno) : "unknown reason"));
  std::string text(kMaxInputBytes + 1, '\0');  // one byte more than parse_input_json takes, so it sees an overlong file
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
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
  const auto refuse = [&](const std::string& why) { return std::runtime_error(visible_utf8(path + ": " + why)); };
  nlohmann::json j;
  try {
    j = parse_input_json(config_text(path));
  } catch (const InputError& e) {
    throw refuse(e.what());
  }
  const char* form = "needs {\"oracles\": {\"NAME\": {\"command\": \"...\", \"optional\": true}}}";
  if (!j.is_object() || !j.contains("oracles") || !j["oracles"].is_object()) throw refuse(form);
  for (const auto& [key, value] : j.items())
    if (key != "oracles") throw refuse("unknown field \"" + key + "\"; " + form);
  const std::string dir = std::filesystem::absolute(path).parent_path().string();
  std::vector<ExternalSpec> out;
  for (const auto& [name, entry] : j["oracles"].items()) {
    const std::string field = "\"oracles." + name;
    ExternalSpec s{name, "", false, path};
    if (entry.is_string()) {
      s.command = entry.get<std::string>();
    } else if (entry.is_object()) {
      for (const auto& [key, value] : entry.items()) {
        if (key == "command" && value.is_string()) s.command = value.get<std::string>();
        else if (key == "optional" && value.is_boolean()) s.optional = value.get<bool>();
        else if (key == "command") throw refuse(field + ".command\" must be a string");
        else if (key == "optional") throw refuse(field + ".optional\" must be true or false");
        else throw refuse("unknown field " + field + "." + key + "\"; valid: command, optional");
      }
    } else {
      throw refuse(field + "\" must be a command string or {\"command\": \"...\"}");
    }
    if (s.command.empty()) throw refuse(field + "\" needs a \"command\" string");
    s.command = "cd " + shell_quote(dir) + " && exec " + s.command;
    out.push_back(std::move(s));
  }
  return out;
}

std::string register_external_implementations(const std::vector<ExternalSpec>& specs, int timeout_ms,
                                              std::ostream& notes) {
  for (const ExternalSpec& s : specs)
    if (const Implementation* i = find_implementation(s.name); i && i->role != Role::voter)
      return (s.source == "--oracle" ? "--oracle " + s.name : s.source + ": \"oracles." + s.name + "\"") +
             ": the name of a built-in implementation that cannot be replaced";
  // Every adapter is launched before any handshake is read, so that they start together.
  std::vector<std::unique_ptr<ExternalOracle>> probes;
  for (const ExternalSpec& s : specs) {
    probes.push_back(std::make_unique<ExternalOracle>(s.name, s.command, std::chrono::milliseconds(timeout_ms)));
    probes.back()->prepare();
  }
  for (size_t k = 0; k < specs.size(); ++k) {
    const ExternalSpec& s = specs[k];
    std::string title, version;
    bool upstream = false;
    try {
      title = probes[k]->capabilities().name;
      version = probes[k]->version();
      upstream = sends_upstream(probes[k]->capabilities());
    } catch (const std::exception& e) {
      if (!s.optional) return e.what();
      notes << "broadcheck: leaving out " << s.name << " (" << s.source << "): " << e.what() << "\n";
      continue;
    }
    probes[k].reset();  // it has said what it is; the run's oracles start their own
    const std::string command = s.command;
    register_implementation({s.name, title, Role::voter,
                             [](const Case&, const Outcome&, const std::string&) {
                               return std::string(kAdapterDraft);
                             },
                             "", {}, [command, upstream](const Case& c) { return external_reproduction(command, c, upstream); }});
    auto& all = registered();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const ExternalSpec& e) { return e.name == s.name; }),
              all.end());
    all.push_back(s);
    all.back().version = version;
  }
  return "";
}

const std::vector<ExternalSpec>& external_implementations() { return registered(); }

}  // namespace bc
