// A set of operand shapes laid out against one right-aligned scaffold, so that shrinking keeps what the set is:
// a broadcastable set stays broadcastable, and a near miss keeps its conflict (and may have a second one, between
// the same two operands at another position: libraries name one of several conflicts, and which one is part of
// the rule). RapidCheck's exec-style shrinking cannot drop a dim from the middle of a shape; these shrinks can.
//
// Shrink order (each step tried before the next, then again from the smaller set):
//   0. drop the second conflict (its position keeps the operands' roles);
//   1. drop a whole position (a dim of the scaffold and of every operand), outermost first;
//   2. lower one operand's rank (its outermost present dim becomes absent);
//   3. lower a scaffold size towards 1, then 2, 3, 0, 4 (the order sizes are preferred in);
//   4. make one operand's dim 1 where it had the scaffold's size;
//   5. for a near miss, lower the two conflicting sizes (kept different and never 1), then those of the second.
#pragma once

#include <vector>

#include <rapidcheck.h>

#include "engine/shape.h"

namespace bc {

struct ShapeSet {
  Shape full;                              // the scaffold, outermost first
  std::vector<std::vector<char>> roles;    // per operand, per scaffold position: 'a' absent, '1', 'f' scaffold size
  // A near miss: at scaffold position `at`, operand `i` has size `a` and operand `k` size `b` (a != b, neither 1).
  int at = -1;
  int i = 0, k = 0;
  int64_t a = 0, b = 0;
  // A second conflict between the same two operands at position `at2` (-1: none), sizes `a2` and `b2`.
  int at2 = -1;
  int64_t a2 = 0, b2 = 0;
  int min_rank = 0;  // shrinking never drops the scaffold below this rank

  std::vector<Shape> shapes() const;
  bool near_miss() const { return at >= 0; }
  bool conflict_at(int p) const { return near_miss() && (p == at || p == at2); }
};

// How often each size is drawn, in shrink order: a size shrinks towards the ones before it (1, 2, 3, 0, 4, 5).
const std::vector<std::pair<uint64_t, int64_t>>& size_weights();
// The sizes a conflict may use against `other`: never 1 (which would stretch), never `other`.
std::vector<std::pair<uint64_t, int64_t>> conflict_weights(int64_t other);
// How often each rank in [min_rank, max_rank] is drawn, lowest first.
std::vector<std::pair<uint64_t, int64_t>> rank_weights(int min_rank, int max_rank);

// Candidate one-step shrinks of `s`, in the order above.
std::vector<ShapeSet> shrink_candidates(const ShapeSet& s);

namespace gen {
// `count` shapes over a scaffold of rank in [min_rank, max_rank]; `conflict` makes it a near miss (count >= 2).
// With count 0 it is just the scaffold: a shape that shrinks by dropping any dim and lowering sizes.
rc::Gen<ShapeSet> shape_set(int count, int min_rank, int max_rank, bool conflict);
}  // namespace gen

}  // namespace bc
