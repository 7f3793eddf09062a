// The generators' weights, keyed by op: every unary op is drawn for values and gradients, a pointwise binary op's
// in-place twin is drawn by shape as often as its out-of-place op and otherwise only in place on a leaf, and an op
// without a row (the unfused forms, the shape-only ops, graph) is never drawn.
#include "properties/op_weights.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(OpWeights, EveryUnaryOpIsDrawnForValuesAndGradients) {
  for (const OpEntry& e : op_table()) {
    if (!e.unary) continue;
    EXPECT_GT(weights_of(e.op).values, 0) << e.name;
    EXPECT_GT(weights_of(e.op).grads, 0) << e.name;
  }
}

TEST(OpWeights, ABinaryInPlaceTwinIsDrawnThroughItsOutOfPlaceOp) {
  int twins = 0;
  for (const OpEntry& e : op_table()) {
    if (!e.binary || !e.base) continue;
    ++twins;
    const Weights& twin = weights_of(e.op);
    EXPECT_EQ(twin.shapes, weights_of(*e.base).shapes) << e.name;
    EXPECT_GT(twin.shapes, 0) << e.name;
    EXPECT_EQ(twin.values + twin.grads + twin.modify, 0) << e.name;
    EXPECT_GT(twin.leaf_inplace, 0) << e.name;
  }
  EXPECT_GT(twins, 10);
}

TEST(OpWeights, AnOpWithoutARowIsNeverDrawn) {
  for (Op op : {Op::graph, Op::expand, Op::sum_to, Op::broadcast_shapes, Op::unfused_addcmul, Op::addmm_}) {
    const Weights& w = weights_of(op);
    EXPECT_EQ(w.shapes + w.values + w.grads + w.modify + w.leaf_inplace, 0) << to_string(op);
  }
}

}  // namespace
}  // namespace bc
