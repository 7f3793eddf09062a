// The op table: every op a case may name, once (docs/ARCHITECTURE.md). An entry holds the op's facts (name, arity,
// family, in-place twin, scalars read) and, for the pointwise binary ops, the engine's forward and backward side by
// side; how often generators draw it is theirs (properties/op_weights.h). Each implementation binds the ops in one
// binding table (oracles/binding_table.h): an op one of them forgets is refused where the table is made, never run
// as another op.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/products.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

// Every op, in the table's order (op_table.cpp checks that each entry sits at its enum's position).
enum class Op : uint8_t {
  // Pointwise binary ops (engine rule: BinaryRule), then their in-place forms where PyTorch has one.
  add, sub, mul, div, pow, atan2, fmod, remainder, maximum, minimum, eq, ne, lt, le, gt, ge, hypot,
  add_, sub_, mul_, div_, pow_, atan2_, fmod_, remainder_, eq_, ne_, lt_, le_, gt_, ge_, hypot_,
  // Pointwise unary ops (engine rule: UnaryRule).
  neg, abs, sqrt, exp, log, sign, reciprocal,
  // Three-operand pointwise ops.
  lerp, lerp_, where, addcmul, addcdiv, addcmul_, addcdiv_,
  // addcmul/addcdiv written as add(c, mul(a, b), alpha=value) (properties/equivalence.h).
  unfused_addcmul, unfused_addcdiv, unfused_addcmul_, unfused_addcdiv_,
  // Shape rules alone.
  broadcast_shapes, expand, sum_to,
  // Products, and the fused products beta * c + alpha * product(a, b) (out of place and in place).
  matmul, mm, bmm, mv, dot, outer,
  addmm, addmv, addr, baddbmm, addbmm, addmm_, addmv_, addr_, baddbmm_, addbmm_,
  // Composites: (a + b) * a (a reaches the result by two paths); the 2-norm of a - b (a broadcasting reduction).
  diamond, dist,
  // A program of pointwise ops over the inputs (the case's "program", harness/program.h).
  graph,
  // Floor division (a pointwise binary op with a BinaryRule, added after the table's first version).
  floor_divide, floor_divide_,
  // Reductions over a list of dims, with keepdim and (sum, mean, prod) dtype= (engine rule: ReductionRule).
  sum, mean, amax, amin, prod,
  // Self written with one value, in place (engine rule: FillRule): fill_ (the case's "value") and zero_.
  fill_, zero_,
  // Bitwise, logical and logaddexp (pointwise binary ops with a BinaryRule, added for issue 34), then the in-place
  // forms LibTorch 1.13 has (logaddexp has none).
  bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift, bitwise_right_shift, logical_and, logical_or,
  logical_xor, logaddexp,
  bitwise_and_, bitwise_or_, bitwise_xor_, bitwise_left_shift_, bitwise_right_shift_, logical_and_, logical_or_,
  logical_xor_,
};
constexpr int kOpCount = static_cast<int>(Op::logical_xor_) + 1;

// What kind of rule an op follows; the strings are part of findings' signatures (reports/README.md).
enum class Family {
  elementwise,       // pointwise, out of place: all operands broadcast together (one operand: a unary op)
  inplace,           // pointwise, in place: self keeps its shape
  broadcast_shapes,  // the broadcast of any number of shapes
  expand,            // a shape expanded to a target (-1 keeps a size)
  sum_to,            // a gradient summed back to an input's shape
  matmul,            // the products: matmul broadcasts batch dims, mm/bmm/mv/dot/outer do not
  fused,             // the fused products, where only c broadcasts
  unfused,           // addcmul/addcdiv's unfused form
  autograd,          // a small graph of ops (diamond, graph)
  reduction,         // broadcast, then reduced to a 0-d result (dist)
  reduce_dims,       // one operand reduced over a list of dims (sum, mean, amax, amin, prod; keepdim, dtype=)
  fill,              // self written with one scalar in place (fill_, zero_): no broadcasting, no overlap check
};
constexpr Family kFamilies[] = {Family::elementwise, Family::inplace, Family::broadcast_shapes, Family::expand,
                                Family::sum_to,      Family::matmul,  Family::fused,            Family::unfused,
                                Family::autograd,    Family::reduction, Family::reduce_dims, Family::fill};
