// The xtensor oracle: real xtensor code on real xt::xarray values (operators, computed assignment, broadcast,
// broadcast_shape, sum, reshape). What xtensor has no equivalent for is reported as unsupported, never emulated.
#pragma once

#include <optional>
#include <string>

#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_xtensor_oracle();
// "xtensor 0.24.x": the version built against (the xtensor oracle's and its variants').
std::string xtensor_version();
// Why xtensor cannot hold one of the case's dtypes (the operands', out's, dtype='s), or nothing: the oracle and its
// variants answer unsupported with it.
std::optional<std::string> unsupported_dtype(const Case& c);
}
