// The NumPy adapter (oracles/numpy/adapter.py) through the real protocol: what it declares, NumPy's own results
// for broadcasting, in-place ops and views, exact special values, and NumPy's messages with their kinds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "oracles/external_oracle.h"
#include "test_paths.h"

namespace bc {
namespace {

using namespace std::chrono_literals;

Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

ExternalOracle& numpy() {
  static ExternalOracle oracle("numpy", "/usr/bin/python3 " + bc::test_source_dir() + "/oracles/numpy/adapter.py",
                               10000ms);
  return oracle;
}

TEST(NumpyAdapter, DeclaresWhatNumPyHasAndNoGradients) {
  const Capabilities& caps = numpy().capabilities();
  EXPECT_EQ(caps.name, "NumPy");
  EXPECT_TRUE(caps.ignored.empty()) << caps.ignored.front();
  for (const char* op : {"add", "add_", "matmul", "where", "broadcast_shapes", "expand", "addmm", "dist"})
    EXPECT_TRUE(caps.ops.count(op)) << op;
  for (const char* op : {"sum_to", "mm", "bmm", "mv", "maximum_"}) EXPECT_FALSE(caps.ops.count(op)) << op;
  EXPECT_FALSE(caps.gradients);
  EXPECT_EQ(caps.layouts.size(), 5u);
}

TEST(NumpyAdapter, ShapesAndErrorsAreNumPysOwn) {
  EXPECT_EQ(summarize(numpy().run(make_case(R"({"op": "broadcast_shapes", "shapes": [[2, 1], [3], [1, 1, 1]]})"))),
            "ok [1, 2, 3] float32");
  const Outcome refused = numpy().run(make_case(R"({"op": "add", "shapes": [[2], [3]]})"));
  EXPECT_EQ(summarize(refused), "error broadcast");
  EXPECT_EQ(refused.error->message, "operands could not be broadcast together with shapes (2,) (3,) ");
  const Outcome grow = numpy().run(make_case(R"({"op": "add_", "shapes": [[1], [3]]})"));
  EXPECT_EQ(summarize(grow), "error inplace_shape");
  EXPECT_EQ(grow.error->message, "non-broadcastable output operand with shape (1,) doesn't match the broadcast shape (3,)");
  EXPECT_EQ(summarize(numpy().run(make_case(R"({"op": "expand", "shapes": [[3, 1], [-1, 4]]})"))), "error expand");
  const Outcome cast = numpy().run(make_case(R"({"op": "div_", "shapes": [[2], [2]], "dtypes": ["int64", "int64"],
      "values": {"seed": 1}})"));
  EXPECT_EQ(summarize(cast), "error dtype_cast");
}

TEST(NumpyAdapter, ValuesComeBackExactlyThroughViews) {
  // -0.0 + -0.0 keeps its sign; inf - inf is NaN; the int64 extreme wraps around as NumPy's int64 does.
  Outcome f = numpy().run(make_case(R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["float64", "float64"],
      "values": {"data": [[-0.0, "inf", 1.5], [-0.0, "-inf", 2.25]]}})"));
  ASSERT_EQ(f.values.size(), 3u) << summarize(f);
  EXPECT_TRUE(std::signbit(f.values.as_double(0)) && f.values.as_double(0) == 0);
  EXPECT_TRUE(std::isnan(f.values.as_double(1)));
  EXPECT_EQ(f.values.as_double(2), 3.75);
  Outcome i = numpy().run(make_case(R"({"op": "sub", "shapes": [[1], [1]], "dtypes": ["int64", "int64"],
      "values": {"data": [[-9223372036854775808], [1]]}})"));
  EXPECT_EQ(summarize(i), "ok [1] int64");
  EXPECT_EQ(i.values, Values(std::vector<int64_t>{9223372036854775807}));
  // Integers beyond 2^53 through NumPy and back, exactly: none passes through a double.
  Outcome big = numpy().run(make_case(R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "int64"],
      "values": {"data": [[9007199254740993, 9223372036854775807, -9223372036854775808], [0, 0, 0]]}})"));
  EXPECT_EQ(big.values, Values(std::vector<int64_t>{9007199254740993, INT64_MAX, INT64_MIN})) << summarize(big);
  // A transposed self written in place: NumPy writes through the view.
  Outcome t = numpy().run(make_case(R"({"op": "mul_", "shapes": [[2, 2], [2]], "layouts": ["transposed", "contiguous"],
      "values": {"data": [[1, 2, 3, 4], [10, 100]]}})"));
  EXPECT_EQ(t.values, (std::vector<double>{10, 200, 30, 400}));
}

// The issue-34 ufuncs: bitwise_xor (12 ^ 10 is 6, -1 ^ 5 is -6), in place |= ([1, 2] | 4), np.left_shift and
// np.right_shift with counts past the width (NumPy gives 0, or -1 for a negative value shifted right), the logical
// ufuncs' truth (NaN is true, a bool result) and logaddexp (log 2 at 0 and 0; -inf with -inf stays -inf).
TEST(NumpyAdapter, BitwiseShiftLogicalAndLogaddexpUfuncs) {
  const Capabilities& caps = numpy().capabilities();
  for (const char* op : {"bitwise_and", "bitwise_or_", "bitwise_left_shift_", "logical_xor", "logical_and_", "logaddexp"})
    EXPECT_TRUE(caps.ops.count(op)) << op;
  EXPECT_FALSE(caps.ops.count("logaddexp_"));
  const Outcome x = numpy().run(make_case(R"({"op": "bitwise_xor", "shapes": [[2], [2]], "dtypes": ["int64", "int64"],
      "values": {"data": [[12, -1], [10, 5]]}})"));
  EXPECT_EQ(summarize(x), "ok [2] int64");
  EXPECT_EQ(x.values, Values(std::vector<int64_t>{6, -6}));
  const Outcome o = numpy().run(make_case(R"({"op": "bitwise_or_", "shapes": [[2], [1]], "dtypes": ["int64", "int64"],
      "values": {"data": [[1, 2], [4]]}})"));
  EXPECT_EQ(o.values, Values(std::vector<int64_t>{5, 6})) << summarize(o);
  const Outcome left = numpy().run(make_case(R"({"op": "bitwise_left_shift", "shapes": [[3], [3]],
      "dtypes": ["int32", "int32"], "values": {"data": [[1, 1, 3], [3, 32, -1]]}})"));
  EXPECT_EQ(summarize(left), "ok [3] int32");
  EXPECT_EQ(left.values, Values(std::vector<int64_t>{8, 0, 0}));
  const Outcome right = numpy().run(make_case(R"({"op": "bitwise_right_shift", "shapes": [[2], [1]],
      "dtypes": ["int32", "int32"], "values": {"data": [[-8, 8], [40]]}})"));
  EXPECT_EQ(right.values, Values(std::vector<int64_t>{-1, 0})) << summarize(right);
  const Outcome land = numpy().run(make_case(R"({"op": "logical_and", "shapes": [[3], [3]], "dtypes": ["float64", "float64"],
      "values": {"data": [[0.5, 0, "nan"], [2, 3, 1]]}})"));
  EXPECT_EQ(summarize(land), "ok [3] bool");
  EXPECT_EQ(land.values, Values(std::vector<int64_t>{1, 0, 1}));
  const Outcome lae = numpy().run(make_case(R"({"op": "logaddexp", "shapes": [[2], [2]], "dtypes": ["float64", "float64"],
      "values": {"data": [[0, "-inf"], [0, "-inf"]]}})"));
  ASSERT_EQ(lae.values.size(), 2u) << summarize(lae);
  EXPECT_DOUBLE_EQ(lae.values.as_double(0), std::log(2.0));
  EXPECT_EQ(lae.values.as_double(1), -INFINITY);
}

}  // namespace
}  // namespace bc
