#include "run/evaluate.h"

#include <algorithm>

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/nondeterminism.h"
#include "harness/signature.h"
#include "properties/equivalence.h"
#include "properties/registry.h"
#include "run/finite_difference.h"

namespace bc {

namespace {

// Seed 003's equivalence, on each implementation by itself (properties/equivalence.h): the outcomes of each
// oracle on the case and on its unfused twin, listed as "<oracle>" and "<oracle> unfused".
void run_equivalence(CaseRecord& r, std::vector<std::unique_ptr<Oracle>>& oracles) {
  const std::optional<Case> twin = unfused_twin(r.c);
  if (!twin) return;
  for (auto& o : oracles) {
    r.outcomes.emplace_back(o->name(), o->run(r.c));
    r.outcomes.emplace_back(o->name() + " unfused", o->run(*twin));
  }
}

// The equivalence judged: an implementation whose two forms differ is an odd one out, unless a declaration (on
// "equivalence") explains that very difference.
void judge_equivalence(const std::string& property, CaseRecord& r, const std::vector<Declaration>& declarations) {
  const Case& c = r.c;
  std::vector<std::string> differences, details, known;
  for (size_t k = 0; k + 1 < r.outcomes.size(); k += 2) {
    const std::string& name = r.outcomes[k].first;
    const Outcome &fused = r.outcomes[k].second, &unfused = r.outcomes[k + 1].second;
    const bool compared = fused.status != Status::unsupported && unfused.status != Status::unsupported;
    const std::optional<EquivalenceDeparture> d = compared ? equivalence_departure(c, fused, unfused) : std::nullopt;
    if (!d) continue;
    r.judgement.odd_ones.push_back(name);
    differences.push_back(d->difference);
    details.push_back(name + " (" + d->difference + "): " + d->detail);
    for (const Declaration& decl : declarations)
      if (decl.oracle == name && decl.on == "equivalence" && decl.covers(c) && decl.explains(d->difference)) {
        known.push_back(decl.id);
        break;
      }
  }
  if (r.judgement.odd_ones.empty()) return;
  const bool all_known = known.size() == r.judgement.odd_ones.size();
  r.judgement.verdict = all_known ? Verdict::known : Verdict::discrepancy;
  r.judgement.known_id = all_known ? join(known, ",") : "";  // as the judge lists them
  r.judgement.difference = "equivalence";
  r.judgement.attribution = "the fused op and its unfused form differ on " + join(details, ", ");
  r.judgement.signature = make_signature(
      {property, family_of(c), "equivalence: " + join(differences, ", "), r.judgement.odd_ones, to_string(c.op), ", "});
}

// The oracle of the rule's implementation (harness/implementations.h), or the first one when none is registered.
Oracle& rule_oracle(std::vector<std::unique_ptr<Oracle>>& oracles) {
  const std::string name = name_with_role(Role::rule);
  for (auto& o : oracles)
    if (o->name() == name) return *o;
  return *oracles.front();
}

// How a case of `property` is checked: a corpus case ("corpus", no property) on every oracle.
Check check_of(const std::string& property) {
  const Property* p = find_property(property);
  return p ? p->check : Check::oracles;
}

}  // namespace

void submit_requests(const std::string& property, const Case& c, std::vector<std::unique_ptr<Oracle>>& oracles) {
  const Check check = check_of(property);
  if (check == Check::algebra || check == Check::finite_differences) return;
  const std::optional<Case> twin = check == Check::equivalence ? unfused_twin(c) : std::nullopt;
  if (check == Check::equivalence && !twin) return;
  for (auto& o : oracles) o->submit(c);
  if (twin)
    for (auto& o : oracles) o->submit(*twin);
}

CaseRecord run_case(const std::string& property, Case given, std::vector<std::unique_ptr<Oracle>>& oracles) {
  CaseRecord r{property, std::move(given), {}, {}};
  switch (check_of(property)) {
    case Check::algebra: case Check::finite_differences: {
      Oracle& rule = rule_oracle(oracles);
      r.outcomes.emplace_back(rule.name(), rule.run(r.c));
      return r;
    }
    case Check::equivalence:
      submit_requests(property, r.c, oracles);  // isolated oracles start on the case and its twin at once
      run_equivalence(r, oracles);
      return r;
    case Check::oracles:
      submit_requests(property, r.c, oracles);  // isolated oracles start on the case while the engine runs it
      r.outcomes.reserve(oracles.size());
      for (auto& o : oracles) r.outcomes.emplace_back(o->name(), o->run(r.c));
      return r;
  }
  return r;
}

void judge_case(CaseRecord& r, std::vector<std::unique_ptr<Oracle>>& oracles,
                const std::vector<Declaration>& declarations, bool strict_zeros) {
  const std::string& property = r.property;
  const Case& c = r.c;
  switch (check_of(property)) {
    // The single-implementation checks hold the rule's implementation to algebra and to finite differences.
    case Check::algebra: {
      const std::string broken = broadcast_algebra_violation(c);
      if (broken.empty()) return;
      r.judgement.verdict = Verdict::discrepancy;
      r.judgement.difference = "algebra";
      r.judgement.odd_ones = {r.outcomes.front().first};
      r.judgement.attribution = broken;
      r.judgement.signature = make_signature({property, "broadcast_shapes", "algebra: " + broken.substr(0, broken.find(':'))});
      return;
    }
    case Check::finite_differences: {
      Oracle& rule = rule_oracle(oracles);
      const FiniteDifferenceResult fd = check_finite_differences(c, rule);
      if (fd.violation.empty()) return;
      r.judgement.verdict = Verdict::discrepancy;
      r.judgement.difference = "finite differences";
      r.judgement.odd_ones = {rule.name()};
      r.judgement.attribution = title_of(rule.name()) + "'s analytic gradient is not the finite difference: " + fd.violation;
      r.judgement.signature = make_signature({property, family_of(c), std::string("finite differences: ") + to_string(c.op)});
      // Where the engine follows LibTorch's formula and the formula itself is wrong, a declaration says so.
      for (const Declaration& d : declarations)
        if (d.oracle == rule.name() && d.on == "grads" && d.covers(c) && d.difference == "finite differences") {
          r.judgement.verdict = Verdict::known;
          r.judgement.known_id = d.id;
        }
      return;
    }
    case Check::equivalence:
      judge_equivalence(property, r, declarations);
      return;
    case Check::oracles:
      r.judgement = judge_with_nondeterminism(property, c, r.outcomes, declarations);
      if (strict_zeros) make_zeros_strict(property, c, r.outcomes, r.judgement);
      return;
  }
}

CaseRecord evaluate(const std::string& property, Case given, std::vector<std::unique_ptr<Oracle>>& oracles,
                    const std::vector<Declaration>& declarations, bool strict_zeros) {
  CaseRecord r = run_case(property, std::move(given), oracles);
  judge_case(r, oracles, declarations, strict_zeros);
  return r;
}

}  // namespace bc
