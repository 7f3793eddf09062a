#include "cli/list_command.h"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_implementations.h"
#include "cli/op_support.h"
#include "cli/run.h"
#include "engine/error.h"
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
      out.push_back({{"name", p.name}, {"description", p.description}, {"required_coverage", p.required}});
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
    }
  } else {
    std::cerr << "broadcheck list: unknown list \"" << what << "\"; valid: ops, properties, kinds, oracles\n";
    return kExitBadInput;
  }
  std::cout << (json ? out.dump(2) + "\n" : text);
  return 0;
}

}  // namespace bc
