// Memory overlap of strided views, decided exactly on sizes, strides and offsets (no heuristic), for the in-place
// rules: self may not have two elements in one location (internal_overlap), and self and an input may share
// locations only when they are the same view (else partial_overlap). docs/notes/overlap-rule.md says where
// this is stricter than LibTorch 1.13, whose checks give up ("too hard") on views that are not dense.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/shape.h"

namespace bc {

// A view of one storage, in elements: element (i0, i1, ...) lives at offset + sum(ik * strides[k]).
// Strides are non-negative (views here never flip a dim).
struct View {
  int64_t offset = 0;
  Shape sizes;
  Shape strides;
};

// The storage offsets of a view's elements in row-major index order (one per element, repeats kept).
std::vector<int64_t> element_offsets(const View& v);

// True when two different elements of the view are one storage location.
bool has_internal_overlap(const View& v);

enum class Overlap { none, full, partial };

// How two views of the same storage overlap: none, full (the same elements at the same indices: equal offset and
// sizes, equal strides wherever a size exceeds 1), or partial (anything else that shares a location).
Overlap overlap(const View& a, const View& b);

}  // namespace bc
