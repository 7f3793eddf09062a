#include "properties/registry.h"

#include "engine/broadcast.h"
#include "harness/coverage.h"
#include "harness/implementations.h"
#include "properties/graph_gen.h"
#include "properties/number_gen.h"
#include "properties/op_choice.h"
#include "properties/product_gen.h"
#include "properties/reduction_gen.h"
#include "properties/shape_gen.h"

namespace bc {

namespace {

// A property's required classes, and "op <name>" for each pointwise unary op it weighs (harness/coverage.h).
std::vector<std::string> with_unary_ops(std::vector<std::string> classes, int Weights::*weight) {
  for (const OpEntry& e : op_table())
    if (e.unary && weights_of(e.op).*weight > 0) classes.push_back(std::string("op ") + e.name);
  return classes;
}

// ... and "cell <op> <dtype>" for each out-of-place pointwise op (and fill_, zero_) it weighs and each dtype: the table lets every
// operand of these ops take any dtype (where's condition aside, bool), refusals being outcomes too.
std::vector<std::string> with_dtype_cells(std::vector<std::string> classes, int Weights::*weight) {
  for (const OpEntry& e : op_table())
    if (!e.base && weights_of(e.op).*weight > 0 &&
        gen::in_family(e, {Family::elementwise, Family::reduction, Family::autograd, Family::fill}))
      for (DType t : all_dtypes()) classes.push_back(std::string("cell ") + e.name + " " + to_string(t));
  return classes;
}

// ... and "values <family> <dtype> <class>" for each of `families` and `dtypes` and each value class that applies
// to the dtype (harness/coverage.h), plain included.
std::vector<std::string> with_value_classes(std::vector<std::string> classes, std::vector<Family> families,
                                            std::vector<DType> dtypes) {
  for (Family f : families)
    for (DType t : dtypes)
      for (ValueClass cls : all_value_classes())
        if (value_class_applies(cls, t)) classes.push_back(value_class_cell(to_string(f), t, cls));
  return classes;
}

const std::vector<DType> kFloating = {DType::float32, DType::float64, DType::float16, DType::bfloat16};
const std::vector<DType> kProducts = {DType::float32, DType::float64, DType::float16, DType::bfloat16, DType::int64};

}  // namespace

const std::vector<Property>& properties() {
  static const std::vector<Property> all = {
      {"elementwise_agree", "out-of-place binary ops (add, sub, mul, div): same outcome everywhere",
       gen::elementwise_case(), Check::oracles,
       {"broadcastable", "near miss", "two conflicts", "rank-0 operand", "size-0 dim", "singleton vs non-singleton",
        "max rank 6", "engine ok", "engine error:broadcast"}},
      {"inplace_agree", "in-place binary ops (add_, ...): self may not change shape",
       gen::inplace_case(), Check::oracles,
       {"self is the broadcast shape", "self narrower than other", "near miss", "two conflicts", "rank-0 operand",
        "size-0 dim", "engine ok", "engine error:inplace_shape", "engine error:broadcast"}},
      {"broadcast_shapes_agree", "broadcast of 0-3 shapes at once", gen::broadcast_shapes_case(), Check::oracles,
       {"0 operands", "1 operand", "2 operands", "3 operands", "near miss", "negative size", "two conflicts",
        "rank-0 operand", "size-0 dim", "engine ok", "engine error:broadcast", "engine error:invalid_argument"}},
      {"expand_agree", "expand to a target shape (-1 keeps a size)", gen::expand_case(), Check::oracles,
       {"valid target", "near miss", "target rank below source", "-1 in a new leading dim", "negative size",
        "rank-0 operand", "size-0 dim", "engine ok", "engine error:expand", "engine error:invalid_argument"}},
      {"sum_to_agree", "sum a broadcast gradient back to an input's shape", gen::sum_to_case(), Check::oracles,
       {"valid target", "target does not expand to source", "target rank above source", "rank-0 operand",
        "size-0 dim", "engine ok", "engine error:sum_to"}},
      {"matmul_agree", "matmul: 1-D promotion, matrix dims, batch broadcasting", gen::matmul_case(), Check::oracles,
       {"valid", "inner dims differ", "batch dims conflict", "0-D operand", "size-0 dim", "engine ok",
        "engine error:matmul_shape", "engine error:broadcast"}},
      {"products_agree", "matmul, mm, bmm, mv, dot, outer on values: batch broadcasting, dtypes, layouts, gradients",
       gen::product_case(), Check::oracles,
       with_value_classes({"valid", "near miss", "inner dims differ", "batch dims conflict",
        "rank outside the op's domain", "1-D operand", "batched", "size-0 dim", "mixed dtypes", "dtype int64",
        "dtype float64", "dtype float16", "dtype bfloat16", "layout transposed", "layout strided", "layout expanded",
        "gradient", "engine ok", "engine error:matmul_shape", "engine error:broadcast"}, {Family::matmul}, kProducts)},
      {"fused_agree", "addmm, addmv, addr, baddbmm, addbmm (and in place): only c broadcasts; beta and alpha",
       gen::fused_case(), Check::oracles,
       with_value_classes({"out-of-place", "in-place", "c is the product's shape", "c broadcasts", "c conflicts", "inner dims differ",
        "beta 0", "beta fractional", "alpha fractional", "special values", "dtype int64", "gradient", "engine ok",
        "engine error:expand", "engine error:matmul_shape", "engine error:inplace_shape", "alpha 0",
        "zero scalar with special values"}, {Family::fused}, kFloating)},
      {"addc_equivalence", "addcmul/addcdiv equal add(c, mul(a, b), alpha=value) on each implementation (seed 003)",
       gen::addc_case(), Check::equivalence,
       with_value_classes(with_value_classes({"out-of-place", "in-place", "value integral", "value fractional", "dtype int64", "mixed dtypes",
        "singleton vs non-singleton", "rank-0 operand", "size-0 dim", "gradient", "engine ok", "value 0",
        "zero scalar with special values"}, {Family::elementwise, Family::inplace}, {DType::float32, DType::float64}),
        {Family::elementwise}, {DType::float16, DType::bfloat16})},
      {"values_agree", "elementwise ops on values: dtypes, layouts, in-place rules, special values",
       gen::value_case(), Check::oracles,
       with_value_classes(with_dtype_cells(with_unary_ops({"in-place", "out-of-place", "near miss", "dtype bool", "dtype int64", "dtype float32", "dtype float64",
        "dtype int8", "dtype uint8", "dtype int16", "dtype int32", "dtype float16", "dtype bfloat16",
        "layout transposed", "layout strided", "layout expanded", "layout overlapping", "special values",
        "engine ok", "engine error:internal_overlap", "engine error:partial_overlap", "engine error:dtype_cast",
        "engine error:inplace_shape", "engine error:broadcast", "engine error:invalid_argument", "non-bool condition",
        "op remainder", "op eq", "op ne", "op fmod", "op where",
        "zero scalar", "zero scalar with special values", "op floor_divide", "out=", "out= requires_grad", "out right shape",
        "out resized", "out empty", "out reshaped", "op fill_", "op zero_", "fill value 0", "fill value -0.0",
        "fill value NaN", "fill value inf", "fill value out of range", "fill self shares memory"}, &Weights::values),
        &Weights::values), {Family::elementwise, Family::inplace}, all_dtypes()), true},
      {"grads_agree", "gradients reduced to each input's shape: ops, in-place, diamonds, dtypes, layouts, upstream",
       gen::grad_case(), Check::oracles,
       with_value_classes(with_unary_ops({"in-place", "out-of-place", "diamond", "dtype float32", "dtype float64",
        "dtype float16", "dtype bfloat16", "integer operand", "layout transposed", "layout strided",
        "layout expanded", "rank-0 operand", "size-0 dim", "singleton vs non-singleton", "upstream ones",
        "upstream seeded", "engine ok", "zero scalar", "op floor_divide", "engine error:invalid_argument"},
        &Weights::grads), {Family::elementwise, Family::inplace}, kFloating)},
      {"autograd_inplace_agree", "in place on a leaf (or a view of one); inputs modified before backward",
       gen::autograd_inplace_case(), Check::oracles,
       {"leaf self", "view of a leaf self", "modify an input", "modify a leaf that requires grad", "engine ok",
        "engine error:leaf_inplace", "engine error:version_counter"}},
      {"grads_finite_difference", "the engine's gradients against central finite differences (float64)",
       gen::grad_case(3, false), Check::finite_differences,
       {"in-place", "out-of-place", "diamond", "singleton vs non-singleton", "engine ok"}},
      {"broadcast_algebra", "commutative, associative, any grouping of three (seed 003), rank 0 the identity, idempotent (engine)",
       gen::algebra_case(), Check::algebra, {"arbitrary", "broadcastable", "rank-0 operand", "size-0 dim"}},
      {"graphs_agree", "programs of 2-4 pointwise ops (chains, diamonds, where, maximum): values and gradients",
       gen::graph_case(), Check::oracles,
       with_value_classes({"graph chain", "graph diamond", "graph where", "graph maximum/minimum",
        "non-finite intermediate", "bool condition input", "gradient", "forward only", "special values",
        "singleton vs non-singleton", "dtype float64", "dtype float16", "dtype bfloat16", "engine ok"}, {Family::autograd},
        {DType::float32, DType::float64, DType::float16, DType::bfloat16})},
      {"numbers_agree", "a Python number as an operand (x + 2.5, x.mul_(3), where(c, x, 0.0), out=): PyTorch's "
       "wrapped-number promotion against each library's own", gen::number_case(), Check::oracles,
       {"number int", "number float", "number bool", "number non-finite", "number -0.0", "number beyond the dtype",
        "number above the category", "number with a 0-d tensor", "numbers only", "where", "in-place", "out-of-place", "out=", "gradient",
        "special values", "engine ok", "engine error:dtype_cast"}},
      {"reductions_agree", "sum, mean, amax, amin, prod over a list of dims (none, empty, negative, repeated, out of "
       "range), keepdim, dtype=: values and gradients", gen::reduction_case(), Check::oracles,
       with_value_classes({"op sum", "op mean", "op amax", "op amin", "op prod", "no dims", "empty dims",
        "negative dim", "repeated dim", "out-of-range dim", "unsorted dims", "keepdim", "dtype=", "rank-0 operand",
        "size-0 dim", "special values", "gradient", "engine ok", "engine error:invalid_argument"},
        {Family::reduce_dims}, all_dtypes())},
  };
  return all;
}

const Property* find_property(const std::string& name) {
  for (const Property& p : properties())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> required_classes(const Property& p) {
  std::vector<std::string> out = p.required;
  if (p.runs_variants)
    for (const Implementation& i : implementations()) {
      if (i.role == Role::variant) out.push_back(i.name + " ok");
      for (DType t : i.answers) out.push_back(i.name + " answers " + to_string(t));
    }
  return out;
}

std::string property_names() {
  std::string out;
  for (const Property& p : properties()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

namespace {

std::string show(const Result<Shape>& r) { return r.ok() ? format_shape(r.value()) : "error"; }

bool same(const Result<Shape>& x, const Result<Shape>& y) {
  return x.ok() == y.ok() && (!x.ok() || x.value() == y.value());
}

// broadcast(x, y) where x may already be an error.
Result<Shape> then(const Result<Shape>& x, const Shape& y) { return x.ok() ? broadcast_shapes(x.value(), y) : x; }
Result<Shape> then(const Shape& x, const Result<Shape>& y) { return y.ok() ? broadcast_shapes(x, y.value()) : y; }

}  // namespace

std::string broadcast_algebra_violation(const Case& c) {
  if (c.shapes.size() != 3) return "the algebra case needs three shapes";
  const Shape &a = c.shapes[0], &b = c.shapes[1], &cc = c.shapes[2];
  const std::string A = format_shape(a), B = format_shape(b), C = format_shape(cc);
  const Result<Shape> ab = broadcast_shapes(a, b), ba = broadcast_shapes(b, a);
  if (!same(ab, ba))
    return "commutative: broadcast(" + A + ", " + B + ") = " + show(ab) + " but broadcast(" + B + ", " + A +
           ") = " + show(ba);
  const Result<Shape> left = then(ab, cc), right = then(a, broadcast_shapes(b, cc));
  if (!same(left, right))
    return "associative: broadcast(broadcast(" + A + ", " + B + "), " + C + ") = " + show(left) + " but broadcast(" +
           A + ", broadcast(" + B + ", " + C + ")) = " + show(right);
  const Result<Shape> all = broadcast_shapes(c.shapes);
  if (!same(all, left)) return "n-ary: broadcast(" + A + ", " + B + ", " + C + ") = " + show(all) +
                               " but the pairwise fold gives " + show(left);
  // Seed 003's proof sketch for addcmul(c, a, b): every grouping of the three gives the n-ary broadcast.
  const Result<Shape> groupings[] = {then(cc, broadcast_shapes(a, b)), then(broadcast_shapes(cc, a), b),
                                     then(broadcast_shapes(cc, b), a)};
  for (const Result<Shape>& g : groupings)
    if (!same(g, all))
      return "grouping: broadcast(" + C + ", broadcast(" + A + ", " + B + ")) = " + show(groupings[0]) +
             ", broadcast(broadcast(" + C + ", " + A + "), " + B + ") = " + show(groupings[1]) + ", broadcast(broadcast(" +
             C + ", " + B + "), " + A + ") = " + show(groupings[2]) + " but all three together give " + show(all);
  for (const Shape& x : c.shapes) {
    const Result<Shape> xl = broadcast_shapes(Shape{}, x), xr = broadcast_shapes(x, Shape{});
    if (!same(xl, x) || !same(xr, x))
      return "identity: broadcast([], " + format_shape(x) + ") = " + show(xl) + ", broadcast(" + format_shape(x) +
             ", []) = " + show(xr);
    const Result<Shape> xx = broadcast_shapes(x, x);
    if (!same(xx, x)) return "idempotent: broadcast(" + format_shape(x) + ", " + format_shape(x) + ") = " + show(xx);
  }
  if (ab.ok() && !same(broadcast_shapes(ab.value(), b), ab))
    return "idempotent: broadcast(broadcast(" + A + ", " + B + "), " + B + ") differs from broadcast(" + A + ", " +
           B + ")";
  return "";
}

}  // namespace bc
