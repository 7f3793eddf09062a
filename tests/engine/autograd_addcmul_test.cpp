// Gradients of addcmul and addcdiv, worked out by hand, each summed back to its input's shape.
#include "engine/autograd_addcmul.h"
#include "engine/autograd_ops.h"

#include <gtest/gtest.h>

#include "autograd_test_util.h"

namespace bc::ag {
using testing::G;
using testing::grads;
using testing::var;

TEST(AutogradAddcmul, GradientsReduceToEachInputsShape) {
  // c [2, 1], a [3], b [] broadcast to [2, 3]; value 2.
  Var c = var({2, 1}, {0, 0}), a = var({3}, {1, 2, 3}), b = var(Shape{}, {4});
  EXPECT_EQ(grads(addc(AddcOp::addcmul, c, a, b, {2, true}), {c, a, b}),
            (G{{3, 3}, {16, 16, 16}, {24}}));  // c: 3 per row; a: 2 rows * b * value; b: value * sum(a) * 2 rows
}

TEST(AutogradAddcmul, AddcdivGradients) {
  Var c = var({2}, {0, 0}), a = var({2}, {3, 4}), b = var({2}, {2, 4});
  // a: value / b; b: -value * a / b^2 (value 1).
  EXPECT_EQ(grads(addc(AddcOp::addcdiv, c, a, b), {c, a, b}), (G{{1, 1}, {0.5, 0.25}, {-0.75, -0.25}}));
}

TEST(AutogradAddcmul, AFloatValueWithAnIntegerTensorScalesInFloat) {
  // b's gradient is grad * (a * value): with an int64 a and value 0.5 it is computed in float (LibTorch's wrapped
  // number), not truncated to a * 0 = 0.
  Var c = var(Shape{}, {0}), a = var(Shape{}, {3}, false, DType::int64), b = var(Shape{}, {1}, true, DType::float32);
  EXPECT_EQ(grads(addc(AddcOp::addcmul, c, a, b, {0.5, false}), {b})[0], (std::vector<double>{1.5}));
}

TEST(AutogradAddcmul, InPlaceRebasesSelf) {
  Var self = var({2}, {1, 1}, false), a = var({2}, {2, 3}), b = var({2}, {5, 7});
  const Result<Var> y = addc_(AddcOp::addcmul, self, a, b);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(self->data.to_doubles(), (std::vector<double>{11, 22}));
  EXPECT_EQ(grads(y, {a, b}), (G{{5, 7}, {2, 3}}));
  Var leaf_self = var({2}, {1, 1});
  EXPECT_EQ(addc_(AddcOp::addcmul, leaf_self, a, b).error().kind, ErrorKind::leaf_inplace);
}

}  // namespace bc::ag

namespace bc::ag {
using testing::var;

// addcdiv's divisor is read by two formulas, so LibTorch saves it whenever the node is recorded (its generated code
// guards only inputs that one formula reads): writing it before backward fails even when only c requires grad.
// addcmul's inputs are each read by one formula: only what a wanted gradient reads is saved. (A seed-1 run found
// the engine guarding addcdiv's divisor too.)
TEST(AutogradAddcmul, WritingASavedInputBeforeBackwardFailsAsInLibTorch) {
  for (const AddcOp op : {AddcOp::addcdiv, AddcOp::addcmul}) {
    Var c = var({2}, {0, 0}), a = var({2}, {3, 4}, false), b = var({2}, {2, 4}, false);
    const Result<Var> y = addc(op, c, a, b);
    ASSERT_TRUE(y.ok());
    ASSERT_TRUE(binary_(Op::add, b, var(Shape{}, {1}, false)).ok());
    const Tensor& out = y.value()->data;
    const Result<bool> r = backward(y.value(), Tensor::from_values(out.sizes(), out.dtype(), {1, 1}));
    if (op == AddcOp::addcdiv) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().kind, ErrorKind::version_counter);
    } else {
      EXPECT_TRUE(r.ok()) << r.error().message;
    }
  }
}

}  // namespace bc::ag
