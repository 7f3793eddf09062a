// How often each generator draws each op (0: never): the generators' tuning, kept beside them and out of the
// engine's op table, which holds only the ops' facts. A table keyed by Op; an op without a row is never drawn.
#pragma once

#include "engine/op_table.h"

namespace bc {

struct Weights {
  int shapes = 0;        // shape-level cases (elementwise_agree, inplace_agree)
  int values = 0;        // value cases (values_agree; products_agree and fused_agree for the products)
  int grads = 0;         // gradient cases (grads_agree, grads_finite_difference)
  int modify = 0;        // an input written in place before backward (autograd_inplace_agree)
  int leaf_inplace = 0;  // in place on a leaf that requires grad (autograd_inplace_agree; in-place ops only)
};

const Weights& weights_of(Op op);

}  // namespace bc
