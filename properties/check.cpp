#include "properties/check.h"

#include <algorithm>

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/nondeterminism.h"
#include "harness/signature.h"
#include "properties/equivalence.h"
#include "properties/finite_difference.h"
#include "properties/registry.h"

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
      {property, family_of(c), "equivalence: " + join(differences, ", "), r.judgement.odd_ones, c.op, ", "});
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
      r.judgement.signature = make_signature({property, family_of(c), "finite differences: " + c.op});
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

Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget) {
  Shrunk out{first, 0, 0, {}};
  rc::Shrinkable<Case> current = start;
  bool moved = true;
  while (moved && out.evaluations < budget) {
    moved = false;
    auto shrinks = current.shrinks();
    for (std::size_t index = 0; out.evaluations < budget; ++index) {
      auto next = shrinks.next();
      if (!next) break;
      ++out.evaluations;
      CaseRecord r = evaluate(next->value());
      // The same signature and the same verdict: an undeclared discrepancy must not shrink into a smaller case that
      // a declaration happens to explain (nor a known one into an undeclared one).
      if (r.judgement.signature == first.judgement.signature && r.judgement.verdict == first.judgement.verdict) {
        current = *next;
        out.minimal = r;
        ++out.steps;
        out.path.push_back(index);
        moved = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace bc

namespace bc {

std::optional<Case> follow_shrink_path(const rc::Shrinkable<Case>& start, const std::vector<std::size_t>& path) {
  rc::Shrinkable<Case> current = start;
  for (std::size_t index : path) {
    auto shrinks = current.shrinks();
    std::optional<rc::Shrinkable<Case>> chosen;
    for (std::size_t i = 0; i <= index; ++i) {
      auto next = shrinks.next();
      if (!next) return std::nullopt;
      if (i == index) chosen = *next;
    }
    current = *chosen;
  }
  return current.value();
}

namespace {

// `c` without operand k, everywhere a case speaks of operands (the program's indices too).
Case without_operand(const Case& c, size_t k) {
  Case t = c;
  const auto at = [k](auto& v) {
    if (k < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
  };
  at(t.shapes);
  at(t.dtypes);
  at(t.layouts);
  at(t.requires_grad);
  if (t.values) at(t.values->data);
  if (t.expect) at(t.expect->grads);
  if (t.modify && static_cast<size_t>(*t.modify) > k) --*t.modify;
  t.program = drop_input(c.program, k);
  return t;
}

// A graph case's own shrinks, before its shapes': a program without one of its nodes (harness/program.h keeps it
// valid), then without an input no node reads.
std::vector<Case> graph_shrinks(const Case& c) {
  std::vector<Case> out;
  std::vector<bool> bool_inputs;
  for (size_t k = 0; k < c.shapes.size(); ++k) bool_inputs.push_back(dtype_of(c, k) == DType::bool_);
  for (size_t j = 0; j < c.program.size(); ++j)
    if (std::optional<Program> p = drop_node(c.program, j, bool_inputs)) {
      Case t = c;
      t.program = std::move(*p);
      out.push_back(std::move(t));
    }
  for (size_t k = 0; k < c.shapes.size() && c.shapes.size() > 1; ++k)
    if (!uses_input(c.program, k) && !(c.modify && static_cast<size_t>(*c.modify) == k))
      out.push_back(without_operand(c, k));
  return out;
}

}  // namespace

std::vector<Case> case_shrink_candidates(const Case& c) {
  std::vector<Case> out;
  auto keep_if_valid = [&](Case t) {
    try {
      case_from_json(to_json(t));  // the same rules as a corpus line
      out.push_back(std::move(t));
    } catch (const CaseError&) {
    }
  };
  const OpEntry* op = find_op(c.op);
  if (op && op->op == Op::graph)
    for (Case& t : graph_shrinks(c)) keep_if_valid(std::move(t));
  if (op && op->arity < 0 && op->op != Op::graph)
    for (size_t k = 0; k < c.shapes.size() && c.shapes.size() > 1; ++k) {
      Case t = c;
      t.shapes.erase(t.shapes.begin() + static_cast<std::ptrdiff_t>(k));
      keep_if_valid(t);
    }
  for (size_t k = 0; k < c.shapes.size(); ++k)
    for (size_t d = 0; d < c.shapes[k].size(); ++d) {
      Case t = c;
      t.shapes[k].erase(t.shapes[k].begin() + static_cast<std::ptrdiff_t>(d));
      keep_if_valid(t);
    }
  for (size_t k = 0; k < c.shapes.size(); ++k)
    for (size_t d = 0; d < c.shapes[k].size(); ++d) {
      const int64_t size = c.shapes[k][d];
      if (size == 1 || size < 0) continue;
      // Towards 1 first, then halving, then one less: small sizes, quickly, from any starting size.
      std::vector<int64_t> tried;
      for (int64_t smaller : {int64_t{1}, size / 2, size - 1}) {
        if (smaller == size || smaller < 0 || std::find(tried.begin(), tried.end(), smaller) != tried.end()) continue;
        tried.push_back(smaller);
        Case t = c;
        t.shapes[k][d] = smaller;
        keep_if_valid(t);
      }
    }
  return out;
}

rc::Shrinkable<Case> shrinkable_case(const Case& c) {
  return rc::shrinkable::shrinkRecur(c, [](const Case& x) { return rc::seq::fromContainer(case_shrink_candidates(x)); });
}

}  // namespace bc
