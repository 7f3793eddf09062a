// The generated out= tensors: only on out-of-place pointwise binary ops, each form of out drawn and tagged by
// whether its shape is the broadcast result's.
#include "properties/out_gen.h"

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

TEST(OutGen, OnlyOutOfPlaceBinaryOpsGetAnOut) {
  for (const char* op : {"add_", "neg", "where", "addmm"}) {
    Case c = binary_case(op);
    rc::gen::exec([&] { gen::maybe_out(c, 1); return 0; })(rc::Random(1)).value();
    EXPECT_FALSE(c.out.has_value()) << op;
  }
}

}  // namespace bc
