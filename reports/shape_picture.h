// The picture of a case's shapes in report.html: an HTML table with one row per operand (then one per distinct
// result shape, labelled with the oracles that produced it), dims right-aligned one above the other.
//
// Contract:
//  - a size-1 dim stretched by another operand reads "1 ↑ (1→n)"; a position where two sizes other than 1 meet
//    is the offending dim: its cells read "n ✗" and its column heading is marked too;
//  - in place (an op that writes self) self may not grow: a self dim of 1 that another operand stretches, or a dim
//    self lacks, is the offending dim ("✗ self cannot grow");
//  - expand: a -1 in the target reads "-1 (keep)", only self's size-1 dims stretch, and a target size that
//    differs from self's size (other than 1) is the offending dim;
//  - sum_to: self's dims the target lacks read "n Σ (summed away)", those the target has as 1 "n Σ (→1)"; a target
//    that does not expand to self is marked "✗ impossible reduction", with its offending dims;
//  - matmul: the last two dims (rows, cols) stand apart from the batch dims, under their own heading after a
//    gap column; only the batch dims broadcast; the contracted pair (self's cols, other's rows) is marked "(k)",
//    and "✗" when they differ; a 1-D operand fills only the matrix column it is promoted into;
//  - mm, bmm, mv, dot, outer and the fused ops (addmm, addmv, addr, baddbmm, addbmm and their in-place forms):
//    one column per index of the op's form (b batch, n rows, k contracted, m cols), each dim under its index;
//    the summed dims (k, and addbmm's batch) read "(k)", sizes that differ on an index are "✗" (nothing
//    broadcasts there), an operand of the wrong rank is labelled so, with its missing index "· ✗" and extra
//    leading dims apart; C broadcasts to the product's shape ("1 ↑"), or in place must already have it;
//  - only the offending cells carry the red class "clash"; a column heading over one reads "✗" (class
//    "offending", not red);
//  - every mark is a word or a sign, never colour alone; every text from the case is escaped.
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/judge.h"

namespace bc {

std::string shape_picture_html(const Case& c, const Outcomes& outcomes);

}  // namespace bc
