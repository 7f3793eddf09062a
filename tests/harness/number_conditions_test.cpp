// The named facts of number operands (harness/number_conditions.h), on cases worked out by hand.
#include "harness/number_conditions.h"

#include <gtest/gtest.h>

#include "harness/case_conditions.h"

namespace bc {
namespace {

Case parse(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

TEST(NumberConditions, AboveTheCategoryOfEveryTensor) {
  EXPECT_TRUE(number_above_category(parse(R"({"op": "add", "shapes": [[2], {"number": 2.5}], "dtypes": ["int8", "float64"]})")));
  EXPECT_TRUE(number_above_category(parse(R"({"op": "add", "shapes": [[2], {"number": 3}], "dtypes": ["bool", "int64"]})")));
  EXPECT_FALSE(number_above_category(parse(R"({"op": "add", "shapes": [[2], {"number": 2.5}]})")));  // float32 tensor
  EXPECT_FALSE(number_above_category(parse(R"({"op": "add", "shapes": [[2], {"number": 300}], "dtypes": ["int8", "int64"]})")));
  EXPECT_FALSE(number_above_category(parse(R"({"op": "add", "shapes": [[2], {"number": true}], "dtypes": ["int8", "bool"]})")));
  // where's condition does not count; two numbers with a float among them meet no tensor.
  EXPECT_TRUE(number_above_category(
      parse(R"({"op": "where", "shapes": [[2], [2], {"number": 0.5}], "dtypes": ["bool", "int32", "float64"]})")));
  EXPECT_TRUE(number_above_category(parse(R"({"op": "where", "shapes": [[2], {"number": 2.5}, {"number": 3}]})")));
  EXPECT_FALSE(number_above_category(parse(R"({"op": "where", "shapes": [[2], {"number": 2}, {"number": 3}]})")));
  EXPECT_TRUE(case_has("number_above_category", parse(R"({"op": "mul", "shapes": [[], {"number": 0.5}], "dtypes": ["int64", "float64"]})")));
}

TEST(NumberConditions, BeyondTheDtypeOfTheTensorsOfItsCategory) {
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 300}], "dtypes": ["int8", "int64"]})")));
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 127}], "dtypes": ["int8", "int64"]})")));
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": -1}], "dtypes": ["uint8", "int64"]})")));
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 2147483648}], "dtypes": ["int32", "int64"]})")));
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 1e10}], "dtypes": ["float16", "float64"]})")));
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": "inf"}], "dtypes": ["float16", "float64"]})")));
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 1e39}]})")));
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 1e39}], "dtypes": ["float64", "float64"]})")));
  // A category above the tensors' is number_above_category's; an int with a float tensor converts to it, and fits
  // unless it passes the dtype's largest value (PyTorch: the int64 minimum is -inf in float16; NumPy 1.24 widens).
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 1e10}], "dtypes": ["int8", "float64"]})")));
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 300}], "dtypes": ["float16", "int64"]})")));
  EXPECT_TRUE(number_beyond_dtype(
      parse(R"({"op": "mul_", "shapes": [[2], {"number": -9223372036854775808}], "dtypes": ["float16", "int64"]})")));
  EXPECT_TRUE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 65536}], "dtypes": ["float16", "int64"]})")));
  EXPECT_FALSE(number_beyond_dtype(parse(R"({"op": "add", "shapes": [[2], {"number": 65536}], "dtypes": ["float32", "int64"]})")));
  EXPECT_TRUE(case_has("number_beyond_dtype",
                       parse(R"({"op": "where", "shapes": [[2], [2], {"number": 300}], "dtypes": ["bool", "int8", "int64"]})")));
  EXPECT_TRUE(case_has("number_operand", parse(R"({"op": "add", "shapes": [[2], {"number": 1}]})")));
  EXPECT_FALSE(case_has("number_operand", parse(R"({"op": "add", "shapes": [[2], [2]]})")));
}

}  // namespace
}  // namespace bc
