// The LibTorch oracle: real ATen ops on real CPU tensors, single-threaded. The only part of broadcheck that
// includes LibTorch headers (they cost 15-20 s per translation unit); everything else sees this factory.
#pragma once

#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_torch_oracle();
}
