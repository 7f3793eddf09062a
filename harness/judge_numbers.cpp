#include "harness/judge_numbers.h"

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/tolerance.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace bc {
namespace {

// Numbers (result values, or one input's gradients) from several implementations.
struct Numbers {
  std::string name;
  const Values* values;
};

// Compared pairwise within the tolerance: an implementation far from all the others, while those agree, is the odd
// one out. Closeness is not transitive: the majority is the voters close to the voter that is close to the most
// (more than half of them, itself included); the rest are the odd ones out.
std::optional<Difference> numbers_difference(const std::string& component, const std::vector<Numbers>& voters,
                                             Tolerance tol, const Shape& shape) {
  const size_t n = voters.size();
  std::vector<std::vector<bool>> far(n, std::vector<bool>(n, false));
  std::string first_text;
  for (size_t i = 0; i < n; ++i)
    for (size_t k = i + 1; k < n; ++k)
      if (auto m = compare_values(*voters[i].values, *voters[k].values, tol, shape)) {
        far[i][k] = far[k][i] = true;
        if (first_text.empty()) first_text = voters[k].name + " against " + voters[i].name + ": " + m->text;
      }
  if (first_text.empty()) return std::nullopt;
  size_t centre = 0, best = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t close = 0;
    for (size_t k = 0; k < n; ++k) close += !far[i][k];
    if (close > best) best = close, centre = i;
  }
  Difference d;
  d.component = component;
  if (2 * best > n)
    for (size_t k = 0; k < n; ++k)
      if (far[centre][k]) d.odd_ones.push_back(voters[k].name);
  const bool majority = !d.odd_ones.empty();
  if (!majority)
    for (const Numbers& v : voters) d.odd_ones.push_back(v.name);
  const std::string who = join(d.odd_ones, " and ") + (d.odd_ones.size() == 1 ? " is the odd one out (" : " are the odd ones out (");
  d.attribution = (majority ? who : "the " + component + " differ (") + first_text + ")";
  return d;
}

// The sign of zero, where the numbers are otherwise equal: each voter's signs at the elements where every voter
// has a zero; the odd ones out are those outside the majority's pattern.
std::optional<Difference> zeros_difference(const std::vector<Numbers>& voters, const Shape& shape) {
  if (voters.size() < 2 || voters[0].values->integers()) return std::nullopt;
  const size_t size = voters[0].values->size();
  std::vector<std::pair<std::string, std::string>> classes;
  for (const Numbers& v : voters) classes.emplace_back(v.name, "");
  long differing = 0;
  int64_t first = -1;
  for (size_t e = 0; e < size; ++e) {
    bool all_zero = true, negative = false, positive = false;
    for (const Numbers& v : voters) {
      if (v.values->integers() || v.values->size() != size) return std::nullopt;
      const double x = v.values->floats()[e];
      all_zero = all_zero && x == 0;
      (std::signbit(x) ? negative : positive) = true;
    }
    if (!all_zero || !(negative && positive)) continue;
    if (first < 0) first = static_cast<int64_t>(e);
    ++differing;
    for (size_t k = 0; k < voters.size(); ++k) classes[k].second += std::signbit(voters[k].values->floats()[e]) ? '-' : '+';
  }
  if (differing == 0) return std::nullopt;
  Difference d;
  d.component = "signed zeros";
  d.finding_class = FindingClass::zeros;
  std::tie(d.odd_ones, d.attribution) = attribute(classes);
  d.attribution += " (the sign of zero differs in " + std::to_string(differing) + " of " + std::to_string(size) +
                   " elements, first at index " + format_shape(unravel(first, shape)) + ")";
  return d;
}

// Declared departures do not vote, on either side of the rule (as for outcomes, judge.cpp): when two or more voters
// far from the rule without a declaration agree with each other, and every voter close to the rule departs from them
// in a declared way, the difference is the rule's, unless a declaration for the rule explains it.
void blame_rule_beside_declared_departures(const std::string& on, const Case& c, const OutcomeSelection& voters,
                                           const std::vector<Numbers>& numbers, const std::vector<Declaration>& decls,
                                           const std::function<bool(const Values&, const Values&)>& far, Difference& d) {
  const std::string rule_name = name_with_role(Role::rule);
  if (d.undeclared.size() < 2) return;
  auto numbers_of = [&](const std::string& name) -> const Values* {
    for (const Numbers& n : numbers)
      if (n.name == name) return n.values;
    return nullptr;
  };
  const Values* rule_numbers = numbers_of(rule_name);
  const Values* other = numbers_of(d.undeclared[0]);
  if (!rule_numbers || !other) return;
  for (const std::string& name : d.undeclared) {
    const Values* v = numbers_of(name);
    if (name == rule_name || !v || far(*other, *v)) return;  // they do not agree with each other
  }
  std::vector<std::string> beside;
  for (const Numbers& n : numbers)
    if (n.name != rule_name && !far(*rule_numbers, *n.values)) beside.push_back(n.name);
  if (beside.empty()) return;
  const Outcome& other_outcome = *voters.find(d.undeclared[0]);
  for (const std::string& name : beside)
    if (!find_declaration(decls, c, name, on, d.component, other_outcome, *voters.find(name))) return;
  d.odd_ones = {rule_name};
  d.attribution = rule_name + " is the odd one out: only " + join(beside, " and ") +
                  " stand beside it, each in a declared departure (" + d.attribution + ")";
  d.known_ids.clear();
  d.undeclared.clear();
  if (const Declaration* decl =
          find_declaration(decls, c, rule_name, on, d.component, other_outcome, *voters.find(rule_name)))
    d.known_ids.push_back(decl->id);
  else
    d.undeclared.push_back(rule_name);
}

// Which declarations explain a difference in numbers (on = "values" or "grads"). As for outcomes, the engine states
// the rule: an engine far from libraries that agree needs an engine declaration; otherwise every implementation
// far from the engine needs its own (with two voters, the one that is not the engine).
void explain(const std::string& on, const Case& c, const OutcomeSelection& voters, const std::vector<Numbers>& numbers,
             const std::vector<Declaration>& decls,
             const std::function<bool(const Values&, const Values&)>& far_from_rule, Difference& d) {
  const std::string rule_name = name_with_role(Role::rule);
  const Outcome* rule = voters.find(rule_name);
  const Values* rule_numbers = nullptr;
  for (const Numbers& n : numbers)
    if (n.name == rule_name) rule_numbers = n.values;
  auto need = [&](const std::string& who, const Outcome& expected, const Outcome& actual) {
    if (const Declaration* decl = find_declaration(decls, c, who, on, d.component, expected, actual))
      d.known_ids.push_back(decl->id);
    else
      d.undeclared.push_back(who);
  };
  if (!rule_numbers) {
    // The rule did not succeed alike (it refused, say): each odd one needs a declaration of its own numbers,
    // measured from the rule's outcome. With no majority, the voters no declaration explains are the reference
    // when they agree with each other.
    for (const std::string& who : d.odd_ones) {
      const Outcome& actual = *voters.find(who);
      need(who, rule ? *rule : actual, actual);
    }
    if (d.odd_ones.size() == numbers.size()) {
      std::vector<const Values*> rest;
      for (const Numbers& n : numbers)
        if (std::find(d.undeclared.begin(), d.undeclared.end(), n.name) != d.undeclared.end()) rest.push_back(n.values);
      bool agree = true;
      for (const Values* v : rest) agree = agree && !far_from_rule(*rest[0], *v);
      if (agree) d.undeclared.clear();
    }
    return;
  }
  // Each implementation far from the rule needs its own declaration.
  auto each_departure = [&] {
    for (const Numbers& n : numbers)
      if (n.name != rule_name && far_from_rule(*rule_numbers, *n.values)) need(n.name, *rule, *voters.find(n.name));
  };
  if (d.odd_ones != std::vector<std::string>{rule_name}) {
    each_departure();
    blame_rule_beside_declared_departures(on, c, voters, numbers, decls, far_from_rule, d);
    return;
  }
  // The rule alone against the others: the rule is wrong, unless each of them departs from it in a declared way
  // (declared departures do not vote: docs/notes/judge.md, "Declared departures").
  each_departure();
  if (d.undeclared.empty() && !d.known_ids.empty()) return;
  d.known_ids.clear();
  d.undeclared.clear();
  const Outcome* reference = voters.find(name_with_role(Role::reference));
  if (reference)
    need(rule_name, *reference, *rule);
  else
    d.undeclared = {rule_name};
}

// The voters whose results can be compared element by element: those that succeeded with the rule's shape and
// dtype (or, when the rule did not succeed, with the shape and dtype most of the successful ones share). A voter
// with another shape or dtype has that difference reported already; leaving it out keeps it from hiding (or
// inventing) a difference in the others' values.
OutcomeSelection comparable(const OutcomeSelection& voters) {
  const Outcome* rule = voters.find(name_with_role(Role::rule));
  const Outcome* model = rule && rule->status == Status::ok ? rule : nullptr;
  if (!model) {
    std::map<std::string, int> count;
    int best = 0;
    for (const auto& [name, o] : voters)
      if (o.status == Status::ok && ++count[summarize(o)] > best) best = count[summarize(o)], model = &o;
  }
  // Those with the model's summary (summarize()), compared field by field rather than as text.
  OutcomeSelection out;
  for (const auto& entry : voters)
    if (model && entry.second.status == Status::ok && entry.second.shape == model->shape &&
        entry.second.dtype == model->dtype)
      out.add(entry);
  return out;
}

}  // namespace

