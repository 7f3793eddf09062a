// Other paths through xtensor than the plain xt::xarray one, each an implementation of role variant compared with
// "xtensor" alone: a value-level add, sub, mul, div (out of place and in place) or where, run through one container
// or assignment form; every other case, and every case the path cannot express, is unsupported with the reason.
#pragma once

#include <memory>
#include <optional>

#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_xtensor_noalias_oracle();  // xt::noalias(r) = a op b; xt::noalias(self) op= other
std::unique_ptr<Oracle> make_xtensor_rank_oracle();     // fixed-rank xt::xtensor<T, N> containers, N <= 4
std::unique_ptr<Oracle> make_xtensor_fixed_oracle();    // xt::xtensor_fixed for the shapes compiled in
std::unique_ptr<Oracle> make_xtensor_lazy_oracle();     // the unevaluated expression: dimension(), size(), shape() first

// Each variant's refusal (oracles/xtensor_variant.h: variant_refusal), the first thing its oracle does: what it
// answers without running a case, decided from the case alone, so that a run can decide it in its own process.
std::optional<Outcome> xtensor_noalias_refusal(const Case& c);
std::optional<Outcome> xtensor_rank_refusal(const Case& c);
std::optional<Outcome> xtensor_fixed_refusal(const Case& c);
std::optional<Outcome> xtensor_lazy_refusal(const Case& c);
}  // namespace bc
