// The named case facts a declaration can require: input_is_self by brute force over the operands' views, and a
// declaration with "when" covering only the cases that have the fact.
#include "harness/case_conditions.h"

#include "harness/known_divergence.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace bc {
namespace {

Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

TEST(CaseConditions, AnInputViewingSelfsElementsAtTheSameIndicesIsSelf) {
  // self [1] strided (stride 2 on its one size-1 dim), the weight a contiguous view of its storage: element 0 both.
  EXPECT_TRUE(input_is_self(make_case(
      R"({"op": "lerp_", "shapes": [[1], [1], [1]], "layouts": ["strided", "contiguous", "overlapping"]})")));
  EXPECT_TRUE(input_is_self(make_case(R"({"op": "add_", "shapes": [[1, 3], [1, 3]], "layouts": ["contiguous", "overlapping"]})")));
}

TEST(CaseConditions, AnyOtherOverlapIsNot) {
  // A strided self reaches 0, 2; the contiguous view 0, 1: a partial overlap.
  EXPECT_FALSE(input_is_self(make_case(R"({"op": "add_", "shapes": [[2], [2]], "layouts": ["strided", "overlapping"]})")));
  // Broadcast over self's rows: 0 1 2 0 1 2 against self's 0 ... 5.
  EXPECT_FALSE(input_is_self(make_case(R"({"op": "add_", "shapes": [[2, 3], [3]], "layouts": ["contiguous", "overlapping"]})")));
  // No input views self at all.
  EXPECT_FALSE(input_is_self(make_case(R"({"op": "add_", "shapes": [[1, 3], [1, 3]]})")));
  EXPECT_FALSE(input_is_self(make_case(R"({"op": "neg", "shapes": [[3]]})")));
}

TEST(CaseConditions, SelfSharesMemoryWithItselfOrWithAnInputThatReachesIt) {
  // An expanded self: a dim stretched with stride 0 repeats its elements.
  EXPECT_TRUE(self_shares_memory(make_case(R"({"op": "sub_", "shapes": [[1, 3, 1], [1]], "layouts": ["expanded", "contiguous"]})")));
  // A partial overlap (0, 2 against 0, 1) and a full one.
  EXPECT_TRUE(self_shares_memory(make_case(R"({"op": "add_", "shapes": [[2], [2]], "layouts": ["strided", "overlapping"]})")));
  EXPECT_TRUE(self_shares_memory(make_case(R"({"op": "add_", "shapes": [[1, 3], [1, 3]], "layouts": ["contiguous", "overlapping"]})")));
  // Separate storage, or a self of distinct elements.
  EXPECT_FALSE(self_shares_memory(make_case(R"({"op": "add_", "shapes": [[2, 3], [3]], "layouts": ["transposed", "expanded"]})")));
  EXPECT_FALSE(self_shares_memory(make_case(R"({"op": "add_", "shapes": [[2, 3], [3]]})")));
  EXPECT_FALSE(self_shares_memory(make_case(R"({"op": "broadcast_shapes", "shapes": []})")));
}

// Seed 4's case: a transposed [2, 3] self (strides [1, 2]) and a transposed [2, 3] input with a base of its own. A
// transposed [3, 2] has strides [1, 3]; neither a contiguous input (strides [3, 1]), nor another shape, nor a
// transposed self with a dim of size 1 (its row-major order is its storage order), nor a rank-3 transposed self.
TEST(CaseConditions, ColumnMajorMatricesNeedSelfAndAnInputAlikeInColumnMajorOrder) {
  EXPECT_TRUE(case_has("column_major_matrices", make_case(
      R"({"op": "add_", "shapes": [[2, 3], [2, 3]], "layouts": ["transposed", "transposed"], "dtypes": ["int64", "int64"]})")));
  EXPECT_TRUE(column_major_matrices(make_case(
      R"({"op": "mul_", "shapes": [[3, 2], [3, 2]], "layouts": ["transposed", "transposed"]})")));
  for (const char* text : {
           R"({"op": "add_", "shapes": [[2, 3], [2, 3]], "layouts": ["transposed", "contiguous"]})",
           R"({"op": "add_", "shapes": [[2, 3], [2, 3]], "layouts": ["contiguous", "transposed"]})",
           R"({"op": "add_", "shapes": [[2, 3], [1, 3]], "layouts": ["transposed", "transposed"]})",
           R"({"op": "add_", "shapes": [[1, 3], [1, 3]], "layouts": ["transposed", "transposed"]})",
           R"({"op": "add_", "shapes": [[2, 2, 3], [2, 2, 3]], "layouts": ["transposed", "transposed"]})",
           R"({"op": "neg", "shapes": [[2, 3]], "layouts": ["transposed"]})"})
    EXPECT_FALSE(column_major_matrices(make_case(text))) << text;
}

TEST(CaseConditions, AnOutOfAnotherShapeThanTheBroadcastDiffers) {
  const Case right = make_case(R"({"op": "add", "shapes": [[2, 1], [3]], "out": {"shape": [2, 3]}})");
  const Case wrong = make_case(R"({"op": "add", "shapes": [[2, 1], [3]], "out": {"shape": [6]}})");
  const Case none = make_case(R"({"op": "add", "shapes": [[2, 1], [3]]})");
  EXPECT_FALSE(out_shape_differs(right));
  EXPECT_TRUE(out_shape_differs(wrong));
  EXPECT_FALSE(out_shape_differs(none));
  EXPECT_TRUE(case_has("out_given", right));
  EXPECT_FALSE(case_has("out_given", none));
  EXPECT_TRUE(case_has("out_shape_differs", wrong));
  // Broadcasting fails: no result shape to differ from.
  EXPECT_FALSE(out_shape_differs(make_case(R"({"op": "add", "shapes": [[2], [3]], "out": {"shape": [6]}})")));
}

TEST(CaseConditions, AGraphFactNamesANodeOfTheProgram) {
  const Case through = make_case(R"({"op": "graph", "shapes": [[], [2]],
      "program": [{"op": "remainder", "args": [0, 1]}, {"op": "reciprocal", "args": [2]}]})");
  const Case without = make_case(R"({"op": "graph", "shapes": [[], [2]],
      "program": [{"op": "fmod", "args": [0, 1]}, {"op": "reciprocal", "args": [2]}]})");
  EXPECT_TRUE(case_has("graph_remainder", through));
  EXPECT_FALSE(case_has("graph_remainder", without));
  // The single op is no graph: the fact speaks of programs only.
  EXPECT_FALSE(case_has("graph_remainder", make_case(R"({"op": "remainder", "shapes": [[], [2]]})")));
  EXPECT_TRUE(case_has("graph_maximum_minimum", make_case(R"({"op": "graph", "shapes": [[], [2]],
      "program": [{"op": "minimum", "args": [0, 1]}, {"op": "log", "args": [2]}]})")));
  const Case atan2_pow = make_case(R"({"op": "graph", "shapes": [[], [2]],
      "program": [{"op": "atan2", "args": [0, 1]}, {"op": "pow", "args": [2, 2]}]})");
  EXPECT_TRUE(case_has("graph_atan2", atan2_pow));
  EXPECT_TRUE(case_has("graph_pow", atan2_pow));
  EXPECT_FALSE(case_has("graph_atan2", without));
  EXPECT_FALSE(case_has("graph_pow", through));
}

