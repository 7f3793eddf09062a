#include "properties/op_weights.h"

#include <array>
#include <string>
#include <stdexcept>
#include <utility>

namespace bc {

namespace {

struct Row {
  Op op;
  Weights weights;  // {shapes, values, grads, modify, leaf_inplace}
};

// An in-place twin is drawn through its out-of-place op: its own weights are only in place on a leaf.
const Row kRows[] = {
    // The pointwise binary ops.
    {Op::add, {4, 6, 4, 2, 0}},
    {Op::sub, {2, 3, 2, 1, 0}},
    {Op::mul, {2, 3, 3, 2, 0}},
    {Op::div, {2, 3, 2, 1, 0}},
    {Op::pow, {1, 2, 2, 1, 0}},
    {Op::atan2, {1, 2, 2, 1, 0}},
    {Op::fmod, {1, 2, 1, 1, 0}},
    {Op::remainder, {1, 2, 1, 1, 0}},
    {Op::maximum, {1, 2, 2, 1, 0}},
    {Op::minimum, {1, 2, 2, 1, 0}},
    {Op::eq, {1, 1, 0, 0, 0}},
    {Op::ne, {1, 1, 0, 0, 0}},
    {Op::lt, {1, 1, 0, 0, 0}},
    {Op::le, {1, 1, 0, 0, 0}},
    {Op::gt, {1, 1, 0, 0, 0}},
    {Op::ge, {1, 1, 0, 0, 0}},
    {Op::hypot, {1, 2, 2, 1, 0}},
    {Op::floor_divide, {1, 2, 1, 0, 0}},
    // Their in-place forms: the shape-level weight is their out-of-place op's (added below).
    {Op::add_, {0, 0, 0, 0, 3}},
    {Op::sub_, {0, 0, 0, 0, 1}},
    {Op::mul_, {0, 0, 0, 0, 2}},
    {Op::div_, {0, 0, 0, 0, 1}},
    {Op::pow_, {0, 0, 0, 0, 1}},
    {Op::atan2_, {0, 0, 0, 0, 1}},
    {Op::fmod_, {0, 0, 0, 0, 1}},
    {Op::remainder_, {0, 0, 0, 0, 1}},
    {Op::eq_, {0, 0, 0, 0, 1}},
    {Op::ne_, {0, 0, 0, 0, 1}},
    {Op::lt_, {0, 0, 0, 0, 1}},
    {Op::le_, {0, 0, 0, 0, 1}},
    {Op::gt_, {0, 0, 0, 0, 1}},
    {Op::ge_, {0, 0, 0, 0, 1}},
    {Op::hypot_, {0, 0, 0, 0, 1}},
    {Op::floor_divide_, {0, 0, 0, 0, 1}},
    // The pointwise unary ops.
    {Op::neg, {0, 2, 1, 0, 0}},
    {Op::abs, {0, 2, 2, 0, 0}},
    {Op::sqrt, {0, 2, 2, 0, 0}},
    {Op::exp, {0, 2, 2, 0, 0}},
    {Op::log, {0, 2, 2, 0, 0}},
    {Op::sign, {0, 2, 1, 0, 0}},
    {Op::reciprocal, {0, 2, 2, 0, 0}},
    // The three-operand pointwise ops.
    {Op::lerp, {0, 2, 2, 1, 0}},
    {Op::lerp_, {0, 0, 0, 0, 1}},
    {Op::where, {0, 2, 2, 0, 0}},
    {Op::addcmul, {0, 2, 2, 1, 0}},
    {Op::addcdiv, {0, 2, 2, 1, 0}},
    {Op::addcmul_, {0, 0, 0, 0, 1}},
    {Op::addcdiv_, {0, 0, 0, 0, 1}},
    // The products (products_agree) and fused products (fused_agree).
    {Op::matmul, {0, 4}},
    {Op::mm, {0, 2}},
    {Op::bmm, {0, 2}},
    {Op::mv, {0, 1}},
    {Op::dot, {0, 1}},
    {Op::outer, {0, 1}},
    {Op::addmm, {0, 3}},
    {Op::addmv, {0, 2}},
    {Op::addr, {0, 2}},
    {Op::baddbmm, {0, 2}},
    {Op::addbmm, {0, 2}},
    // Autograd's own cases.
    {Op::diamond, {0, 0, 2, 1, 0}},
    {Op::dist, {0, 2, 2, 1, 0}},
    // The reductions over dims (reduction_case()).
    {Op::sum, {0, 3, 2, 0, 0}},
    {Op::mean, {0, 2, 2, 0, 0}},
    {Op::amax, {0, 2, 2, 0, 0}},
    {Op::amin, {0, 2, 2, 0, 0}},
    {Op::prod, {0, 2, 2, 0, 0}},
    // fill_ and zero_ (fill_case(), and in place on a leaf).
    {Op::fill_, {0, 2, 0, 0, 1}},
    {Op::zero_, {0, 1, 0, 0, 1}},
    // The bitwise, logical and logaddexp ops (issue 34). Only logaddexp has a gradient (and has no in-place form).
    {Op::bitwise_and, {1, 2, 0, 0, 0}},
    {Op::bitwise_or, {1, 1, 0, 0, 0}},
    {Op::bitwise_xor, {1, 1, 0, 0, 0}},
    {Op::bitwise_left_shift, {1, 2, 0, 0, 0}},
    {Op::bitwise_right_shift, {1, 2, 0, 0, 0}},
    {Op::logical_and, {1, 2, 0, 0, 0}},
    {Op::logical_or, {1, 1, 0, 0, 0}},
    {Op::logical_xor, {1, 1, 0, 0, 0}},
    {Op::logaddexp, {1, 2, 2, 1, 0}},
    {Op::bitwise_and_, {0, 0, 0, 0, 1}},
    {Op::bitwise_or_, {0, 0, 0, 0, 1}},
    {Op::bitwise_xor_, {0, 0, 0, 0, 1}},
    {Op::bitwise_left_shift_, {0, 0, 0, 0, 1}},
    {Op::bitwise_right_shift_, {0, 0, 0, 0, 1}},
    {Op::logical_and_, {0, 0, 0, 0, 1}},
    {Op::logical_or_, {0, 0, 0, 0, 1}},
    {Op::logical_xor_, {0, 0, 0, 0, 1}},
};

std::array<Weights, kOpCount> make_weights() {
  std::array<Weights, kOpCount> out{};
  std::array<bool, kOpCount> seen{};
  for (const Row& row : kRows) {
    const auto k = static_cast<size_t>(row.op);
    if (seen[k]) throw std::logic_error(std::string("properties/op_weights.cpp: two rows for ") + to_string(row.op));
    seen[k] = true;
    out[k] = row.weights;
  }
  for (const OpEntry& e : op_table())  // a pointwise binary op's in-place twin is drawn through it by shape
    if (e.binary && e.base) out[static_cast<size_t>(e.op)].shapes = out[static_cast<size_t>(*e.base)].shapes;
  return out;
}

}  // namespace

const Weights& weights_of(Op op) {
  static const std::array<Weights, kOpCount> weights = make_weights();
  return weights[static_cast<size_t>(op)];
}

}  // namespace bc
