#include "cli/list_command.h"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_implementations.h"
#include "cli/op_support.h"
#include "cli/run.h"
#include "engine/error.h"
#include "oracles/external_oracle.h"
#include "properties/registry.h"

namespace bc {

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
        const auto list = [](const std::set<std::string>& names) { return nlohmann::json(names); };
        out.back()["command"] = ext->command();
        out.back()["declares"] = {{"ops", list(caps.ops)}, {"dtypes", list(caps.dtypes)},
                                  {"layouts", list(caps.layouts)}, {"gradients", caps.gradients},
                                  {"batch", caps.batch}, {"ignored", caps.ignored}};
        text += fmt::format("  command: {}\n  declares {} ops; dtypes {}; layouts {}; gradients {}\n",
                            ext->command(), caps.ops.size(), list(caps.dtypes).dump(), list(caps.layouts).dump(),
                            caps.gradients ? "yes" : "no");
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
