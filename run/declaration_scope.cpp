#include "run/declaration_scope.h"

#include "harness/implementations.h"

namespace bc {

bool could_explain(const Declaration& d, Check check, const CaseRecord& r) {
  if (d.on == "equivalence") return check == Check::equivalence;
  if (d.difference == "finite differences") return check == Check::finite_differences;
  if (check != Check::oracles) return false;
  if (d.on == "grads" && !is_gradient_case(r.c)) return false;
  if (d.on != "values" && d.on != "grads") return true;
  bool own = false;
  int computed = 0;
  for (const auto& [name, o] : r.outcomes) {
    const Implementation* i = find_implementation(name);
    if (i && i->role == Role::rule && !d.expected.matches(o)) return false;  // the rule's outcome it is measured from
    if (o.status != Status::ok || !i || i->role == Role::variant) continue;
    ++computed;
    own = own || name == d.oracle;
  }
  return own && computed >= 2;
}

}  // namespace bc