// The facts tfjs's declarations need (issue 33): a backward pass, a vector among the operands, a comparison in a
// program, a reduction in an integer or bool dtype.
TEST(CaseConditions, GradientVectorComparisonAndIntegralReductionFacts) {
  EXPECT_TRUE(case_has("gradient", make_case(R"({"op": "mul", "shapes": [[0], [1]], "requires_grad": [false, true]})")));
  EXPECT_FALSE(case_has("gradient", make_case(R"({"op": "mul", "shapes": [[0], [1]], "requires_grad": [false, false]})")));
  EXPECT_FALSE(case_has("gradient", make_case(R"({"op": "mul", "shapes": [[0], [1]]})")));
  EXPECT_TRUE(case_has("vector_operand", make_case(R"({"op": "matmul", "shapes": [[2, 3], [3]]})")));
  EXPECT_FALSE(case_has("vector_operand", make_case(R"({"op": "matmul", "shapes": [[2, 3], [3, 1]]})")));
  EXPECT_FALSE(case_has("vector_operand", make_case(R"({"op": "matmul", "shapes": [[], [3, 1]]})")));
  const char* compare = R"({"op": "graph", "shapes": [[2], [2]],
      "program": [{"op": "OP", "args": [0, 1]}, {"op": "where", "args": [2, 0, 1]}]})";
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    std::string text = compare;
    text.replace(text.find("OP"), 2, op);
    EXPECT_TRUE(case_has("graph_comparison", make_case(text.c_str()))) << op;
  }
  EXPECT_FALSE(case_has("graph_comparison", make_case(R"({"op": "graph", "shapes": [[2], [2]],
      "program": [{"op": "maximum", "args": [0, 1]}]})")));
  EXPECT_FALSE(case_has("graph_comparison", make_case(R"({"op": "lt", "shapes": [[2], [2]]})")));
  EXPECT_TRUE(case_has("graph_where", make_case(R"({"op": "graph", "shapes": [[2], [2]],
      "program": [{"op": "lt", "args": [0, 1]}, {"op": "where", "args": [2, 0, 1]}]})")));
  EXPECT_FALSE(case_has("graph_where", make_case(R"({"op": "where", "shapes": [[2], [2], [2]]})")));
  EXPECT_TRUE(case_has("integral_reduction", make_case(R"({"op": "sum", "shapes": [[2]], "dtypes": ["bool"]})")));
  EXPECT_TRUE(case_has("integral_reduction", make_case(R"({"op": "mean", "shapes": [[2]], "dtypes": ["int32"]})")));
  EXPECT_TRUE(case_has("integral_reduction", make_case(R"({"op": "mean", "shapes": [[2]], "dtype_arg": "bool"})")));
  EXPECT_FALSE(case_has("integral_reduction", make_case(R"({"op": "sum", "shapes": [[2]], "dtypes": ["int32"], "dtype_arg": "float64"})")));
  EXPECT_FALSE(case_has("integral_reduction", make_case(R"({"op": "sum", "shapes": [[2]]})")));
  EXPECT_FALSE(case_has("integral_reduction", make_case(R"({"op": "neg", "shapes": [[2]], "dtypes": ["int32"]})")));
}

// tfjs-wasm's Select reads one branch through the other's dtype: a where whose branches' dtypes differ (the
// condition's dtype does not count).
TEST(CaseConditions, MixedBranchDtypesComparesWheresBranchesOnly) {
  EXPECT_TRUE(case_has("mixed_branch_dtypes",
                       make_case(R"({"op": "where", "shapes": [[2], [2], [2]], "dtypes": ["bool", "bool", "float32"]})")));
  EXPECT_FALSE(case_has("mixed_branch_dtypes",
                        make_case(R"({"op": "where", "shapes": [[2], [2], [2]], "dtypes": ["bool", "int32", "int32"]})")));
  EXPECT_FALSE(case_has("mixed_branch_dtypes", make_case(R"({"op": "where", "shapes": [[2], [2], [2]]})")));
  EXPECT_FALSE(case_has("mixed_branch_dtypes",
                        make_case(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["bool", "float32"]})")));
  EXPECT_TRUE(case_has("bool_first_branch",
                       make_case(R"({"op": "where", "shapes": [[2], [2], [2]], "dtypes": ["bool", "bool", "float32"]})")));
  EXPECT_FALSE(case_has("bool_first_branch",
                        make_case(R"({"op": "where", "shapes": [[2], [2], [2]], "dtypes": ["bool", "float32", "bool"]})")));
  EXPECT_FALSE(case_has("bool_first_branch",
                        make_case(R"({"op": "where", "shapes": [[2], [2], [2]], "dtypes": ["bool", "bool", "bool"]})")));
}

TEST(CaseConditions, ADeclarationWithWhenCoversOnlyCasesWithTheFact) {
  const Declaration d = declaration_from_json(nlohmann::json::parse(
      R"({"id": "x", "oracle": "torch", "when": "input_is_self", "reason": "r", "reference": "r"})"));
  EXPECT_TRUE(d.covers(make_case(R"({"op": "add_", "shapes": [[1, 3], [1, 3]], "layouts": ["contiguous", "overlapping"]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"op": "add_", "shapes": [[2], [2]], "layouts": ["strided", "overlapping"]})")));
  EXPECT_EQ(to_json(d)["when"], "input_is_self");
  EXPECT_THROW(declaration_from_json(nlohmann::json::parse(
                   R"({"id": "y", "oracle": "torch", "when": "sometimes", "reason": "r", "reference": "r"})")),
               CaseError);
}

}  // namespace
}  // namespace bc

