// RapidCheck generators of shape cases, built by construction (never by filtering). Each generator states what
// it shrinks towards; all of them shrink towards fewer operands, lower rank, size 1, then small sizes, because
// every choice is drawn from a list ordered smallest-first and RapidCheck shrinks a choice towards the front.
// Sizes stay small (at most 5, rank at most 6) so that one tensor never exceeds 5^6 elements.
#pragma once

#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/case.h"
#include "properties/weighted.h"

namespace bc::gen {

// A size: 1 (most often), 2, 3, 0, 4, 5. Shrinks towards 1, then 2, 3, 0.
Weighted<int64_t> size();

// Any shape of rank in [min_rank, max_rank], weighted towards ranks 1-3. Shrinks by dropping any dim (not below
// min_rank), then by lowering sizes (properties/shape_set.h).
rc::Gen<Shape> shape(int min_rank = 0, int max_rank = 6);

// An operand that broadcasts to `full`: a (possibly empty) suffix of `full`'s dims, each either kept or set to 1.
// Shrinks towards rank 0, then towards setting dims to 1.
rc::Gen<Shape> operand_of(const Shape& full);

// `count` mutually broadcastable shapes over one scaffold; shrinks keep them broadcastable (shape_set.h).
rc::Gen<std::vector<Shape>> broadcastable(int count, int max_rank = 6);

// `count` >= 2 shapes that cannot broadcast: at one right-aligned position two operands carry two different
// sizes, neither of them 1 (one may be 0). Shrinks like broadcastable, keeping exactly that conflict.
rc::Gen<std::vector<Shape>> near_miss(int count, int max_rank = 6);

// A case of `op` on `shapes`, tagged with its generator classes.
Case make_case(Op op, std::vector<Shape> shapes, std::vector<std::string> tags);

// A size different from `other`, never 1: used to make a conflict.
int64_t conflicting_size(int64_t other);

// One matmul operand: (form 1) a vector [inner]; (2) a matrix [outer, inner] on the left, [inner, outer] on the
// right; (3) the same with `batch` dims in front.
Shape matmul_operand(int form, const Shape& batch, int64_t outer, int64_t inner, bool left);

// Adds a case's "dtype <t>" and "layout <l>" tags (layouts as built), sorted and unique.
void tag_dtypes_and_layouts(Case& c);

// Cases per property (tags name the generator branch, for coverage).
rc::Gen<Case> elementwise_case();       // add/sub/mul/div; 3/4 broadcastable, 1/4 near miss
rc::Gen<Case> inplace_case();           // add_/...; self = the full shape, self narrower than other, near miss
rc::Gen<Case> broadcast_shapes_case();  // 0-3 shapes; broadcastable, near miss or a negative size
rc::Gen<Case> expand_case();            // valid targets (new leading dims, -1), near misses, negative sizes
rc::Gen<Case> sum_to_case();            // valid targets, targets that do not expand, targets of higher rank
rc::Gen<Case> matmul_case();            // 1-D/2-D/batched pairs, valid and near miss (inner dim, batch, 0-D)
rc::Gen<Case> algebra_case();           // three arbitrary shapes, often broadcastable, for the algebra laws

// A value-level elementwise case: any of the value ops, out-of-place or in-place, random dtypes and layouts
// (expanded and overlapping ones included), a value seed (special values a quarter of the time), alpha for add and
// sub. Shapes broadcast (in-place: self is the full shape, or narrower), with some near misses. Shrinks towards
// add, float32, contiguous, no special values, then smaller shapes.
rc::Gen<Case> value_case();

// A gradient case: a differentiable op (out-of-place, in place with self not requiring grad, or the diamond
// (a + b) * a), broadcastable shapes of rank <= max_rank, float32/float64 operands (sometimes an int64 one that does
// not require grad), layouts, a random non-empty set of operands requiring grad, upstream ones or seeded. Shrinks
// towards add, out-of-place, float32, contiguous, ones upstream, then smaller shapes. With `value_classes`, a value
// class too (properties/value_class_gen.h); finite differences draw none (a step across a subnormal or near the
// largest value measures nothing).
rc::Gen<Case> grad_case(int max_rank = 4, bool value_classes = true);

// The in-place autograd rules: an in-place op on a leaf that requires grad (or a view of one); or an input written
// in place ("modify") between forward and backward, saved by the op for its gradient or not. Shrinks towards the
// leaf branch, add_, contiguous.
rc::Gen<Case> autograd_inplace_case();

}  // namespace bc::gen
