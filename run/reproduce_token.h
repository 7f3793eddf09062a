// The reproduce token of a generated case, "bc1/SEED/PROPERTY/INDEX/PATH[/CASEPATH]": the case is regenerated with
// the same RapidCheck Random key and size, then the generator's shrink path is followed (dot-separated shrink
// indices, "-" for none), then CASEPATH, if given, through the shrinks of any case (properties/case_shrinks.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck/Random.h>

#include "harness/case.h"

namespace bc {

// The RapidCheck random source of case `index` of `property` under `seed`: a 256-bit key of those three, so each
// case is generated independently of the others (shards need no shared state; a case needs no history).
rc::Random case_random(uint64_t seed, const std::string& property, long index);

std::string reproduce_token(uint64_t seed, const std::string& property, long index, const std::vector<std::size_t>& path,
                            const std::vector<std::size_t>& case_path = {});
// The case a token names. Parse errors, an unknown property and a shrink path that does not exist throw CaseError.
Case case_from_reproduce_token(const std::string& token);

}  // namespace bc
