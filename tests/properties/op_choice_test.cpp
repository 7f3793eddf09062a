// Generators draw their ops from the op table: every op a generator weighs (and the in-place twins of those it
// draws in place) is generated, counted over a fixed sample. A property that never generates an op is a bug.
#include "properties/op_choice.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "properties/registry.h"

namespace bc {
namespace {

std::map<std::string, int> ops_drawn(const std::string& property, int samples) {
  const Property* p = find_property(property);
  std::map<std::string, int> seen;
  for (int i = 0; i < samples; ++i)
    ++seen[to_string(p->gen(rc::Random(rc::Random::Key{7, static_cast<uint64_t>(i), 0, 0})).value().op)];
  return seen;
}

void expect_drawn(const std::map<std::string, int>& seen, const std::set<std::string>& expected,
                  const std::string& property) {
  for (const std::string& op : expected)
    EXPECT_GT(seen.count(op) ? seen.at(op) : 0, 0) << property << " never drew " << op;
}

// The ops a generator weighs (those `keep` accepts) and their in-place twins.
std::set<std::string> weighed_with_twins(int Weights::*weight, const std::function<bool(const OpEntry&)>& keep) {
  std::set<std::string> out;
  for (const auto& [w, e] : gen::ops_weighted(weight, keep)) {
    out.insert(e->name);
    if (e->inplace) out.insert(to_string(*e->inplace));
  }
  return out;
}

TEST(OpChoice, ValueCasesDrawEveryWeightedOpAndItsInPlaceForm) {
  const std::set<std::string> expected = weighed_with_twins(
      &Weights::values, [](const OpEntry& e) { return gen::in_family(e, {Family::elementwise, Family::reduction}); });
  EXPECT_TRUE(expected.count("hypot") && expected.count("hypot_") && expected.count("dist"));
  for (const char* unary : {"neg", "abs", "sqrt", "exp", "log", "sign", "reciprocal"})
    EXPECT_TRUE(expected.count(unary)) << unary;
  expect_drawn(ops_drawn("values_agree", 4000), expected, "values_agree");
}

TEST(OpChoice, ReductionCasesDrawEveryReduction) {
  const std::set<std::string> expected = weighed_with_twins(
      &Weights::values, [](const OpEntry& e) { return e.family == Family::reduce_dims; });
  EXPECT_EQ(expected, (std::set<std::string>{"sum", "mean", "amax", "amin", "prod"}));
  expect_drawn(ops_drawn("reductions_agree", 500), expected, "reductions_agree");
}

TEST(OpChoice, GradientCasesDrawEveryDifferentiableOp) {
  const std::set<std::string> expected = weighed_with_twins(  // the reductions have a generator of their own
      &Weights::grads, [](const OpEntry& e) { return e.family != Family::reduce_dims; });
  EXPECT_TRUE(expected.count("hypot") && expected.count("dist") && expected.count("diamond"));
  for (const char* unary : {"neg", "abs", "sqrt", "exp", "log", "sign", "reciprocal"})
    EXPECT_TRUE(expected.count(unary)) << unary;
  expect_drawn(ops_drawn("grads_agree", 4000), expected, "grads_agree");
  expect_drawn(ops_drawn("grads_finite_difference", 4000), expected, "grads_finite_difference");
}

TEST(OpChoice, AutogradInplaceDrawsEveryPointwiseInPlaceOp) {
  std::set<std::string> expected;
  for (const OpEntry& e : op_table()) {
    if (e.family == Family::inplace) {
      EXPECT_GT(weights_of(e.op).leaf_inplace, 0) << e.name << " takes no part in autograd_inplace_agree";
      expected.insert(e.name);
    }
    if (weights_of(e.op).modify > 0) expected.insert(e.name);
  }
  expect_drawn(ops_drawn("autograd_inplace_agree", 4000), expected, "autograd_inplace_agree");
}

// fill_ and zero_: drawn by values_agree (fill_case, one value case in eight) and, in place on a leaf or a view of
// one, by autograd_inplace_agree; grads_agree has no self that requires grad and is not a leaf (no grads weight).
TEST(OpChoice, FillOpsAreDrawnByValuesAndAutogradInplace) {
  const std::set<std::string> expected = weighed_with_twins(
      &Weights::values, [](const OpEntry& e) { return e.family == Family::fill; });
  EXPECT_EQ(expected, (std::set<std::string>{"fill_", "zero_"}));
  expect_drawn(ops_drawn("values_agree", 400), expected, "values_agree");
  for (const OpEntry& e : op_table())
    if (e.family == Family::fill) {
      EXPECT_GT(weights_of(e.op).leaf_inplace, 0) << e.name;
      EXPECT_EQ(weights_of(e.op).grads, 0) << e.name;
    }
  expect_drawn(ops_drawn("autograd_inplace_agree", 4000), expected, "autograd_inplace_agree");
}

TEST(OpChoice, ShapeCasesDrawEveryBinaryOpAndItsInPlaceForm) {
  std::set<std::string> out_of_place, in_place;
  for (const OpEntry& e : op_table())
    if (e.binary && !e.base && weights_of(e.op).shapes > 0) {
      out_of_place.insert(e.name);
      if (e.inplace) in_place.insert(to_string(*e.inplace));
    }
  EXPECT_TRUE(out_of_place.count("hypot") && in_place.count("hypot_"));
  expect_drawn(ops_drawn("elementwise_agree", 3000), out_of_place, "elementwise_agree");
  expect_drawn(ops_drawn("inplace_agree", 3000), in_place, "inplace_agree");
}

TEST(OpChoice, ProductGeneratorsDrawEveryProduct) {
  std::set<std::string> products, fused;
  for (const OpEntry& e : op_table()) {
    if (e.family == Family::matmul) products.insert(e.name);
    if (e.family == Family::fused) fused.insert(e.name);
  }
  expect_drawn(ops_drawn("products_agree", 2000), products, "products_agree");
  expect_drawn(ops_drawn("fused_agree", 2000), fused, "fused_agree");
}

TEST(OpChoice, UnaryCasesHaveOneOperandOfAnyDtype) {
  const Property* p = find_property("values_agree");
  std::set<std::string> dtypes;
  for (int i = 0; i < 4000; ++i) {
    const Case c = p->gen(rc::Random(rc::Random::Key{7, static_cast<uint64_t>(i), 0, 0})).value();
    const OpEntry* e = &entry(c.op);
    if (!e || !e->unary) continue;
    EXPECT_EQ(c.shapes.size(), 1u) << to_string(c.op);
    EXPECT_EQ(c.dtypes.size(), 1u) << to_string(c.op);
    dtypes.insert(to_string(c.dtypes.at(0)));
  }
  std::set<std::string> all;
  for (DType t : all_dtypes()) all.insert(to_string(t));
  EXPECT_EQ(dtypes, all);
}

TEST(OpChoice, AnOpWithoutWeightIsNeverDrawn) {
  const auto choices = gen::ops_weighted(&Weights::values, {});
  for (const auto& [weight, e] : choices) EXPECT_GT(weight, 0u) << e->name;
  for (const auto& [weight, e] : choices) EXPECT_NE(e->op, Op::broadcast_shapes);
}

}  // namespace
}  // namespace bc
