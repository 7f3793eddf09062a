// The xtensor oracle on the products and the fused products (docs/notes/xtensor-products.md). xtensor has no
// matmul of its own (xtensor-blas's dot follows numpy.dot, not matmul, and needs BLAS, which has no int64), so a
// product is written with xtensor's broadcasting: a [..., n, k, 1] * b [..., 1, k, m] summed over k, so that
// xtensor's own broadcasting decides the batch dims. What xtensor cannot decide, the adapter checks itself and says
// so in its message: the contracted sizes (a k of 1 would broadcast silently) and the ranks and batches the strict
// ops take. The fused ops are `beta * c + alpha * product` with c stretched by xt::broadcast to the product's shape;
// in place, that expression is assigned to c's view. All operands share one dtype (one instantiation per dtype).
#include <algorithm>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xstrides.hpp>

#include "engine/products.h"
#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

// A shape or rank the adapter refuses before xtensor computes anything.
struct AdapterError {
  std::string message;
};
[[noreturn]] void refuse(const std::string& why) { throw AdapterError{"xtensor oracle: " + why}; }

std::string dims_text(const XShape& s) {
  std::string out = "[";
  for (size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
  return out + "]";
}

// The product's element type: C++'s for T * T (bool * bool is int).
template <class T>
using Product = xt::xarray<decltype(T() * T())>;

// a [..., n, k] @ b [..., k, m] for operands of rank 2 or more, batch dims broadcast by xtensor.
template <class T>
Product<T> batched(const xt::xarray<T>& a, const xt::xarray<T>& b) {
  const std::size_t ra = a.dimension(), rb = b.dimension();
  if (a.shape()[ra - 1] != b.shape()[rb - 2])
    refuse("inner sizes differ: " + dims_text(a.shape()) + " @ " + dims_text(b.shape()));
  const std::size_t rank = std::max(ra, rb) + 1;  // of the broadcast product before the sum
  return xt::sum(xt::expand_dims(a, ra) * xt::expand_dims(b, rb - 2), {rank - 2});
}

// matmul's NumPy rule: a 1-D a is a row, a 1-D b a column, and the dim added for it is removed again.
template <class T>
Product<T> matmul(const xt::xarray<T>& a, const xt::xarray<T>& b) {
  if (a.dimension() == 0 || b.dimension() == 0) refuse("matmul needs operands of at least one dim");
  const bool row = a.dimension() == 1, column = b.dimension() == 1;
  Product<T> r = batched<T>(row ? xt::xarray<T>(xt::expand_dims(a, 0)) : a, column ? xt::xarray<T>(xt::expand_dims(b, 1)) : b);
  XShape shape(r.shape().begin(), r.shape().end());
  if (column) shape.erase(shape.end() - 1);             // the added column's m = 1
  if (row) shape.erase(shape.end() - (column ? 1 : 2));  // the added row's n = 1
  r.reshape(shape);
  return r;
}

template <class T>
void need_ranks(ProductOp op, const xt::xarray<T>& a, const xt::xarray<T>& b, std::size_t ra, std::size_t rb) {
  if (a.dimension() != ra || b.dimension() != rb)
    refuse(std::string(to_string(op)) + " takes ranks " + std::to_string(ra) + " and " + std::to_string(rb) +
           ", not " + std::to_string(a.dimension()) + " and " + std::to_string(b.dimension()));
}

// Each product: matmul's NumPy rule; the strict products with their ranks (and bmm's equal batches, dot's equal
// sizes) checked, then the same expression as matmul; the product inside each fused op: mm, mv, outer (addr), bmm
// (baddbmm), bmm summed over the batch (addbmm).
template <class T>
Product<T> product(ProductOp op, const xt::xarray<T>& a, const xt::xarray<T>& b) {
  switch (op) {
    case ProductOp::matmul: return matmul(a, b);
    case ProductOp::mm: need_ranks(op, a, b, 2, 2); return matmul(a, b);
    case ProductOp::mv: need_ranks(op, a, b, 2, 1); return matmul(a, b);
    case ProductOp::dot:
      need_ranks(op, a, b, 1, 1);
      if (a.shape()[0] != b.shape()[0]) refuse("dot of " + dims_text(a.shape()) + " and " + dims_text(b.shape()));
      return matmul(a, b);
    case ProductOp::outer: need_ranks(op, a, b, 1, 1); return xt::expand_dims(a, 1) * xt::expand_dims(b, 0);
    case ProductOp::bmm:
      need_ranks(op, a, b, 3, 3);
      if (a.shape()[0] != b.shape()[0])
        refuse("bmm does not broadcast its batch: " + dims_text(a.shape()) + " @ " + dims_text(b.shape()));
      return matmul(a, b);
    case ProductOp::addr: return product(ProductOp::outer, a, b);
    case ProductOp::addmm: return product(ProductOp::mm, a, b);
    case ProductOp::addmv: return product(ProductOp::mv, a, b);
    case ProductOp::baddbmm: return product(ProductOp::bmm, a, b);
    case ProductOp::addbmm: return xt::sum(product(ProductOp::bmm, a, b), {0});
  }
  refuse(std::string("no product for ") + to_string(op));
}

template <class T>
Outcome run_typed(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans) {
  auto operand = [&](size_t k) { return xt::xarray<T>(std::get<Input<T>>(ops.inputs[k])); };
  const ProductOp op = *product_op(c.op);  // products() runs the products only (xtensor_values.cpp's Path)
  if (!is_fused(op)) return evaluate(product(op, operand(0), operand(1)));
  const bool in_place = is_inplace(c.op);
  const Product<T> p = product(op, operand(1), operand(2));
  const XShape shape(p.shape().begin(), p.shape().end());
  return with_scalar(c, "beta", [&](auto beta) {
    return with_scalar(c, "alpha", [&](auto alpha) -> Outcome {
      if (!in_place) return evaluate(beta * xt::broadcast(std::get<Input<T>>(ops.inputs[0]), shape) + alpha * p);
      // A contiguous c is the base adaptor (container semantics: it would have to resize if the shape changed); any
      // other c is a view, written through to the base.
      return write_into_self<T>(plans, ops, shape, [&](auto& self) {
        self = beta * self + alpha * p;
        return result(self);
      });
    });
  });
}

}  // namespace

Outcome products(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans) {
  for (const OperandPlan& p : plans)
    if (p.dtype != plans[0].dtype)
      return Outcome::unsupported_because("the xtensor product oracle is instantiated per dtype, for operands that "
                                          "share one (these mix " + std::string(to_string(plans[0].dtype)) + " and " +
                                          to_string(p.dtype) + ")");
  try {
    return with_value_type(plans[0].dtype, [&](auto v) { return run_typed<decltype(v)>(c, ops, plans); });
  } catch (const AdapterError& e) {
    return Outcome::failure(ErrorKind::matmul_shape, e.message);
  } catch (const xt::broadcast_error& e) {
    // The strict products broadcast nothing, so out of place a fused op fails here when c does not stretch to the
    // product (LibTorch's expand); matmul, on its batch dims; in place, the assignment into c's view.
    const bool stretching_c = entry(c.op).family == Family::fused && !is_inplace(c.op);
    return Outcome::failure(stretching_c ? ErrorKind::expand : ErrorKind::broadcast, e.what());
  }
}

}  // namespace bc::xtv
