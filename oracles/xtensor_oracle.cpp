#include "oracles/xtensor_oracle.h"

#include "oracles/xtensor_grads.h"
#include "oracles/xtensor_values.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xstrides.hpp>
#include <xtensor/xtensor_config.hpp>

namespace bc {
namespace {

using XShape = std::vector<std::size_t>;
using Array = xt::xarray<float>;

XShape to_xshape(const Shape& s) { return XShape(s.begin(), s.end()); }
template <class S>
Outcome shape_outcome(const S& s) { return Outcome::success(Shape(s.begin(), s.end()), "float32"); }

Array make(const Shape& s) { return Array(to_xshape(s), 0.0f); }

// The C++ operators xtensor overloads for the pointwise ops.
enum class Operator { plus, minus, times, divides };
// The operator of an op or its in-place form (add and add_: plus, ...), if any.
std::optional<Operator> symbol(Op op) {
  const Op base = out_of_place(op);
  if (base == Op::add) return Operator::plus;
  if (base == Op::sub) return Operator::minus;
  if (base == Op::mul) return Operator::times;
  if (base == Op::div) return Operator::divides;
  return std::nullopt;  // no operator: the caller reports the op unsupported
}

// The sum_to composition the autograd issue asks of xtensor: xt::sum over the axes that LibTorch's sum_to would
// reduce (leading axes and size-1 target axes), keep_dims, then reshape to the target.
Outcome sum_to(const Shape& from, const Shape& to) {
  const std::vector<std::size_t> axes = sum_to_axes(from, to);
  Array summed = axes.empty() ? make(from) : Array(xt::sum(make(from), axes, xt::keep_dims));
  summed.reshape(to_xshape(to));
  return shape_outcome(summed.shape());
}


class XtensorOracle : public Oracle {
 public:
  XtensorOracle() {
    if (!xtensor_binding_problems().empty()) throw std::logic_error(xtensor_binding_problems().front());
  }
  std::string name() const override { return "xtensor"; }
  std::string version() const override { return xtensor_version(); }

  Outcome run(const Case& c) override {
    const OpEntry* op = &entry(c.op);
    if (has_numbers(c)) {
      if (auto reason = uncompiled_dtype(c, is_gradient_case(c))) return Outcome::unsupported_because(*reason);
      return run_xtensor_numbers(c);
    }
    for (const Shape& s : c.shapes)
      for (int64_t d : s)
        if (d < 0) return Outcome::unsupported_because("xtensor shapes are unsigned; no -1 (keep size) notation");
    // The in-place autograd rules (a leaf written in place, a saved input modified before backward) belong to an
    // autograd; xtensor has none, so it has no opinion on them.
    const bool leaf_written = (op->family == Family::inplace || op->family == Family::fill) &&
                              !c.requires_grad.empty() && c.requires_grad[0];
    if (c.modify || leaf_written)
      return Outcome::unsupported_because("xtensor has no autograd: the in-place autograd rules are not its to judge");
    if (auto reason = uncompiled_dtype(c, is_gradient_case(c) || op->op == Op::graph))
      return Outcome::unsupported_because(*reason);
    if (is_gradient_case(c) && c.out)
      return Outcome::unsupported_because("xtensor has no autograd and no out= argument: an out= gradient case is not its");
    if (op->op == Op::graph) return run_xtensor_graph(c);
    if (is_gradient_case(c)) return run_xtensor_grads(c);
    // The products, fused ops and addcmul/addcdiv are computed (on zeros when the case has no values).
    const bool computed = op->family == Family::matmul || op->family == Family::fused || op->family == Family::unfused ||
                          op->family == Family::reduction || op->family == Family::reduce_dims ||
                          op->family == Family::fill || out_of_place(c.op) == Op::addcmul ||
                          out_of_place(c.op) == Op::addcdiv;
    if (c.values || !c.dtypes.empty() || !c.layouts.empty() || computed) {
      if (op->family == Family::elementwise || op->family == Family::inplace || op->family == Family::reduction ||
          computed)
        return run_xtensor_values(c);
      return Outcome::unsupported_because("xtensor value-level cases cover the elementwise ops only");
    }
    if (op->family == Family::elementwise && !symbol(c.op))
      return Outcome::unsupported_because(std::string("no xtensor operator for ") + op->name + " in shape-level cases");
    const ErrorKind kind = shape_rule_kind(op->family);
    try {
      return call(*op, c);
    } catch (const xt::broadcast_error& e) {
      return Outcome::failure(kind, e.what());
    } catch (const std::exception& e) {
      // xtensor signals a too-short broadcast target and a bad reshape with std::runtime_error; within one op
      // family there is only the one rule that can fail.
      return Outcome::failure(op->family == Family::elementwise || op->family == Family::inplace ? ErrorKind::other : kind,
                              e.what());
    }
  }

 private:
  // The error kind of the one shape rule a family's shape-level case can break (the families computed on values
  // never get here: their errors are run_xtensor_values's).
  static ErrorKind shape_rule_kind(Family family) {
    switch (family) {
      case Family::elementwise: case Family::inplace: case Family::broadcast_shapes: return ErrorKind::broadcast;
      case Family::expand: return ErrorKind::expand;
      case Family::sum_to: return ErrorKind::sum_to;
      case Family::matmul: case Family::fused: case Family::unfused: return ErrorKind::matmul_shape;
      case Family::reduction: case Family::reduce_dims: case Family::fill: case Family::autograd: return ErrorKind::other;
    }
    return ErrorKind::other;
  }

