// The reductions over a list of dims (sum, mean, amax, amin, prod) as LibTorch 1.13 computes them, each forward
// next to its backward (derivatives.yaml's formula), with LibTorch's checks in its order and its texts.
// Probed facts are in docs/notes/reductions.md: dim=[] reduces every dim, dims are wrapped then checked for repeats.
#pragma once

#include <optional>
#include <vector>

#include "engine/autograd.h"
#include "engine/op_table.h"

namespace bc {

enum class ReduceKind { sum, mean, amax, amin, prod };

struct ReductionRule {
  ReduceKind kind;
  bool takes_dtype;      // a dtype= argument (sum, mean, prod)
  bool one_dim;          // LibTorch 1.13's prod takes one dim (an int), never a list
  const char* node_all;  // the autograd node without a dim argument (SumBackward0) ...
  const char* node_dims; // ... and with one (SumBackward1)
};

// The rule of one of the five reduction ops (the op table's entries point here); throws for any other op.
const ReductionRule& reduction_rule_of(Op op);

// A reduction's arguments: the dims (nullopt: no dim argument, every dim; LibTorch 1.13 reduces every dim for an
// empty list too), keepdim, and dtype= (the input is cast to it first, then reduced).
struct ReduceArgs {
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  std::optional<DType> dtype;
};

// The result's dtype: dtype= when given; else int64 for sum and prod of bool or integer inputs; else the input's.
DType reduction_dtype(const ReductionRule& r, DType input, const std::optional<DType>& dtype_arg);

}  // namespace bc

namespace bc::ag {

// op(t, dims, keepdim, dtype=) for a reduction op: errors (mean's dtype, then a dim out of range or repeated, then
// amax/amin over a size-0 dim) as LibTorch's; the node and saved tensors as derivatives.yaml's.
Result<Var> reduce(Op op, const Var& t, const ReduceArgs& args);

}  // namespace bc::ag
