// Named facts about a case that a declaration can require ("when"), computed from the case's operand plans by brute
// force and independently of the engine's rules, so that a declaration about one situation cannot explain another.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "harness/case.h"

namespace bc {

// "input_is_self": an input views self's own storage and, broadcast to self's shape, reaches the same element at
// every index (a full overlap, which the in-place rule allows), whatever its strides on dims of size 1.
bool input_is_self(const Case& c);

// "self_shares_memory": two of self's own elements share memory (an expanded self, say), or an input views self's
// storage and reaches at least one of self's elements.
bool self_shares_memory(const Case& c);

// "column_major_matrices": self is a matrix in column-major order (rank 2, both dims > 1, strides [1, rows]: a
// transposed one) and an input is a matrix of self's shape with self's strides, so that walking both storages in
// order pairs the right elements while walking the input in row-major order does not.
bool column_major_matrices(const Case& c);

// "graph_maximum_minimum", "graph_sign", "graph_exp", "graph_exp_log", "graph_abs", "graph_remainder", "graph_atan2",
// "graph_pow": a graph case whose program has a maximum or minimum node, a sign, an exp, an exp or log, an abs, a
// remainder, an atan2, a pow node (facts of one op that a graph meets through its intermediates).
bool graph_uses(const Case& c, std::initializer_list<Op> ops);

// "out_given": the case runs the op's out= form (a case "out"); "out_shape_differs": ... into an out whose shape
// differs from the broadcast of the operands' shapes (which LibTorch resizes).
bool out_shape_differs(const Case& c);

// A reduction's dims (sum, mean, amax, amin, prod): "empty_dims" (dims: []), "dims_of_0d" (a non-empty list on a
// 0-d input), "unsorted_dims" and "repeated_dims" (after wrapping the in-range ones).

// "prod_order_decides_zero": a prod whose input, converted to the dtype it multiplies in (dtype= or its own, when
// floating), is all finite, holds a zero, and holds elements above 1 in magnitude whose product passes that dtype's
// largest finite value: an order that multiplies those first overflows to inf before it meets the zero (inf * 0 is
// NaN), an order that meets the zero first gives 0. Over the whole input, whatever the dims.
bool prod_order_decides_zero(const Case& c);

// "sum_order_rounds": a sum or mean of an integer input with a floating dtype= whose input holds an integer beyond
// that dtype's exact range (2^24 for float32, 2^53 for float64): the conversions and the additions round, and each
// library's order of additions gives its own result.
bool sum_order_rounds(const Case& c);

// "grad_sum_rounds": a gradient case with a floating operand that requires grad and whose gradient sums several
// terms per element (it is broadcast, it is one of outer's vectors, or it is a matrix product's operand and the other
// operand has a free dim of size 2 or more), beside an integer operand holding an integer
// beyond the exact range of the widest floating operand's dtype (the dtype it converts to): for a product the terms
// hold the converted (rounded) integers, their sum can cancel, and each library's order of additions gives its own
// result. Which ops that concerns is the declaration's to say (its "ops").
bool grad_sum_rounds(const Case& c);

// "batches_summed": an addbmm (or addbmm_) of two or more batches whose operands are all finite: the batches'
// products are added one after another, so where each addition rounds (a 16-bit result) the order matters.
bool batches_summed(const Case& c);

// "gradient": the case takes gradients (an operand requires grad), so its outcome includes the backward pass.
// "vector_operand": an operand of rank 1 (which products take as a vector; the declaration's ops say which op).
// "graph_comparison": a graph whose program has a comparison node (eq, ne, lt, le, gt, ge).
// "mixed_branch_dtypes": a where whose two branches (operands 1 and 2) have different dtypes; "bool_first_branch":
// ... and the first branch is bool.
// "graph_where": a graph whose program has a where node.
// "integral_reduction": a reduction (sum, mean, amax, amin, prod) that reduces in an integer or bool dtype: its
// dtype= when given, else its input's.
bool integral_reduction(const Case& c);
// "large_values", "subnormal_values", "infinite_values", "zero_divisor": facts of the values, harness/value_conditions.h.
// "shift_count_outside_width": a shift (bitwise_left_shift, bitwise_right_shift, in place too) of integers with a
// count, as the shift sees it (converted to the operands' result dtype), below 0 or at least that dtype's bits: C's
// undefined range, where each library gives its own answer.
bool shift_count_outside_width(const Case& c);

// The names a declaration's "when" accepts, and whether `c` has that fact (false for an unknown name).
const std::vector<std::string>& case_condition_names();
bool case_has(const std::string& condition, const Case& c);

}  // namespace bc
