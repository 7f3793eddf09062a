// The registry of implementations: who votes in this process, in vote order, each with its name (the key of its
// outcomes and declarations), a title for people, its role in the judgement and how to reproduce a finding without
// broadcheck. The built-in ones are registered in cli/builtin_implementations.cpp, one line each; external ones
// join at run time. Nothing outside an implementation's own files and that line names it (docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// rule: states the documents' rules, so every departure is measured from it (the engine). reference: the
// reference for behaviour and message text (LibTorch 1.13). document: the documents' own answer, where they state
// one (oracles/document_oracle.h); it votes last, and its disagreements are "documentation vs implementation".
// voter: any other implementation. variant: another path through a voter's library (another container or assignment
// form); it does not vote, it is compared with its `base` alone (a difference is the variant's). At most one each of
// rule, reference and document; the judge works without any of them (then it only reports majorities).
enum class Role { rule, reference, document, voter, variant };
const char* to_string(Role r);

struct Implementation {
  std::string name;
  std::string title;
  Role role = Role::voter;
  // A reproduction of `c` that needs only this library (a GoogleTest draft, or a command line), asserting `want`,
  // the rule's outcome; "" when the implementation has none.
  std::function<std::string(const Case& c, const Outcome& want, const std::string& test_name)> reproduction;
  std::string base;  // a variant's voter (its library's main path); "" for the other roles
  // Dtypes a run must see this implementation answer (anything but unsupported) in a value case: coverage requires
  // "<name> answers <dtype>" of the properties whose cases the variants run (properties/registry.cpp).
  std::vector<DType> answers;
  // For an adapter (docs/protocol.md): one shell command that runs `c` on it alone from any folder; empty for the
  // others.
  std::function<std::string(const Case& c)> shell_reproduction = nullptr;
};

// The registered implementations, in registration (= vote) order.
const std::vector<Implementation>& implementations();
// Adds `i` (before the document implementation, which stays last), or replaces the registered one of the same
// name (keeping its place). Throws std::invalid_argument for an empty name, a name with " unfused" or "document"
// (reserved for the equivalence outcomes and expectations), or a second rule, reference or document.
void register_implementation(Implementation i);
// Removes the implementation of that name, if registered (a run leaves out an implementation it was told to).
void unregister_implementation(const std::string& name);
const Implementation* find_implementation(const std::string& name);
// The name of the implementation with that role, or "" when none is registered.
std::string name_with_role(Role r);
// The registered implementation's title, or `name` itself when none is registered under it.
std::string title_of(const std::string& name);
// "engine, torch, xtensor": the registered names, for messages.
std::string implementation_names();

}  // namespace bc