namespace bc {
namespace {

// The 5-minute runs' cases: int64 extremes summed into float64 and float32, where the engine and LibTorch add in
// different orders. Integers inside the dtype's exact range, floating inputs, or no dtype=: no.
TEST(CaseConditions, SumOrderRoundsNeedsAnIntegerBeyondTheDtypesExactRange) {
  EXPECT_TRUE(case_has("sum_order_rounds", make_case(
      R"({"op": "sum", "dims": [], "dtype_arg": "float64", "dtypes": ["int64"], "layouts": ["strided"], "shapes": [[4, 3]], "values": {"seed": 176048, "special": true}})")));
  EXPECT_TRUE(sum_order_rounds(make_case(
      R"({"op": "mean", "dtype_arg": "float32", "dtypes": ["int64"], "shapes": [[2]], "values": {"data": [[16777217, 1]]}})")));
  EXPECT_FALSE(sum_order_rounds(make_case(
      R"({"op": "sum", "dtype_arg": "float32", "dtypes": ["int64"], "shapes": [[2]], "values": {"data": [[16777216, 1]]}})")));
  EXPECT_FALSE(sum_order_rounds(make_case(
      R"({"op": "sum", "dtype_arg": "float64", "dtypes": ["int64"], "shapes": [[2]], "values": {"data": [[16777217, 1]]}})")));
  EXPECT_FALSE(sum_order_rounds(make_case(
      R"({"op": "sum", "dtypes": ["int64"], "shapes": [[2]], "values": {"data": [[9223372036854775807, 1]]}})")));
  EXPECT_FALSE(sum_order_rounds(make_case(
      R"({"op": "prod", "dtype_arg": "float32", "dtypes": ["int64"], "shapes": [[2]], "values": {"data": [[16777217, 1]]}})")));
}

// The seed-5 run's case: outer(float32 [-2], int32 [-2, -2, INT32_MIN, 3, INT32_MAX]) with a gradient for the
// float vector, which sums five products that cancel (INT32_MAX rounds to 2^31 in float32).
TEST(CaseConditions, GradSumRoundsNeedsASummedGradientBesideAnInexactInteger) {
  EXPECT_TRUE(case_has("grad_sum_rounds", make_case(
      R"({"op": "outer", "dtypes": ["float32", "int32"], "requires_grad": [true, false], "shapes": [[1], [5]], "values": {"seed": 397604, "special": true}})")));
  EXPECT_TRUE(grad_sum_rounds(make_case(
      R"({"op": "mul", "dtypes": ["float32", "int64"], "requires_grad": [true, false], "shapes": [[1], [2]], "values": {"data": [[1.5], [16777217, 1]]}})")));
  // Within float32's exact range; a float64 gradient (exact up to 2^53); no gradient summed (the same shapes, or
  // outer against a single element); no gradient at all.
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mul", "dtypes": ["float32", "int64"], "requires_grad": [true, false], "shapes": [[1], [2]], "values": {"data": [[1.5], [16777216, 1]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mul", "dtypes": ["float64", "int64"], "requires_grad": [true, false], "shapes": [[1], [2]], "values": {"data": [[1.5], [16777217, 1]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mul", "dtypes": ["float32", "int64"], "requires_grad": [true, false], "shapes": [[2], [2]], "values": {"data": [[1.5, 2], [16777217, 1]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "outer", "dtypes": ["float32", "int64"], "requires_grad": [true, false], "shapes": [[2], [1]], "values": {"data": [[1.5, 2], [16777217]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mul", "dtypes": ["float32", "int64"], "shapes": [[1], [2]], "values": {"data": [[1.5], [16777217, 1]]}})")));
  // The integers convert to the widest floating dtype among the operands: float64 holds 2049 exactly, float16 not.
  EXPECT_TRUE(grad_sum_rounds(make_case(
      R"({"op": "where", "dtypes": ["bool", "float16", "int64"], "requires_grad": [false, true, false], "shapes": [[2], [1], [2]], "values": {"data": [[1, 0], [1.5], [2049, 1]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "addcmul", "dtypes": ["float16", "float64", "int64"], "requires_grad": [true, false, false], "shapes": [[1], [2], [2]], "values": {"data": [[1.5], [1, 2], [2049, 1]]}})")));
}

// A matrix product's gradient sums over the other operand's free dim: a's over b's columns, b's over a's rows (the
// seed-3 run's bmm of float32 [1, 4, 3] with int32 [1, 3, 5] holding INT32_MIN and INT32_MAX). One column, or a
// vector (mv's v: a's gradient is dy[i] * v[k], one term), sums nothing for a.
TEST(CaseConditions, GradSumRoundsCountsAProductsFreeDim) {
  EXPECT_TRUE(grad_sum_rounds(make_case(
      R"({"op": "mm", "dtypes": ["float32", "int32"], "requires_grad": [true, false], "shapes": [[1, 2], [2, 3]], "values": {"data": [[1.5, 2], [16777217, 1, 1, 1, 1, 1]]}})")));
  EXPECT_TRUE(grad_sum_rounds(make_case(
      R"({"op": "bmm", "dtypes": ["int32", "float32"], "requires_grad": [false, true], "shapes": [[1, 2, 3], [1, 3, 1]], "values": {"data": [[16777217, 1, 1, 1, 1, 1], [1.5, 2, 3]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mm", "dtypes": ["float32", "int32"], "requires_grad": [true, false], "shapes": [[1, 2], [2, 1]], "values": {"data": [[1.5, 2], [16777217, 1]]}})")));
  EXPECT_FALSE(grad_sum_rounds(make_case(
      R"({"op": "mv", "dtypes": ["float32", "int32"], "requires_grad": [true, false], "shapes": [[1, 2], [2]], "values": {"data": [[1.5, 2], [16777217, 1]]}})")));
}

// The seed-5 run's addbmm (four batches, bfloat16, finite): its batches are summed; one batch, or a NaN, or another
// op: no.
TEST(CaseConditions, BatchesSummedNeedsTwoBatchesOfFiniteValues) {
  EXPECT_TRUE(case_has("batches_summed", make_case(
      R"({"op": "addbmm", "dtypes": ["bfloat16", "bfloat16", "bfloat16"], "scalars": {"alpha": 2, "beta": 0.5}, "shapes": [[1, 4], [4, 1, 3], [4, 3, 4]], "values": {"seed": 703409}})")));
  EXPECT_FALSE(batches_summed(make_case(
      R"({"op": "addbmm", "shapes": [[1, 2], [1, 1, 2], [1, 2, 2]], "values": {"seed": 1}})")));
  EXPECT_FALSE(batches_summed(make_case(
      R"({"op": "addbmm", "shapes": [[1, 1], [2, 1, 1], [2, 1, 1]], "values": {"data": [[1.0], ["nan", 2.0], [3.0, 4.0]]}})")));
  EXPECT_FALSE(batches_summed(make_case(
      R"({"op": "baddbmm", "shapes": [[2, 1, 1], [2, 1, 1], [2, 1, 1]], "values": {"seed": 1}})")));
}

TEST(CaseConditions, ProdOrderDecidesZeroNeedsAZeroAndAnOverflowingProduct) {
  // The 5-minute run's case (seed 55466, special values): zeros, and int64 extremes that overflow float32.
  EXPECT_TRUE(prod_order_decides_zero(make_case(
      R"({"op": "prod", "shapes": [[4, 4, 4]], "dtypes": ["int64"], "dtype_arg": "float32", "values": {"seed": 55466, "special": true}})")));
  // 2^62 * 2^62 * 2^62 overflows float32 (2^128) but not float64.
  const char* big = R"({"op": "prod", "shapes": [[4]], "dtypes": ["int64"], "dtype_arg": "%s",
                        "values": {"data": [[4611686018427387904, 0, 4611686018427387904, 4611686018427387904]]}})";
  char text[512];
  std::snprintf(text, sizeof text, big, "float32");
  EXPECT_TRUE(prod_order_decides_zero(make_case(text)));
  EXPECT_TRUE(case_has("prod_order_decides_zero", make_case(text)));
  std::snprintf(text, sizeof text, big, "float64");
  EXPECT_FALSE(prod_order_decides_zero(make_case(text)));
  // Without a zero, or with an inf (NaN or inf in any order), or multiplied as integers: no.
  EXPECT_FALSE(prod_order_decides_zero(make_case(
      R"({"op": "prod", "shapes": [[3]], "dtypes": ["float32"], "values": {"data": [[3e38, 3e38, 1]]}})")));
  EXPECT_FALSE(prod_order_decides_zero(make_case(
      R"({"op": "prod", "shapes": [[4]], "dtypes": ["float32"], "values": {"data": [[3e38, 3e38, 0, "inf"]]}})")));
  EXPECT_FALSE(prod_order_decides_zero(make_case(
      R"({"op": "prod", "shapes": [[3]], "dtypes": ["int64"], "values": {"data": [[4611686018427387904, 0, 4611686018427387904]]}})")));
  EXPECT_TRUE(prod_order_decides_zero(make_case(
      R"({"op": "prod", "shapes": [[3]], "dtypes": ["float32"], "values": {"data": [[3e38, 3e38, 0]]}})")));
  EXPECT_FALSE(prod_order_decides_zero(make_case(
      R"({"op": "sum", "shapes": [[3]], "dtypes": ["float32"], "values": {"data": [[3e38, 3e38, 0]]}})")));
}

}  // namespace
}  // namespace bc

