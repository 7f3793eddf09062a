// One check's wordings across ops: the masks (sizes, dtype names, the op's name), the catalog's grouping by
// implementation and error kind, the documents left out, merging, and JSON.
#include "harness/message_catalog.h"

#include "registered.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

Outcomes failing(const char* name, ErrorKind kind, const std::string& message) {
  return {{name, Outcome::failure(kind, message)}};
}

TEST(MessagePattern, MasksSizesDtypesAndTheOp) {
  EXPECT_EQ(message_pattern("The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0", Op::add),
            "The size of tensor a (N) must match the size of tensor b (N) at non-singleton dimension N");
  EXPECT_EQ(message_pattern("output with shape [1, 3] doesn't match the broadcast shape [2, 3]", Op::add_),
            "output with shape [...] doesn't match the broadcast shape [...]");
  EXPECT_EQ(message_pattern("result type Float can't be cast to the desired output type Long", Op::mul_),
            "result type T can't be cast to the desired output type T");
  EXPECT_EQ(message_pattern("operands could not be broadcast together with shapes (2,) (3,4) ", Op::add),
            "operands could not be broadcast together with shapes (...) (...) ");
  EXPECT_EQ(message_pattern("remapped shapes [original->remapped]: (2,3)->(2,3,newaxis,newaxis)", Op::matmul),
            "remapped shapes [original->remapped]: (...)->(...)");
  EXPECT_EQ(message_pattern("\"abs_cpu\" not implemented for 'Bool'", Op::abs), "\"abs_cpu\" not implemented for 'T'");
  EXPECT_EQ(message_pattern("norm(): input dtype should be floating point", Op::dist), "norm(): input dtype should be floating point");
  EXPECT_EQ(message_pattern("lerp: weight is not broadcastable", Op::lerp_), "OP: weight is not broadcastable");
  // Words that merely contain the op's name or a dtype's stay.
  EXPECT_EQ(message_pattern("Floats are added by addition", Op::add), "Floats are added by addition");
}

TEST(MessageCatalog, OneCheckWordedTwoWaysIsAnInconsistency) {
  Registered fourth{"fourth"};
  MessageCatalog c;
  c.add(Op::add, failing("fourth", ErrorKind::broadcast, "cannot broadcast [2] with [3]"));
  c.add(Op::mul, failing("fourth", ErrorKind::broadcast, "cannot broadcast [4] with [5]"));
  c.add(Op::lerp, failing("fourth", ErrorKind::broadcast, "shapes [2] and [3] are incompatible"));
  c.add(Op::add, failing("fourth", ErrorKind::inplace_shape, "self is [1]"));
  const std::vector<MessageInconsistency> all = c.inconsistencies();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].implementation, "fourth");
  EXPECT_EQ(all[0].kind, "broadcast");
  ASSERT_EQ(all[0].variants.size(), 2u);
  EXPECT_EQ(all[0].variants[0].pattern, "cannot broadcast [...] with [...]");
  EXPECT_EQ(all[0].variants[0].ops, (std::vector<std::string>{"add", "mul"}));
  EXPECT_EQ(all[0].variants[0].cases, 2);
  EXPECT_EQ(all[0].variants[1].ops, std::vector<std::string>{"lerp"});
  EXPECT_EQ(all[0].variants[1].example, "shapes [2] and [3] are incompatible");
}

// The catalog remembers each text's pattern: the same text from another op is masked for that op, and a run that
// meets more texts than it remembers still files every one under its own pattern.
TEST(MessageCatalog, ARememberedPatternBelongsToItsOpAndText) {
  Registered fourth{"fourth"};
  MessageCatalog c;
  c.add(Op::lerp, failing("fourth", ErrorKind::broadcast, "lerp: weight is not broadcastable"));
  c.add(Op::add, failing("fourth", ErrorKind::broadcast, "lerp: weight is not broadcastable"));
  c.add(Op::lerp, failing("fourth", ErrorKind::broadcast, "lerp: weight is not broadcastable"));
  std::vector<MessageInconsistency> all = c.inconsistencies();
  ASSERT_EQ(all.size(), 1u);
  ASSERT_EQ(all[0].variants.size(), 2u);
  EXPECT_EQ(all[0].variants[0].pattern, "OP: weight is not broadcastable");
  EXPECT_EQ(all[0].variants[0].cases, 2);
  EXPECT_EQ(all[0].variants[1].pattern, "lerp: weight is not broadcastable");
  EXPECT_EQ(all[0].variants[1].ops, std::vector<std::string>{"add"});

  MessageCatalog many;
  for (int round = 0; round < 2; ++round)
    for (int k = 0; k < 40000; ++k)  // more texts than the catalog remembers, twice
      many.add(Op::add, failing("fourth", ErrorKind::broadcast,
                              "size " + std::to_string(k) + " is not " + (k % 2 ? "odd" : "even")));
  all = many.inconsistencies();
  ASSERT_EQ(all.size(), 1u);
  ASSERT_EQ(all[0].variants.size(), 2u);
  EXPECT_EQ(all[0].variants[0].pattern, "size N is not even");
  EXPECT_EQ(all[0].variants[0].cases, 40000);
  EXPECT_EQ(all[0].variants[1].pattern, "size N is not odd");
  EXPECT_EQ(all[0].variants[1].cases, 40000);
}

TEST(MessageCatalog, TheDocumentsTextsAreOurOwnAndLeftOut) {
  Registered documents{"docs-under-test", Role::document};
  MessageCatalog c;
  c.add(Op::add, failing("docs-under-test", ErrorKind::broadcast, "one"));
  c.add(Op::mul, failing("docs-under-test", ErrorKind::broadcast, "two"));
  EXPECT_TRUE(c.inconsistencies().empty());
}

TEST(MessageCatalog, MergesAndRoundTripsThroughJson) {
  Registered fourth{"fourth"};
  MessageCatalog a, b;
  a.add(Op::add, failing("fourth", ErrorKind::broadcast, "cannot broadcast [2] with [3]"));
  b.add(Op::lerp, failing("fourth", ErrorKind::broadcast, "shapes [2] and [3] are incompatible"));
  b.add(Op::mul, failing("fourth", ErrorKind::broadcast, "cannot broadcast [2] with [3]"));
  a.merge(b);
  const MessageCatalog back = MessageCatalog::from_json(a.to_json());
  EXPECT_EQ(back.to_json(), a.to_json());
  ASSERT_EQ(back.inconsistencies().size(), 1u);
  EXPECT_EQ(back.inconsistencies()[0].variants[0].ops, (std::vector<std::string>{"add", "mul"}));
}

}  // namespace
}  // namespace bc
