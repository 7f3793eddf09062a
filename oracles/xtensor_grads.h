// The xtensor oracle on gradient cases. xtensor has no autograd, so each differentiable op's gradients are written
// out from their analytic formulas (those of LibTorch's derivatives.yaml) as xtensor expressions over the broadcast
// shape, then reduced to each input's shape with xt::sum over the axes sum_to reduces (keep_dims) and a reshape:
// an implementation of the gradient reduction independent of the engine's and LibTorch's.
//
// A single op is computed in double on xt::xarray<double>; the forward result is rounded to the dtype xtensor's own
// expression would have (C++'s conversions, as the value oracle reports it), each gradient to its input's dtype.
// What is an autograd rule rather than arithmetic (in-place ops on an input that requires grad, version counters
// after `modify`, requires_grad on a non-floating operand) is unsupported, and so are overlapping operands and a
// non-contiguous self of an in-place op (LibTorch's memory rules).
#pragma once

#include <cstddef>
#include <vector>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

Outcome run_xtensor_grads(const Case& c);
// A graph case (harness/program.h): each node one evaluated array of its computation dtype (LibTorch's promotion;
// xt::xarray<float> for float32, so float32 nodes call the C library's float functions), its arguments converted to
// that dtype first; with gradients, the nodes' formulas in the same type in reverse order, each argument's share
// reduced to its shape and summed where a value is used twice. Inputs of float32, float64 and bool only.
Outcome run_xtensor_graph(const Case& c);
// The products and fused products (xtensor_product_grads.cpp): the value oracle's forward, then the gradients.
Outcome run_xtensor_product_grads(const Case& c);

// The axes LibTorch's sum_to reduces when it brings a tensor of shape `from` down to `to`: the leading axes `to`
// lacks, and those where `to` has size 1 and `from` does not.
std::vector<std::size_t> sum_to_axes(const Shape& from, const Shape& to);

}  // namespace bc