  Outcome call(const OpEntry& op, const Case& c) {
    const auto& s = c.shapes;
    switch (op.family) {
      case Family::elementwise: {
        Array a = make(s[0]), b = make(s[1]);
        Array r;
        switch (*symbol(c.op)) {
          case Operator::plus: r = a + b; break;
          case Operator::minus: r = a - b; break;
          case Operator::times: r = a * b; break;
          case Operator::divides: r = a / b; break;
        }
        return shape_outcome(r.shape());
      }
      case Family::inplace: {
        if (!symbol(c.op))
          return Outcome::unsupported_because(std::string("xtensor has no computed assignment for ") + op.name);
        Array a = make(s[0]), b = make(s[1]);
        switch (*symbol(c.op)) {
          case Operator::plus: a += b; break;
          case Operator::minus: a -= b; break;
          case Operator::times: a *= b; break;
          case Operator::divides: a /= b; break;
        }
        return shape_outcome(a.shape());
      }
      case Family::broadcast_shapes: {
        std::size_t rank = 0;
        for (const Shape& shape : s) rank = std::max(rank, shape.size());
        XShape out(rank, std::numeric_limits<std::size_t>::max());
        for (const Shape& shape : s) xt::broadcast_shape(to_xshape(shape), out);
        return shape_outcome(out);
      }
      case Family::expand: {
        Array r = xt::broadcast(make(s[0]), to_xshape(s[1]));
        return shape_outcome(r.shape());
      }
      case Family::sum_to: return sum_to(s[0], s[1]);
      case Family::matmul: case Family::fused: case Family::unfused: case Family::reduction:
      case Family::reduce_dims: case Family::fill:
        break;  // computed on values (run_xtensor_values)
      case Family::autograd:
        return Outcome::unsupported_because(std::string("xtensor has no autograd: ") + op.name + " is a gradient program");
    }
    return Outcome::unsupported_because("xtensor has no matmul of its own (xtensor-blas is a separate library)");
  }
};

}  // namespace

namespace {

// The operands', out's and dtype='s dtypes.
std::vector<DType> dtypes_of(const Case& c) {
  std::vector<DType> dtypes = c.dtypes;
  if (c.out) dtypes.push_back(c.out->dtype);
  if (c.dtype_arg) dtypes.push_back(*c.dtype_arg);
  return dtypes;
}

}  // namespace

// float16 and bfloat16 have no C++17 type. The narrow integers (int8, uint8, int16, int32) are compiled into the
// value oracle's pointwise ops, reductions, products, fill_ and where (xtensor_operands.h), but not into its
// gradients and programs, its out= assignment, or the variants' paths: each would multiply the compiled pairs.
std::optional<std::string> uncompiled_dtype(const Case& c, bool gradients) {
  for (DType t : dtypes_of(c)) {
#ifdef BC_XTENSOR_FEW_DTYPES
    const std::vector<DType> few = compiled_dtypes();
    if (std::find(few.begin(), few.end(), t) == few.end())
      return std::string("this build of the xtensor oracle is compiled for bool, int64 and float32 only, not ") +
             to_string(t);
#endif
    switch (t) {
      case DType::bool_:
      case DType::int64:
      case DType::float32:
      case DType::float64: break;
      case DType::float16:
      case DType::bfloat16: return std::string("C++17 has no ") + to_string(t) + " type for xtensor to hold";
      case DType::int8:
      case DType::uint8:
      case DType::int16:
      case DType::int32:
        if (gradients) return std::string("the xtensor gradient oracle is not compiled for ") + to_string(t);
        if (c.out) return std::string("the xtensor oracle's out= assignment is not compiled for ") + to_string(t);
        break;
    }
  }
  return std::nullopt;
}

std::vector<DType> compiled_dtypes() {
#ifdef BC_XTENSOR_FEW_DTYPES
  return {DType::bool_, DType::int64, DType::float32};
#else
  std::vector<DType> all;
  for (DType t : all_dtypes())
    if (t != DType::float16 && t != DType::bfloat16) all.push_back(t);
  return all;
#endif
}

std::optional<std::string> unsupported_dtype(const Case& c) {
  if (auto reason = uncompiled_dtype(c, false)) return reason;
  for (DType t : dtypes_of(c))
    if (integer_bits(t) > 0 && integer_bits(t) < 64)
      return std::string("the xtensor variants are compiled for bool, int64, float32 and float64, not ") + to_string(t);
  return std::nullopt;
}

std::unique_ptr<Oracle> make_xtensor_oracle() { return std::make_unique<XtensorOracle>(); }

std::string xtensor_version() {
  return "xtensor " + std::to_string(XTENSOR_VERSION_MAJOR) + "." + std::to_string(XTENSOR_VERSION_MINOR) + "." +
         std::to_string(XTENSOR_VERSION_PATCH);
}

}  // namespace bc
