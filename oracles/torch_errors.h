// Classifies a LibTorch error message into broadcheck's error kinds. Pure text, so it builds and is tested
// without LibTorch. The patterns are LibTorch 1.13's own message prefixes (see tests/oracles/torch_errors_test.cpp).
#pragma once

#include <string>

#include "engine/error.h"
#include "engine/op_table.h"

namespace bc {

// `family` is the op family of the case (harness/case.h): a failure with no known pattern inside sum_to is the
// sum_to precondition failing in whatever LibTorch called last (a view), so it is classified as sum_to.
ErrorKind classify_torch_message(Family family, const std::string& message);

}  // namespace bc
