#include "engine/op_table.h"

#include <set>

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(OpTable, EachEntrySitsAtItsOpsPositionWithAUniqueName) {
  ASSERT_EQ(op_table().size(), static_cast<size_t>(kOpCount));
  std::set<std::string> names;
  for (size_t k = 0; k < op_table().size(); ++k) {
    const OpEntry& e = op_table()[k];
    EXPECT_EQ(static_cast<size_t>(e.op), k) << e.name;
    EXPECT_TRUE(names.insert(e.name).second) << "two entries named " << e.name;
    EXPECT_EQ(op_from_name(e.name), e.op);
    EXPECT_STRNE(e.summary, "");
  }
  EXPECT_EQ(op_from_name("Add"), std::nullopt);
}

TEST(OpTable, InPlaceTwinsPointBothWays) {
  for (const OpEntry& e : op_table()) {
    if (e.inplace) {
      const OpEntry& twin = entry(*e.inplace);
      EXPECT_EQ(twin.base, e.op) << e.name;
      EXPECT_EQ(std::string(twin.name), std::string(e.name) + "_");
      EXPECT_EQ(twin.arity, e.arity);
      EXPECT_EQ(twin.binary, e.binary) << "an in-place op shares its out-of-place rule";
      EXPECT_TRUE(is_inplace(twin.op));
      EXPECT_EQ(out_of_place(twin.op), e.op);
    }
    if (e.base) { EXPECT_EQ(entry(*e.base).inplace, e.op) << e.name; }
  }
  EXPECT_FALSE(entry(Op::maximum).inplace) << "PyTorch has no maximum_";
  EXPECT_FALSE(entry(Op::dist).inplace);
}

TEST(OpTable, BinaryRulesAreComplete) {
  for (const OpEntry& e : op_table()) {
    if (!e.binary) continue;
    SCOPED_TRACE(e.name);
    EXPECT_EQ(e.arity, 2);
    EXPECT_TRUE(e.binary->f32 && e.binary->f64 && e.binary->i64);
    if (!e.binary->node) {  // LibTorch records none: an op on integers only, or a logical op (bool, in place too)
      EXPECT_EQ(e.binary->backward, nullptr);
      const Refuses r = e.binary->refuses;
      EXPECT_TRUE(e.binary->comparison || r == Refuses::floating || r == Refuses::bool_floating);
      continue;
    }
    // No formula: the comparisons (no node at all) and the ops LibTorch records a NotImplemented node for.
    const bool not_implemented = std::string(e.binary->node) == "NotImplemented";
    EXPECT_EQ(e.binary->backward == nullptr, e.binary->comparison || not_implemented)
        << "only comparisons and NotImplemented nodes have no gradient";
    if (not_implemented) { EXPECT_STREQ(e.name, e.op == Op::floor_divide ? "floor_divide" : "floor_divide_"); }
  }
}

// fill_ and zero_ write self and have no out-of-place form in the table: in place without a base; only fill_ reads
// the "value" scalar; LibTorch 1.13's nodes (probe: FillBackward2 for fill_.Scalar) and zero gradients.
TEST(OpTable, FillRulesAreComplete) {
  std::vector<std::string> fills;
  for (const OpEntry& e : op_table()) {
    if (!e.fill) continue;
    fills.push_back(e.name);
    EXPECT_EQ(e.family, Family::fill);
    EXPECT_EQ(e.arity, 1);
    EXPECT_TRUE(is_inplace(e.op) && !e.base && !e.inplace) << e.name;
    EXPECT_EQ(out_of_place(e.op), e.op);
    EXPECT_EQ(e.fill->reads_value, e.scalars.size() == 1) << e.name;
    const Tensor zeros = e.fill->backward(Tensor::from_values({2}, DType::float32, {3, -4}));
    EXPECT_EQ(zeros.to_doubles(), (std::vector<double>{0, 0}));
    EXPECT_EQ(zeros.dtype(), DType::float32);
  }
  EXPECT_EQ(fills, (std::vector<std::string>{"fill_", "zero_"}));
  EXPECT_STREQ(fill_rule(Op::fill_)->node, "FillBackward2");
  EXPECT_STREQ(fill_rule(Op::zero_)->node, "ZeroBackward0");
  EXPECT_EQ(in_op_group("@inplace", Op::fill_), true);
  EXPECT_EQ(in_op_group("@pointwise_inplace", Op::fill_), false);
}

