// The LibTorch oracle: real ATen ops on real CPU tensors, single-threaded. The only part of broadcheck that
// includes LibTorch headers (they cost 15-20 s per translation unit); everything else sees this factory.
#pragma once

#include "oracles/binding_table.h"
#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_torch_oracle();
// The problems of LibTorch's binding table (oracles/binding_table.h): none when every op has its cell.
const BindingProblems& torch_binding_problems();
}