void value_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                       std::vector<Difference>& out) {
  const OutcomeSelection alike = comparable(voters);
  if (!c.values || alike.size() < 2) return;
  std::vector<Numbers> numbers;
  for (const auto& [name, o] : alike) numbers.push_back({name, &o.values});
  const Shape& shape = alike[0].second.shape;
  const Tolerance tol = tolerance_for(dtype_from_string(alike[0].second.dtype).value_or(DType::float64));
  auto far = [tol](const Values& a, const Values& b) { return compare_values(a, b, tol, {}).has_value(); };
  if (auto d = numbers_difference("values", numbers, tol, shape)) {
    explain("values", c, voters, numbers, decls, far, *d);
    out.push_back(*d);
  } else if (auto z = zeros_difference(numbers, shape)) {
    explain("values", c, voters, numbers, decls, [](const Values& a, const Values& b) { return a != b; }, *z);
    out.push_back(*z);
  }
}

void grad_differences(const Case& c, const OutcomeSelection& all, const std::vector<Declaration>& decls,
                      std::vector<Difference>& out) {
  if (!is_gradient_case(c)) return;
  // Gradients take their inputs' dtypes, so the implementations that succeeded and computed them are compared,
  // whatever their forward dtypes: each has exactly its input's shape and dtype (the rule, held against every
  // implementation), they agree on which inputs got one, and on values.
  OutcomeSelection voters;
  for (const auto& entry : all)
    if (entry.second.status == Status::ok && entry.second.grads.size() == c.shapes.size()) voters.add(entry);
  std::vector<std::string> misshapen;
  for (const auto& [name, o] : voters)
    for (size_t k = 0; k < o.grads.size(); ++k)
      if (o.grads[k] && (o.grads[k]->shape != c.shapes[k] || o.grads[k]->dtype != to_string(dtype_of(c, k)))) {
        misshapen.push_back(name);
        break;
      }
  if (!misshapen.empty()) {
    out.push_back({"grad shape", FindingClass::outcome, -1, misshapen,
                   join(misshapen, " and ") + " returned a gradient whose shape or dtype is not its input's", {},
                   misshapen, Verdict::discrepancy});
    return;
  }
  // Whether two outcomes have the same summarize_grads(), without building it.
  const auto same_grads = [](const Outcome& a, const Outcome& b) {
    return std::equal(a.grads.begin(), a.grads.end(), b.grads.begin(), b.grads.end(), [](const auto& x, const auto& y) {
      return x.has_value() == y.has_value() && (!x || (x->shape == y->shape && x->dtype == y->dtype));
    });
  };
  bool alike = true;
  for (const auto& entry : voters) alike = alike && same_grads(entry.second, voters[0].second);
  if (!alike) {
    std::vector<std::pair<std::string, std::string>> classes;
    for (const auto& [name, o] : voters) classes.emplace_back(name, summarize_grads(o));
    Difference d;
    d.component = "grads";
    d.odd_ones = attribute(classes).first;
    d.attribution = "they disagree on which inputs get a gradient: " + join(d.odd_ones, ", ");
    // Which inputs got one, as numbers (1 with a gradient, 0 without), so that a "grads" declaration with
    // difference "grads" explains an implementation's departure as for gradient values.
    std::vector<Values> presence;
    for (const auto& entry : voters) {
      std::vector<double> got;
      for (const auto& g : entry.second.grads) got.push_back(g ? 1 : 0);
      presence.emplace_back(std::move(got));
    }
    std::vector<Numbers> numbers;
    for (size_t k = 0; k < voters.size(); ++k) numbers.push_back({voters[k].first, &presence[k]});
    explain("grads", c, all, numbers, decls, [](const Values& a, const Values& b) { return !(a == b); }, d);
    out.push_back(d);
    return;
  }
  std::vector<DType> dtypes;
  for (size_t k = 0; k < c.shapes.size(); ++k) dtypes.push_back(dtype_of(c, k));
  const int64_t result_numel = numel(voters.empty() ? Shape{} : voters[0].second.shape);
  for (size_t k = 0; voters.size() >= 2 && k < c.shapes.size(); ++k) {
    if (!voters[0].second.grads[k]) continue;
    std::vector<Numbers> numbers;
    for (const auto& [name, o] : voters) numbers.push_back({name, &o.grads[k]->values});
    const int64_t summed = numel(c.shapes[k]) > 0 ? result_numel / numel(c.shapes[k]) : 1;
    const Tolerance tol = gradient_tolerance(dtypes, summed);
    auto far = [tol](const Values& a, const Values& b) { return compare_values(a, b, tol, {}).has_value(); };
    std::optional<Difference> d = numbers_difference("grad values", numbers, tol, c.shapes[k]);
    if (d) {
      d->attribution += " [gradient of operand " + std::to_string(k) + "]";
      explain("grads", c, all, numbers, decls, far, *d);
    } else if ((d = zeros_difference(numbers, c.shapes[k]))) {
      d->attribution += " [gradient of operand " + std::to_string(k) + "]";
      explain("grads", c, all, numbers, decls, [](const Values& a, const Values& b) { return a != b; }, *d);
    }
    if (!d) continue;
    d->operand = static_cast<int>(k);
    out.push_back(*d);
  }
}

}  // namespace bc
