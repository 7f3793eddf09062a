// The xtensor oracle: real xtensor code on real xt::xarray values (operators, computed assignment, broadcast,
// broadcast_shape, sum, reshape). What xtensor has no equivalent for is reported as unsupported, never emulated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_xtensor_oracle();
// "xtensor 0.24.x": the version built against (the xtensor oracle's and its variants').
std::string xtensor_version();
// Why the xtensor oracle is not compiled for one of the case's dtypes (the operands', out's, dtype='s), or nothing:
// it answers unsupported with it. float16 and bfloat16 have no C++17 type; the narrow integers are compiled for
// value cases without out= (`gradients`: a gradient case or a program, whose oracle is not compiled for them).
std::optional<std::string> uncompiled_dtype(const Case& c, bool gradients);
// The dtypes this build holds operands in: all but float16 and bfloat16, or bool, int64 and float32 in a build with
// BC_XTENSOR_FEW_DTYPES (the debug and sanitized builds, oracles/xtensor_adapter.cpp).
std::vector<DType> compiled_dtypes();
// The same for the xtensor variants (xtensor_variant.h), which are compiled for bool, int64, float32, float64 only.
std::optional<std::string> unsupported_dtype(const Case& c);
}
