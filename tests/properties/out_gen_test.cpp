// The generated out= tensors: only on out-of-place pointwise binary ops, each form of out drawn and tagged by
// whether its shape is the broadcast result's.
#include "properties/out_gen.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "engine/broadcast.h"

namespace bc {

Case binary_case(const std::string& op) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = {{2, 1}, {3}};
  return c;
}

TEST(OutGen, EveryFormIsDrawnAndTaggedByItsShape) {
  std::set<std::string> tags;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Case c = rc::gen::exec([] {
      Case x = binary_case("floor_divide");
      gen::maybe_out(x, 1);
      return x;
    })(rc::Random(seed)).value();
    ASSERT_TRUE(c.out.has_value());
    ASSERT_EQ(c.tags.size(), 2u);
    EXPECT_EQ(c.tags[0], "out=");
    tags.insert(c.tags[1]);
    EXPECT_EQ(c.tags[1] == "out right shape", c.out->shape == (Shape{2, 3})) << c.tags[1];
    if (c.tags[1] == "out resized") { EXPECT_GT(numel(c.out->shape), 0); }
  }
  EXPECT_EQ(tags, (std::set<std::string>{"out right shape", "out resized", "out empty", "out reshaped"}));
}

// About one out= case in three has a floating operand that requires grad (LibTorch refuses out= under autograd),
// never an integer one; without a floating operand none does.
TEST(OutGen, SomeOutCasesHaveAFloatingOperandThatRequiresGrad) {
  int with_grad = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    for (DType other : {DType::int64, DType::float64}) {
      const Case c = rc::gen::exec([other] {
        Case x = binary_case("add");
        x.dtypes = {other, DType::float32};
        gen::maybe_out(x, 1);
        return x;
      })(rc::Random(seed)).value();
      const bool tagged = std::count(c.tags.begin(), c.tags.end(), "out= requires_grad") == 1;
      EXPECT_EQ(tagged, !c.requires_grad.empty());
      if (!tagged) continue;
      ++with_grad;
      ASSERT_EQ(c.requires_grad.size(), 2u);
      EXPECT_EQ(std::count(c.requires_grad.begin(), c.requires_grad.end(), true), 1);
      if (other == DType::int64) { EXPECT_TRUE(c.requires_grad[1]); }
    }
    Case ints = binary_case("add");
    ints.dtypes = {DType::int64, DType::int32};
    rc::gen::exec([&] { gen::maybe_out(ints, 1); return 0; })(rc::Random(seed)).value();
    EXPECT_TRUE(ints.requires_grad.empty());
  }
  EXPECT_GT(with_grad, 600 / 5);
  EXPECT_LT(with_grad, 600 / 2);
}

TEST(OutGen, OnlyOutOfPlaceBinaryOpsGetAnOut) {
  for (const char* op : {"add_", "neg", "where", "addmm"}) {
    Case c = binary_case(op);
    rc::gen::exec([&] { gen::maybe_out(c, 1); return 0; })(rc::Random(1)).value();
    EXPECT_FALSE(c.out.has_value()) << op;
  }
}

}  // namespace bc