const char* to_string(Family f);
// Whether a family's ops compute on tensors (values, and gradients where they have them) rather than on shapes
// alone (broadcast_shapes, expand, sum_to).
bool computes_values(Family f);

// Which of a binary op's inputs a gradient formula reads, as derivatives.yaml writes it.
struct Reads {
  bool self = false, other = false, result = false;
};

// What a binary op's backward receives: the upstream gradient in the broadcast shape, the saved inputs and
// result (empty tensors where not saved), alpha, and which gradients are wanted.
struct BinaryGradInputs {
  const Tensor& grad;
  const Tensor& self;
  const Tensor& other;
  const Tensor& result;
  Scalar alpha;
  bool need_self, need_other;
};
struct BinaryGrads {
  std::optional<Tensor> self, other;
};

// The compute dtypes LibTorch 1.13's CPU kernel of a binary op has no implementation for (its message names the
// rule's `kernel`): none; bool ("pow", "fmod_cpu"); bool and the integers (hypot, logaddexp); the floating dtypes
// (the bitwise ops); the floating dtypes and bool (the shifts).
enum class Refuses { none, bool_, bool_integer, floating, bool_floating };

// A pointwise binary op as the engine computes it: one scalar function per compute type (nullopt: an integer
// division by zero), its dtype facts, and its backward (nullptr: not differentiable).
struct BinaryRule {
  std::optional<float> (*f32)(float x, float y, float alpha);
  std::optional<double> (*f64)(double x, double y, double alpha);
  std::optional<int64_t> (*i64)(int64_t x, int64_t y, int64_t alpha);
  bool float_only;       // integer inputs compute in the default float dtype (true division, atan2)
  bool comparison;       // the result is bool (the comparisons, the logical ops)
  const char* kernel;    // LibTorch's kernel name where it refuses some compute dtypes ("pow", "fmod_cpu"), else null
  Refuses refuses;       // which ones
  // The autograd node LibTorch records (AddBackward0, ...); nullptr: none at all, even in place on a tensor that
  // requires grad, where self's history stays as it was (probed on 1.13.1): the logical ops' in-place forms check
  // no leaf either; the bitwise ops' and shifts' refuse a leaf that requires grad (and compute on no such tensor).
  const char* node;
  Reads reads_for_self, reads_for_other;
  // nullptr: a comparison (its result does not require grad), or an op derivatives.yaml has no formula for
  // (floor_divide): LibTorch records a NotImplemented node that refuses at backward.
  BinaryGrads (*backward)(const BinaryGradInputs& in);
  // The integer dtypes narrower than int64 where their kernel differs from i64's (nullptr: i64 for every integer):
  // the shifts, whose C++ operands promote to int, so that x86 takes the count modulo 32 (int64: modulo 64).
  std::optional<int64_t> (*i32)(int64_t x, int64_t y, int64_t alpha) = nullptr;
};

// What a unary op's backward receives: the upstream gradient, the saved input and result (empty where not saved).
struct UnaryGradInputs {
  const Tensor& grad;
  const Tensor& self;
  const Tensor& result;
};

// What a unary op does with a bool input: computes on it (as 0 and 1, the result stored back as bool), computes in
// the default float dtype as integers do (to_float), or refuses it: LibTorch has no bool kernel (its name in the
// message), or neg's own message.
enum class OnBool { computes, to_float, no_kernel, negation_error };

// A pointwise unary op as the engine computes it: one scalar function per compute type, its dtype facts, and its
// backward, derivatives.yaml's formula (nullptr: not differentiable).
struct UnaryRule {
  float (*f32)(float x);
  double (*f64)(double x);
  int64_t (*i64)(int64_t x);  // nullptr: integer inputs compute in the default float dtype (float_only)
  OnBool on_bool;
  const char* kernel;  // LibTorch's kernel name where it refuses bool ("abs_cpu"), else null
  const char* node;    // the autograd node LibTorch records (NegBackward0, ...)
  Reads reads;         // self and/or result
  Tensor (*backward)(const UnaryGradInputs& in);
};

