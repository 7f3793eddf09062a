#include "engine/fill.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/scalar_overflow.h"

namespace bc {

Scalar fill_value(Op op, Scalar value) {
  const FillRule* rule = fill_rule(op);
  if (!rule) throw std::logic_error(std::string("engine: ") + to_string(op) + " does not fill");
  return rule->reads_value ? value : Scalar{0, true};
}

Result<Tensor> fill_(Op op, Tensor& self, Scalar value) {
  const Scalar v = fill_value(op, value);
  if (auto e = scalar_overflow(v.value, v.integral, self.dtype())) return *e;
  const Value element = v.integral ? Value::of_int(static_cast<int64_t>(v.value)) : Value::of_float(v.value);
  self.assign(std::vector<Value>(static_cast<size_t>(self.numel()), element));
  return self;
}

}  // namespace bc
