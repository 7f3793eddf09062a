// Shared by the oracle tests: build a case from an op and shapes.
#pragma once

#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "harness/case.h"
#include "harness/outcome.h"
#include "oracles/oracle.h"

namespace bc::testing {

inline Case make_case(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = std::move(shapes);
  return c;
}

// A small graph worked out by hand: x0 = [2, -1], x1 = [3]; t2 = mul(x0, x1) = [6, -3]; t3 = maximum(t2, x0) =
// [6, -1] (t2 wins element 0, x0 element 1); t4 = mul(t3, t2) = [36, 3], so t2 reaches the result twice. Upstream
// ones: g3 = t2 = [6, -3]; g2 = t3 + [g3[0], 0] = [12, -1]; x0 gets [0, g3[1]] + g2 * x1 = [36, -6]; x1 gets
// sum(g2 * x0) = 24 + 1 = 25.
inline Case graph_example() {
  Case c = make_case("graph", {{2}, {1}});
  c.program = {{Op::mul, {0, 1}}, {Op::maximum, {2, 0}}, {Op::mul, {3, 2}}};
  c.values = ValueSpec{0, false, {Values(std::vector<double>{2, -1}), Values(std::vector<double>{3})}};
  c.requires_grad = {true, true};
  return c;
}
// What every implementation must answer on graph_example(), worked out above.
inline void expect_graph_example(const Outcome& o) {
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, Values(std::vector<double>{36, 3}));
  ASSERT_EQ(o.grads.size(), 2u);
  EXPECT_EQ(o.grads[0], (Grad{{2}, "float32", Values(std::vector<double>{36, -6})}));
  EXPECT_EQ(o.grads[1], (Grad{{1}, "float32", Values(std::vector<double>{25})}));
}

// Number operands worked out by hand from PyTorch's wrapped-number promotion and C++'s integer conversions (and
// seen so on LibTorch 1.13.1 with at::add(t, Scalar), t.mul_(Scalar), at::pow(t, Scalar), at::where(c, t, Scalar)):
// int8 [100] + 300: 300 is 44 in int8, 144 wraps to -112; int8 + 2.5 is float32 (the default float dtype);
// float16 [1] + 1e10: 1e10 is inf in float16; bool + 3 is int64; int8 [100].mul_(3): 300 wraps to 44; int8
// .mul_(2.5) cannot store float32; int32 pow -1 is refused; where(c, int8, 300) converts 300 with c10's check.
struct NumberExample {
  const char* json;
  Outcome want;
};
inline std::vector<NumberExample> number_examples() {
  auto ok = [](Shape shape, const char* dtype, Values v) {
    Outcome o = Outcome::success(std::move(shape), dtype);
    o.values = std::move(v);
    return o;
  };
  using I = std::vector<int64_t>;
  return {
      {R"({"op": "add", "shapes": [[1], {"number": 300}], "dtypes": ["int8", "int64"], "values": {"data": [[100], []]}})",
       ok({1}, "int8", Values(I{-112}))},
      {R"({"op": "add", "shapes": [[1], {"number": 2.5}], "dtypes": ["int8", "float64"], "values": {"data": [[100], []]}})",
       ok({1}, "float32", Values{102.5})},
      {R"({"op": "add", "shapes": [[1], {"number": 1e10}], "dtypes": ["float16", "float64"], "values": {"data": [[1], []]}})",
       ok({1}, "float16", Values{std::numeric_limits<double>::infinity()})},
      {R"({"op": "add", "shapes": [[1], {"number": 3}], "dtypes": ["bool", "int64"], "values": {"data": [[true], []]}})",
       ok({1}, "int64", Values(I{4}))},
      {R"({"op": "add", "shapes": [[1], {"number": 9007199254740993}], "dtypes": ["int64", "int64"], "values": {"data": [[0], []]}})",
       ok({1}, "int64", Values(I{9007199254740993LL}))},
      {R"({"op": "mul_", "shapes": [[1], {"number": 3}], "dtypes": ["int8", "int64"], "values": {"data": [[100], []]}})",
       ok({1}, "int8", Values(I{44}))},
      {R"({"op": "mul_", "shapes": [[1], {"number": 2.5}], "dtypes": ["int8", "float64"], "values": {"data": [[100], []]}})",
       Outcome::failure(ErrorKind::dtype_cast, "result type Float can't be cast to the desired output type Char")},
      {R"({"op": "pow", "shapes": [[1], {"number": -1}], "dtypes": ["int32", "int64"], "values": {"data": [[2], []]}})",
       Outcome::failure(ErrorKind::invalid_argument, "Integers to negative integer powers are not allowed.")},
      {R"({"op": "where", "shapes": [[2], [2], {"number": 2.5}], "dtypes": ["bool", "int8", "float64"],
           "values": {"data": [[true, false], [7, 7], []]}})",
       ok({2}, "float32", Values{7, 2.5})},
      {R"({"op": "where", "shapes": [[2], {"number": 2.5}, {"number": 3}], "dtypes": ["bool", "float64", "int64"],
           "values": {"data": [[true, false], [], []]}})",
       ok({2}, "float32", Values{2.5, 3})},
      {R"({"op": "where", "shapes": [[2], [2], {"number": 300}], "dtypes": ["bool", "int8", "int64"],
           "values": {"data": [[true, false], [7, 7], []]}})",
       Outcome::failure(ErrorKind::other, "value cannot be converted to type int8_t without overflow")},
  };
}

// Runs every number example on `oracle` and compares status, dtype, values and the error's kind and text.
inline void expect_number_examples(Oracle& oracle) {
  for (const NumberExample& e : number_examples()) {
    const Outcome o = oracle.run(case_from_json(nlohmann::json::parse(e.json)));
    EXPECT_EQ(o.status, e.want.status) << e.json << ": " << o.detail;
    EXPECT_EQ(o.dtype, e.want.dtype) << e.json;
    EXPECT_EQ(o.values, e.want.values) << e.json;
    if (e.want.error) {
      ASSERT_TRUE(o.error.has_value()) << e.json;
      EXPECT_EQ(o.error->kind, e.want.error->kind) << e.json;
      EXPECT_EQ(o.error->message, e.want.error->message) << e.json;
    }
  }
}

}  // namespace bc::testing