// How a generator picks operand dtypes: each its own; one shared dtype (lerp); a bool condition first (where).
enum class DTypeRule { independent, one_dtype, bool_condition };

struct ReductionRule;  // engine/reduction.h

// An op that writes one scalar into every element of self (engine/fill.h computes it): the value it writes (the
// case's "value", or zero), the node LibTorch records, and the backward, derivatives.yaml's formula for self (the
// gradient does not reach the old self: zeros of grad's shape).
struct FillRule {
  bool reads_value;  // fill_: the case's "value"; zero_: 0
  const char* node;  // FillBackward2 (fill_.Scalar), ZeroBackward0 (as LibTorch 1.13 names them)
  Tensor (*backward)(const Tensor& grad);
};

struct OpEntry {
  Op op;
  const char* name;
  int arity;                     // operands; -1: any number (none included)
  Family family;
  std::optional<Op> inplace;     // an out-of-place op's in-place twin
  std::optional<Op> base;        // an in-place op's out-of-place form
  const BinaryRule* binary;      // the engine's rule for the pointwise binary ops (in-place forms share it)
  std::vector<const char*> scalars;  // the case scalars it reads: "alpha", "beta", "value"
  const char* summary;           // one line for `broadcheck list ops`
  DTypeRule dtype_rule = DTypeRule::independent;
  const UnaryRule* unary = nullptr;  // the engine's rule for the pointwise unary ops
  const ReductionRule* reduction = nullptr;  // the engine's rule for the reductions over dims
  const FillRule* fill = nullptr;            // the engine's rule for fill_ and zero_
};

const std::vector<OpEntry>& op_table();
const OpEntry& entry(Op op);
const char* to_string(Op op);
std::optional<Op> op_from_name(const std::string& name);
// An op that writes its first operand (add_, lerp_, addmm_, ..., fill_, zero_).
bool is_inplace(Op op);
// The op without its in-place form: add_ -> add, addmm_ -> addmm; unchanged otherwise.
Op out_of_place(Op op);
// The engine's product a product op or its in-place form computes (addmm_ -> addmm); nullopt for other ops.
std::optional<ProductOp> product_op(Op op);
// Whether the op reads the case scalar `name` ("alpha", "beta", "value"): its entry's `scalars`.
bool takes_scalar(Op op, const std::string& name);
// addcmul/addcdiv's unfused form (addcmul -> unfused_addcmul, addcmul_ -> unfused_addcmul_); nullopt for other ops.
std::optional<Op> unfused_form(Op op);
// The rule of a pointwise binary op or its in-place form; nullptr otherwise.
const BinaryRule* binary_rule(Op op);
// The rule of a pointwise unary op; nullptr otherwise.
const UnaryRule* unary_rule(Op op);
bool is_comparison(Op op);
// The kernel LibTorch 1.13's CPU build names when it refuses float16 for a pointwise op or its in-place form
// ("atan2_cpu", "sqrt_vml_cpu", "addcmul_cpu_out", ...; probed on libtorch-dev 1.13.1); nullptr where it computes.
// The products refuse float16 wherever they refuse bool (engine/products.cpp), with the same kernel names.
const char* half_kernel(Op op);
// The rule of a reduction over dims (sum, mean, amax, amin, prod); nullptr otherwise.
const ReductionRule* reduction_rule(Op op);
// The rule of fill_ and zero_; nullptr otherwise.
const FillRule* fill_rule(Op op);

// Named groups of ops, derived from the table, for lists that mean "every op of a kind" (a declaration's "ops"):
// "@inplace" (every op that writes its first operand), "@pointwise_inplace" (the pointwise in-place ops).
// nullopt for an unknown group name.
std::optional<bool> in_op_group(const std::string& group, Op op);
std::string op_group_names();

}  // namespace bc
