// One finding (one signature) of report.html as a folding <details class="finding"> block.
//
// Contract: the block's summary line states the verdict in words (NEW / KNOWN, "discrepancy", ...), the property,
// the family, the whole minimal case (case_header_text), the odd one(s) out and the raw hit count. Unfolded it shows the facts (signature,
// hits, shrink steps, first difference, attribution; for a known divergence each declaration's reason and
// reference), the minimal case, the shape picture (shape_picture.h), every implementation's outcome side by side
// (status, shape, dtype, error kind and message, detail, values) with the odd one(s) out labelled, the first
// differing field marked and only the cells that differ from the row's reference marked (class "diff"), the original case, and the replay command, reproduce command and regression-test draft,
// each with a copy button (html_text.h). The block carries id "finding-N" (N = index + 1) and the data-*
// attributes of finding_filter_tokens() for the page's filter. All data is escaped.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/run_record.h"

namespace bc {

// What the page's filter can select a finding by, key -> tokens (no whitespace in a token): "group" (new or
// known), "op", "property", "odd" (the implementations that are the odd ones out) and "error" (the error kinds,
// and crash or timeout, among its minimal case's outcomes).
std::map<std::string, std::vector<std::string>> finding_filter_tokens(const Finding& f);

// The whole case on one line, as a finding's header shows it: the op, each operand's shape with its dtype and
// layout (where the op computes on tensors, or the case gives them) and "requires grad", then the scalars the op
// reads (defaults filled in; 2 an int, 2.0 a float, as LibTorch tells them apart) and what else the case sets,
// after a semicolon:
// "addmm([3] float64 contiguous, [2, 4] float32 transposed, [4, 3] float32 contiguous; beta=0.5, alpha=1)".
std::string case_header_text(const Case& c);

// `summary` supplies the declarations a known finding cites.
std::string finding_html(const RunSummary& summary, const Finding& f, size_t index);

}  // namespace bc
