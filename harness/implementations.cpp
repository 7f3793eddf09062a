#include "harness/implementations.h"

#include <algorithm>
#include <stdexcept>

namespace bc {
namespace {

std::vector<Implementation>& registry() {
  static std::vector<Implementation> all;
  return all;
}

}  // namespace

const char* to_string(Role r) {
  switch (r) {
    case Role::rule: return "rule";
    case Role::reference: return "reference";
    case Role::document: return "document";
    case Role::voter: return "voter";
    case Role::variant: return "variant";
  }
  return "voter";
}

const std::vector<Implementation>& implementations() { return registry(); }

void register_implementation(Implementation i) {
  if (i.name.empty() || i.name == "document" || i.name.find(" unfused") != std::string::npos)
    throw std::invalid_argument("\"" + i.name + "\" cannot name an implementation");
  for (Implementation& r : registry()) {
    if (r.name == i.name) {
      r = std::move(i);
      return;
    }
    if (i.role != Role::voter && i.role != Role::variant && r.role == i.role)
      throw std::invalid_argument(i.name + " cannot be the " + to_string(i.role) + ": " + r.name + " is");
  }
  auto& all = registry();  // the document implementation, if any, stays last (a second one threw above)
  all.insert(std::find_if(all.begin(), all.end(), [](const Implementation& r) { return r.role == Role::document; }),
             std::move(i));
}

void unregister_implementation(const std::string& name) {
  auto& all = registry();
  all.erase(std::remove_if(all.begin(), all.end(), [&](const Implementation& i) { return i.name == name; }), all.end());
}

const Implementation* find_implementation(const std::string& name) {
  for (const Implementation& i : registry())
    if (i.name == name) return &i;
  return nullptr;
}

std::string name_with_role(Role r) {
  for (const Implementation& i : registry())
    if (i.role == r) return i.name;
  return "";
}

std::string title_of(const std::string& name) {
  const Implementation* i = find_implementation(name);
  return i ? i->title : name;
}

std::string implementation_names() {
  std::string out;
  for (const Implementation& i : registry()) out += (out.empty() ? "" : ", ") + i.name;
  return out;
}

}  // namespace bc
