// Classifies a LibTorch error message into broadcheck's error kinds. Pure text, so it builds and is tested
// without LibTorch. The patterns are LibTorch 1.13's own message prefixes, taken from the engine's error templates
// (engine/error_texts.h) that copy them, plus the few LibTorch messages the engine never produces.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/error.h"
#include "engine/op_table.h"

namespace bc {

// `family` is the op family of the case (harness/case.h): a failure with no known pattern inside sum_to is the
// sum_to precondition failing in whatever LibTorch called last (a view), so it is classified as sum_to.
ErrorKind classify_torch_message(Family family, const std::string& message);

// The (prefix, kind) pairs classify_torch_message tries in order; the first prefix the message starts with wins.
const std::vector<std::pair<std::string, ErrorKind>>& torch_message_patterns();

}  // namespace bc
