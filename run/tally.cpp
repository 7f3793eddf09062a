#include "run/tally.h"

#include <algorithm>

#include "harness/implementations.h"
#include "harness/scoreboard.h"
#include "properties/registry.h"
#include "run/declaration_scope.h"

namespace bc {

namespace {

// Whether `id` is one of the comma-separated ids in `ids` (a judgement's known_id).
bool lists_id(const std::string& ids, const std::string& id) {
  if (id.empty() || ids.empty()) return false;  // most cases have no known id: nothing to search
  for (size_t at = ids.find(id); at != std::string::npos; at = ids.find(id, at + 1))
    if ((at == 0 || ids[at - 1] == ',') && (at + id.size() == ids.size() || ids[at + id.size()] == ',')) return true;
  return false;
}

}  // namespace

void RunTally::use_declarations(const std::vector<Declaration>& declarations) {
  for (const Declaration& d : declarations) {
    summary_.declarations.push_back({d, 0, 0});
    auto at = std::find(named_.begin(), named_.end(), d.oracle);
    if (at == named_.end()) at = named_.insert(at, d.oracle);
    names_.push_back(static_cast<size_t>(at - named_.begin()));
  }
}

void RunTally::count(const CaseRecord& r) {
  ++summary_.cases_per_property[r.property];
  ++summary_.cases_per_op[r.property][to_string(r.c.op)];
  add_to_scoreboard(summary_.scoreboard, r);
  summary_.coverage.add(r.property, r.c);
  if (!r.outcomes.empty()) summary_.coverage.add_outcome(r.property, r.outcomes.front());
  // A variant (another path through a voter's library) does not vote: its answers show that the path ran; so do
  // an implementation's answers in the dtypes it must be seen to answer.
  for (const auto& named : r.outcomes) {
    const Implementation* i = find_implementation(named.first);
    if (!i || named.second.status == Status::unsupported) continue;
    if (i->role == Role::variant) summary_.coverage.add_outcome(r.property, named);
    for (DType t : i->answers)
      if (std::find(r.c.dtypes.begin(), r.c.dtypes.end(), t) != r.c.dtypes.end())
        summary_.coverage.add_class(r.property, named.first + " answers " + to_string(t));
  }
  for (size_t k = 0; k < r.outcomes.size(); ++k) count_status(k, r.outcomes[k]);
  count_declarations(r);
}

// Counts an outcome that neither succeeded nor failed ("torch:unsupported"), the `k`th of its case. The outcomes
// come in the same order case after case, so the count the kth outcome went to last time is tried first.
void RunTally::count_status(size_t k, const std::pair<std::string, Outcome>& named) {
  const Status status = named.second.status;
  if (status == Status::ok || status == Status::error) return;
  if (k >= status_slots_.size()) status_slots_.resize(k + 1);
  StatusSlot& slot = status_slots_[k];
  if (!slot.count || slot.status != status || slot.name != named.first)
    slot = {named.first, status, &summary_.statuses[named.first + ":" + to_string(status)]};
  ++*slot.count;
}

// A declaration is in scope when the case ran on the implementation it names (an absent adapter's declarations
// never are): the cheaper test, so it comes first, asked once per name and case.
void RunTally::count_declarations(const CaseRecord& r) {
  ran_.assign(named_.size(), -1);
  const Property* checked = find_property(r.property);
  const Check check = checked ? checked->check : Check::oracles;
  for (const size_t k : declarations_for(r.c.op)) {
    DeclarationUse& u = summary_.declarations[k];
    signed char& ran = ran_[names_[k]];
    if (ran < 0) ran = named_[names_[k]] == "document" || find_outcome(r.outcomes, named_[names_[k]]);
    if (ran && u.declaration.covers_beyond_op(r.c) && could_explain(u.declaration, check, r)) ++u.covered;
    if (lists_id(r.judgement.known_id, u.declaration.id)) ++u.matched;
  }
}

// The declarations whose op list admits `op` (indices into summary_.declarations): only those can cover or match
// its cases, so the others are not looked at for every case.
const std::vector<size_t>& RunTally::declarations_for(Op op) {
  auto it = declarations_for_op_.find(op);
  if (it != declarations_for_op_.end()) return it->second;
  std::vector<size_t>& mine = declarations_for_op_[op];
  for (size_t k = 0; k < summary_.declarations.size(); ++k)
    if (summary_.declarations[k].declaration.covers_op(op)) mine.push_back(k);
  return mine;
}

}  // namespace bc
