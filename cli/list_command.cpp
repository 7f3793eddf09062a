#include "cli/list_command.h"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_implementations.h"
#include "cli/op_support.h"
#include "run/exit_codes.h"
#include "engine/error.h"
#include "oracles/external_oracle.h"
#include "properties/registry.h"

namespace bc {
namespace {

// `names` after `label`, space-separated, on lines of at most 80 columns, each further line indented by 4.
std::string wrapped(const std::string& label, const std::set<std::string>& names) {
  std::string out = label, line;
  for (const std::string& n : names) {
    if (!line.empty() && out.size() - out.rfind('\n') - 1 + line.size() + 1 + n.size() > 80) {
      out += line + "\n   ";
      line.clear();
    }
    line += " " + n;
  }
  return out + line + "\n";
}

// What an adapter's handshake declared, for people (each list in full) and for scripts.
std::string declared_text(const Capabilities& caps) {
  const auto yes = [](bool b) { return b ? "yes" : "no"; };
  std::string text = fmt::format("  declares protocol {}; gradients {}{}; out {}; batch {}\n", caps.protocol,
                                 yes(caps.gradients), sends_upstream(caps) ? " (upstream sent)" : "",
                                 yes(caps.out), yes(caps.batch));
  text += wrapped(fmt::format("  ops ({}):", caps.ops.size()), caps.ops);
  text += wrapped("  dtypes:", caps.dtypes) + wrapped("  layouts:", caps.layouts);
  if (!caps.ignored.empty()) text += wrapped("  ignored (unknown here):", {caps.ignored.begin(), caps.ignored.end()});
  return text;
}

nlohmann::json declared_json(const Capabilities& caps) {
  return {{"protocol", caps.protocol}, {"ops", caps.ops},     {"dtypes", caps.dtypes},
          {"layouts", caps.layouts},   {"gradients", caps.gradients}, {"out", caps.out},
          {"batch", caps.batch},       {"ignored", caps.ignored}};
}

}  // namespace

int list_command(const std::string& what, bool json) {
  nlohmann::json out = nlohmann::json::array();
  std::string text;
  if (what == "ops") {
    // The implementations in this process: a crash in an example case would end the listing, and none crashes.
    const std::vector<SupportRow> rows = support_matrix(make_all_oracles(false));
    out = support_json(rows);
    text = support_text(rows);
  } else if (what == "properties") {
    for (const Property& p : properties()) {
      out.push_back(
          {{"name", p.name}, {"description", p.description}, {"required_coverage", required_classes(p)}});
      text += fmt::format("{:<26} {}\n", p.name, p.description);
    }
  } else if (what == "kinds") {
    for (ErrorKind k : all_error_kinds()) {
      out.push_back(to_string(k));
      text += std::string(to_string(k)) + "\n";
    }
  } else if (what == "oracles") {
    for (const auto& o : make_all_oracles(false)) {
      const Implementation* i = find_implementation(o->name());
      const std::string title = i ? i->title : o->name(), role = i ? to_string(i->role) : "voter";
      out.push_back({{"name", o->name()}, {"title", title}, {"role", role}, {"version", o->version()}});
      text += fmt::format("{:<10} {:<10} {:<20} {}\n", o->name(), role, title, o->version());
      // An adapter also shows its command and what its handshake declared.
      if (const auto* ext = dynamic_cast<const ExternalOracle*>(o.get())) {
        const Capabilities& caps = ext->capabilities();
        out.back()["command"] = ext->command();
        out.back()["declares"] = declared_json(caps);
        text += "  command: " + ext->command() + "\n" + declared_text(caps);
      }
    }
  } else {
    std::cerr << "broadcheck list: unknown list \"" << what << "\"; valid: ops, properties, kinds, oracles\n";
    return kExitBadInput;
  }
  std::cout << (json ? out.dump(2) + "\n" : text);
  return 0;
}

}  // namespace bc
