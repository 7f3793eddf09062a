// The documents voter's pointwise ops (oracles/document_oracle.h): an op's formula ([D7], [D8]) as its row in the
// voter's binding table gives it (one element's value and its textbook partial derivatives [D10], in float and in
// double), run over the broadcast shape ([D1], [D2], [D3]), with gradients summed back to each operand's shape ([D5]).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "harness/case.h"
#include "harness/outcome.h"
#include "oracles/document_operands.h"

namespace bc::documents {

struct Scalars {
  double alpha = 1, value = 1;
};

// One element of the result in the tensors' dtype T (x, y, z: the operands in the case's order), and its partial
// derivatives with respect to each operand (nullopt where the derivative does not exist or no document states which
// one-sided value to take).
template <class T>
using ValueAt = T (*)(T x, T y, T z, const Scalars& s);
template <class T>
using Partials = std::array<std::optional<T>, 3>;
template <class T>
using PartialsAt = Partials<T> (*)(T x, T y, T z, const Scalars& s);
// A silence the documents keep on these operands before any value is computed, or nullopt.
using Undocumented = std::optional<std::string> (*)(const Operands& o, const Shape& shape);

// A pointwise formula: in place, unfused and fused alike (seed 003's equivalence).
struct Formula {
  ValueAt<float> value32;
  ValueAt<double> value64;
  PartialsAt<float> partials32;
  PartialsAt<double> partials64;
  Undocumented undocumented = nullptr;
  bool reduces = false;  // dist: the 2-norm of the elements (the difference a - b)
  ValueAt<float> value(float) const { return value32; }
  ValueAt<double> value(double) const { return value64; }
  PartialsAt<float> partials(float) const { return partials32; }
  PartialsAt<double> partials(double) const { return partials64; }
};
// A formula from two generic lambdas without captures (auto x, auto y, auto z, const Scalars&), in both types.
template <class V, class P>
Formula formula(V value, P partials, Undocumented undocumented = nullptr, bool reduces = false) {
  return {value, value, partials, partials, undocumented, reduces};
}

// The pointwise program of op under its formula.
Outcome pointwise(const Case& c, Op op, const Formula& f);

}  // namespace bc::documents
