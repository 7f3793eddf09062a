#include "harness/nondeterminism.h"

#include <algorithm>

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/signature.h"

namespace bc {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The numbers that stand in for a withheld outcome's: the rule's when it returned the same shape and dtype, else
// those of the first other implementation that did and kept its numbers. Without one, the numbers stay empty:
// the outcomes differ in status, shape or dtype, and the judge compares no numbers then.
const Outcome* stand_in_for(const Outcome& withheld, const Outcomes& outcomes) {
  const auto usable = [&](const Outcome& o) {
    return !o.withheld && o.status == Status::ok && first_difference(withheld, o).empty();
  };
  if (const Outcome* rule = find_outcome(outcomes, name_with_role(Role::rule)); rule && usable(*rule)) return rule;
  for (const auto& [name, o] : outcomes)
    if (usable(o)) return &o;
  return nullptr;
}

void stand_in(Outcome& o, const Outcome& source) {
  o.values = source.values;
  for (size_t k = 0; k < o.grads.size() && k < source.grads.size(); ++k)
    if (o.grads[k] && source.grads[k] && o.grads[k]->shape == source.grads[k]->shape &&
        o.grads[k]->dtype == source.grads[k]->dtype)
      o.grads[k]->values = source.grads[k]->values;
}

}  // namespace

std::vector<const Declaration*> nondeterministic_declarations(const Case& c, const Outcomes& outcomes,
                                                              const std::vector<Declaration>& declarations) {
  std::vector<const Declaration*> out;
  if (!c.values) return out;  // a shape-level case has no numbers to change
  static const std::string nondeterministic = "nondeterministic";  // std::string == std::string: sizes first
  for (const Declaration& d : declarations) {
    if (d.on != nondeterministic || !d.covers(c)) continue;
    const Outcome* o = find_outcome(outcomes, d.oracle);
    if (o && o->status != Status::unsupported) out.push_back(&d);
  }
  return out;
}

void withhold_values(Outcomes& outcomes, const std::vector<std::string>& names) {
  for (auto& [name, o] : outcomes) {
    if (!listed(names, name) || o.status != Status::ok) continue;
    o.values = Values{};
    for (auto& g : o.grads)
      if (g) g->values = Values{};
    o.withheld = true;
  }
}

Judgement judge_with_nondeterminism(const std::string& property, const Case& c, Outcomes& outcomes,
                                    const std::vector<Declaration>& declarations) {
  const std::vector<const Declaration*> covering = nondeterministic_declarations(c, outcomes, declarations);
  if (covering.empty()) return judge(property, c, outcomes, declarations);
  std::vector<std::string> names, ids;
  for (const Declaration* d : covering) {
    if (!listed(names, d->oracle)) names.push_back(d->oracle);
    ids.push_back(d->id);
  }
  withhold_values(outcomes, names);
  Outcomes judged = outcomes;
  for (auto& [name, o] : judged)
    if (o.withheld)
      if (const Outcome* source = stand_in_for(o, outcomes)) stand_in(o, *source);
  Judgement j = judge(property, c, judged, declarations);
  std::vector<std::string> titles;
  for (const std::string& name : names) titles.push_back(title_of(name));
  const std::string why = join(titles, " and ") + " gave numbers that change from run to run, as declared; they are not compared";
  j.differences.insert(j.differences.begin(), Difference{"nondeterministic", FindingClass::outcome, -1, names, why, ids, {},
                                                         Verdict::discrepancy});
  if (j.verdict == Verdict::agree) {
    j.verdict = Verdict::known;
    j.difference = "nondeterministic";
    j.odd_ones = names;
    j.attribution = why;
    j.known_id = join(ids, ",");
    j.signature = make_signature({property, family_of(c), "nondeterministic", names, to_string(c.op)});
  } else if (j.verdict == Verdict::known) {
    for (const std::string& id : ids)
      if (("," + j.known_id + ",").find("," + id + ",") == std::string::npos) j.known_id += "," + id;
  }
  return j;
}

}  // namespace bc
