// Number operands (harness/case.h: Case::numbers) with their outcomes worked out by hand, shared by the oracle tests
// of the implementations that follow PyTorch's wrapped-number rule (the engine and LibTorch).
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "harness/case.h"
#include "harness/outcome.h"
#include "oracles/oracle.h"

namespace bc::testing {

// Number operands worked out by hand from PyTorch's wrapped-number promotion and C++'s integer conversions (and
// seen so on LibTorch 1.13.1 with at::add(t, Scalar), t.mul_(Scalar), at::pow(t, Scalar), at::where(c, t, Scalar)):
// int8 [100] + 300: 300 is 44 in int8, 144 wraps to -112; int8 + 2.5 is float32 (the default float dtype);
// float16 [1] + 1e10: 1e10 is inf in float16; bool + 3 is int64; int8 [100].mul_(3): 300 wraps to 44; int8
// .mul_(2.5) cannot store float32; int32 pow -1 is refused; where(c, int8, 300) converts 300 with c10's check.
struct NumberExample {
  const char* json;
  Outcome want;
};
inline Outcome with_grads(Outcome o, std::vector<std::optional<Grad>> grads) {
  o.grads = std::move(grads);
  return o;
}
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
      // x ** (2^53 + 1) at x = -1: the value (-1)^(2^53) = 1 (the exponent is 2^53 as a double); the gradient
      // n * x^(n - 1) with n taken as a double first, as pow(Tensor, Scalar)'s backward does: 2^53 * (-1)^(2^53 - 1).
      {R"({"op": "pow", "shapes": [[1], {"number": 9007199254740993}], "dtypes": ["float64", "int64"],
           "requires_grad": [true, false], "values": {"data": [[-1], []]}})",
       with_grads(ok({1}, "float64", Values{1.0}), {Grad{{1}, "float64", Values{-9007199254740992.0}}, std::nullopt})},
      // x ** 0.5 is pow(Tensor, Scalar)'s sqrt: sqrt(-0.0) = -0.0 and sqrt(-inf) = NaN (std::pow: 0.0 and inf); the
      // gradient 0.5 * x ** -0.5 is rsqrt there too: 0.5 / sqrt(-0.0) = -inf, 0.5 / NaN = NaN.
      {R"({"op": "pow", "shapes": [[2], {"number": 0.5}], "dtypes": ["float32", "float64"],
           "requires_grad": [true, false], "values": {"data": [[-0.0, "-inf"], []]}})",
       with_grads(ok({2}, "float32", Values{-0.0, std::numeric_limits<double>::quiet_NaN()}),
                  {Grad{{2}, "float32", Values{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}},
                   std::nullopt})},
  };
}

// Runs every number example on `oracle` and compares status, dtype, values and the error's kind and text.
inline void expect_number_examples(Oracle& oracle) {
  for (const NumberExample& e : number_examples()) {
    const Outcome o = oracle.run(case_from_json(nlohmann::json::parse(e.json)));
    EXPECT_EQ(o.status, e.want.status) << e.json << ": " << o.detail;
    EXPECT_EQ(o.dtype, e.want.dtype) << e.json;
    EXPECT_EQ(o.values, e.want.values) << e.json;
    if (!e.want.grads.empty()) EXPECT_EQ(o.grads, e.want.grads) << e.json;
    if (e.want.error) {
      ASSERT_TRUE(o.error.has_value()) << e.json;
      EXPECT_EQ(o.error->kind, e.want.error->kind) << e.json;
      EXPECT_EQ(o.error->message, e.want.error->message) << e.json;
    }
  }
}

}  // namespace bc::testing