TEST(OpTable, UnaryRulesAreComplete) {
  std::vector<std::string> unary;
  for (const OpEntry& e : op_table()) {
    if (!e.unary) continue;
    SCOPED_TRACE(e.name);
    unary.push_back(e.name);
    EXPECT_EQ(e.arity, 1);
    EXPECT_EQ(e.family, Family::elementwise);
    EXPECT_EQ(e.binary, nullptr);
    EXPECT_TRUE(e.unary->f32 && e.unary->f64 && e.unary->node && e.unary->backward);
    // An op without an integer kernel computes integers (and bool) in floating point.
    if (!e.unary->i64) { EXPECT_EQ(e.unary->on_bool, OnBool::to_float); }
    EXPECT_EQ(e.unary->on_bool == OnBool::no_kernel, e.unary->kernel != nullptr);
  }
  EXPECT_EQ(unary, (std::vector<std::string>{"neg", "abs", "sqrt", "exp", "log", "sign", "reciprocal"}));
  EXPECT_EQ(unary_rule(Op::add), nullptr);
  EXPECT_EQ(unary_rule(Op::abs)->i64(INT64_MIN), INT64_MIN);
  EXPECT_EQ(unary_rule(Op::neg)->i64(INT64_MIN), INT64_MIN);
  EXPECT_EQ(unary_rule(Op::sign)->f64(-7.5), -1.0);
  EXPECT_EQ(unary_rule(Op::reciprocal)->f32(4.0f), 0.25f);
}

TEST(OpTable, ScalarKernelsOfTheNewOps) {
  const BinaryRule& h = *binary_rule(Op::hypot);
  EXPECT_EQ(*h.f64(3, 4, 1), 5.0);
  EXPECT_EQ(*h.f32(-5, 12, 1), 13.0f);
  EXPECT_EQ(h.refuses, Refuses::bool_integer);
  EXPECT_STREQ(h.kernel, "hypot_cpu");
  EXPECT_EQ(binary_rule(Op::hypot_), &h);
  EXPECT_EQ(binary_rule(Op::dist), nullptr);
  EXPECT_EQ(*binary_rule(Op::remainder)->i64(-7, 3, 1), 2);
  EXPECT_EQ(*binary_rule(Op::fmod)->i64(-7, 3, 1), -1);
  EXPECT_EQ(binary_rule(Op::fmod)->i64(1, 0, 1), std::nullopt);
}

TEST(OpTable, GroupsAreDerivedFromTheTable) {
  EXPECT_EQ(in_op_group("@pointwise_inplace", Op::hypot_), true);
  EXPECT_EQ(in_op_group("@pointwise_inplace", Op::addmm_), false);
  EXPECT_EQ(in_op_group("@inplace", Op::addmm_), true);
  EXPECT_EQ(in_op_group("@inplace", Op::add), false);
  EXPECT_EQ(in_op_group("@fused", Op::addmm_), true);
  EXPECT_EQ(in_op_group("@fused", Op::matmul), false);
  EXPECT_EQ(in_op_group("@products", Op::matmul), true);
  EXPECT_EQ(in_op_group("@products", Op::add), false);
  EXPECT_EQ(in_op_group("@nothing", Op::add), std::nullopt);
}

TEST(OpTable, FamiliesHaveTheirSignatureNames) {
  EXPECT_STREQ(to_string(Family::elementwise), "elementwise");
  EXPECT_STREQ(to_string(Family::inplace), "inplace");
  EXPECT_STREQ(to_string(Family::matmul), "matmul");
  EXPECT_STREQ(to_string(Family::reduction), "reduction");
  std::set<std::string> names;
  for (Family f : kFamilies) EXPECT_TRUE(names.insert(to_string(f)).second);
}

}  // namespace
}  // namespace bc
