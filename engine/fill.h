// fill_ and zero_ as LibTorch 1.13 computes them (aten/src/ATen/native/Fill.cpp): the scalar is converted to self's
// dtype as c10's Scalar::to<T> does, checked (engine/scalar_overflow.h: bool takes anything, NaN and 2 as true),
// and written to every element through self's view; elements that share memory (an expanded or overlapping self)
// are written alike, without an internal-overlap check (fill_out: set_check_mem_overlap(false)).
#pragma once

#include "engine/error.h"
#include "engine/op_table.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

// The value `op` (fill_ or zero_) writes: the given scalar for fill_, the integer 0 for zero_.
Scalar fill_value(Op op, Scalar value);

// self.fill_(value) / self.zero_(): the conversion's error, or self written (its version bumped).
Result<Tensor> fill_(Op op, Tensor& self, Scalar value);

}  // namespace bc