namespace bc {
namespace {

// where_bool_branches: both branches bool (the condition always is), not one of them.
TEST(CaseConditions, WhereBoolBranchesNeedsBothBranchesBool) {
  EXPECT_TRUE(case_has("where_bool_branches", make_case(R"({"op": "where", "shapes": [[2], [], []], "dtypes": ["bool", "bool", "bool"]})")));
  EXPECT_FALSE(case_has("where_bool_branches", make_case(R"({"op": "where", "shapes": [[2], [], []], "dtypes": ["bool", "bool", "float32"]})")));
  EXPECT_FALSE(case_has("where_bool_branches", make_case(R"({"op": "logical_and", "shapes": [[2], []], "dtypes": ["bool", "bool"]})")));
}

// A count below 0 or at least the result dtype's bits, as the shift sees it (converted to that dtype: an int64 0-d
// 264 next to int8 is 8); not for other ops, nor for counts inside the width.
TEST(CaseConditions, ShiftCountOutsideWidthReadsTheCountsInTheResultDtype) {
  const auto shift = [](const char* rest) {
    return shift_count_outside_width(make_case((std::string(R"({"op": "bitwise_left_shift", )") + rest).c_str()));
  };
  EXPECT_TRUE(shift(R"("shapes": [[2], [2]], "dtypes": ["int32", "int32"], "values": {"data": [[1, 1], [3, 32]]}})"));
  EXPECT_TRUE(shift(R"("shapes": [[2], [2]], "dtypes": ["int64", "int64"], "values": {"data": [[1, 1], [-1, 0]]}})"));
  EXPECT_FALSE(shift(R"("shapes": [[2], [2]], "dtypes": ["int64", "int64"], "values": {"data": [[1, 1], [63, 0]]}})"));
  EXPECT_TRUE(shift(R"("shapes": [[1], []], "dtypes": ["int8", "int64"], "values": {"data": [[1], [264]]}})"));
  EXPECT_FALSE(shift(R"("shapes": [[1], []], "dtypes": ["int8", "int64"], "values": {"data": [[1], [263]]}})"));
  EXPECT_TRUE(shift_count_outside_width(make_case(
      R"({"op": "bitwise_right_shift_", "shapes": [[1], [1]], "dtypes": ["uint8", "uint8"], "values": {"data": [[1], [8]]}})")));
  EXPECT_FALSE(shift_count_outside_width(make_case(
      R"({"op": "bitwise_and", "shapes": [[1], [1]], "dtypes": ["int8", "int8"], "values": {"data": [[1], [9]]}})")));
  EXPECT_FALSE(shift(R"("shapes": [[1], [1]], "dtypes": ["float32", "float32"], "values": {"data": [[1], [99]]}})"));
  // An overlapping count has no base of its own: it reads self's ([1, 40]: 40 is past int32's 32 bits).
  EXPECT_TRUE(shift(R"("shapes": [[2], [2]], "dtypes": ["int32", "int32"], "layouts": ["contiguous", "overlapping"],
      "values": {"data": [[1, 40], [0, 0]]}})"));
  EXPECT_FALSE(shift(R"("shapes": [[2], [2]], "dtypes": ["int32", "int32"], "layouts": ["contiguous", "overlapping"],
      "values": {"data": [[1, 3], [0, 0]]}})"));
  // A number count does not promote a 0-d int8 self (a wrapped number): the shift is int8's, 40 is past 8 bits.
  EXPECT_TRUE(shift(R"("shapes": [[], {"number": 40}], "dtypes": ["int8", "int64"], "values": {"data": [[1], []]}})"));
}

}  // namespace
}  // namespace bc
