#include "properties/out_gen.h"

#include "engine/broadcast.h"
#include "engine/dtype.h"
#include "properties/shape_gen.h"
#include "properties/weighted.h"

namespace bc::gen {

namespace {

// One time in three, one floating operand of an out= case requires grad: LibTorch refuses out= under autograd for
// an op with a derivative formula, and computes the others (comparisons, floor_divide) without recording a graph.
void maybe_requires_grad(Case& c) {
  std::vector<size_t> floating;
  for (size_t k = 0; k < c.dtypes.size(); ++k)
    if (category(c.dtypes[k]) == Category::floating && !number_of(c, k)) floating.push_back(k);  // a number has no grad
  if (floating.empty() || !*weighted<bool>({{2, false}, {1, true}})) return;
  c.requires_grad.assign(c.shapes.size(), false);
  c.requires_grad[floating[static_cast<size_t>(*rc::gen::inRange<size_t>(0, floating.size()))]] = true;
  c.tags.push_back("out= requires_grad");
}

}  // namespace

void maybe_out(Case& c, uint64_t one_in) {
  const OpEntry* op = &entry(c.op);
  if (!op->binary || op->family != Family::elementwise) return;
  if (!*weighted<bool>({{one_in - 1, false}, {1, true}})) return;
  const Result<Shape> broadcast = broadcast_shapes(c.shapes);
  const Shape result = broadcast.ok() ? broadcast.value() : *shape(0, 3);
  OutSpec out{result, *weighted<DType>({{4, DType::float32}, {2, DType::float64}, {2, DType::int64}, {1, DType::bool_}})};
  const int form = *weighted<int>({{3, 0}, {3, 1}, {1, 2}, {1, 3}});
  if (form == 1) {
    out.shape = *shape(0, 3);
    if (out.shape == result || numel(out.shape) == 0) out.shape = Shape{numel(result) + 1};
  } else if (form == 2) {
    out.shape = {0};
  } else if (form == 3) {
    out.shape = {numel(result), 1};  // the result's size in another shape: resized all the same
  }
  c.out = out;
  c.tags.push_back("out=");
  c.tags.push_back(out.shape == result ? "out right shape" : form == 2 ? "out empty" : form == 3 ? "out reshaped" : "out resized");
  maybe_requires_grad(c);
}

}  // namespace bc::gen
