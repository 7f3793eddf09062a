// An implementation registered for the lifetime of one test, so that tests run in one process do not see each
// other's registrations.
#pragma once

#include <string>

#include "harness/implementations.h"

namespace bc {

struct Registered {
  explicit Registered(const std::string& name, Role role = Role::voter, const std::string& base = "") : name_(name) {
    register_implementation({name, name, role, {}, base, {}});
  }
  ~Registered() { unregister_implementation(name_); }
  Registered(const Registered&) = delete;
  Registered& operator=(const Registered&) = delete;

 private:
  std::string name_;
};

}  // namespace bc
