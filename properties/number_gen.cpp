#include "properties/number_gen.h"

#include <cmath>
#include <limits>

#include "harness/number_conditions.h"
#include "properties/exec.h"
#include "properties/out_gen.h"
#include "properties/shape_gen.h"
#include "properties/weighted.h"

namespace bc::gen {
namespace {

// The pointwise binary ops PyTorch takes a number for (LibTorch 1.13's Scalar overloads; Python refuses a number
// for the other binary ops), the simplest first.
const std::vector<Op>& number_ops() {
  static const std::vector<Op> ops = {Op::add, Op::mul, Op::sub, Op::div, Op::eq, Op::lt, Op::ne, Op::le, Op::gt,
                                      Op::ge, Op::pow, Op::fmod, Op::remainder, Op::floor_divide};
  return ops;
}

}  // namespace

rc::Gen<Number> number() {
  return bc::gen::exec([] {
    const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const int kind = *weighted<int>({{4, 0}, {4, 1}, {1, 2}});
    if (kind == 0)
      return Number::of_int(*weighted<int64_t>({{6, 1}, {3, 0}, {4, 2}, {3, -1}, {3, 3}, {2, -7}, {2, 127}, {2, 128},
                                                {2, 255}, {2, 256}, {3, 300}, {2, -129}, {2, 32768}, {1, 65536},
                                                {2, 2147483648LL}, {1, -2147483649LL}, {2, 9007199254740993LL},
                                                {1, hi}, {1, lo}}));
    if (kind == 1)
      return Number::of_float(*weighted<double>({{6, 1.0}, {4, 0.5}, {4, 2.5}, {3, -1.5}, {2, 0.0}, {3, -0.0},
                                                 {3, 0.1}, {2, 1e-8}, {2, 1e-40}, {2, 1e10}, {2, 65504.0},
                                                 {2, 65520.0}, {1, 3.4e38}, {2, 1e39}, {1, 1e300},
                                                 {1, 9007199254740992.0}, {3, nan}, {2, inf}, {2, -inf}}));
    return Number::of_bool(*weighted<bool>({{1, true}, {1, false}}));
  });
}

std::vector<std::string> number_tags(const Case& c) {
  std::vector<std::string> tags;
  bool tensor_zero_dim = false, tensors = false;
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (!number_of(c, k) && !(c.op == Op::where && k == 0)) {
      tensors = true;
      tensor_zero_dim = tensor_zero_dim || c.shapes[k].empty();
    }
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    const Number* n = number_of(c, k);
    if (!n) continue;
    tags.push_back(n->kind == Number::Kind::integer ? "number int" : n->kind == Number::Kind::floating ? "number float"
                                                                                                      : "number bool");
    if (n->kind == Number::Kind::floating && !std::isfinite(n->f)) tags.push_back("number non-finite");
    if (n->kind == Number::Kind::floating && n->f == 0 && std::signbit(n->f)) tags.push_back("number -0.0");
  }
  if (number_beyond_dtype(c)) tags.push_back("number beyond the dtype");
  if (number_above_category(c)) tags.push_back("number above the category");
  if (tensor_zero_dim) tags.push_back("number with a 0-d tensor");
  if (!tensors) tags.push_back("numbers only");
  return tags;
}

rc::Gen<Case> number_case() {
  return bc::gen::exec([] {
    const auto any_dtype = weighted<DType>({{1, DType::float32}, {1, DType::int64}, {1, DType::float64},
                                            {1, DType::bool_}, {1, DType::int8}, {1, DType::uint8}, {1, DType::int16},
                                            {1, DType::int32}, {1, DType::float16}, {1, DType::bfloat16}});
    Case c;
    if (*weighted<bool>({{6, false}, {1, true}})) {  // where(c, x, y) with a number as x, y or both
      const int form = *weighted<int>({{2, 1}, {1, 2}, {1, 3}});  // which are numbers: y (1), x (2), both (3)
      const std::vector<Shape> shapes = *broadcastable(2, 3);
      c = make_case(Op::where, {shapes[0], shapes[1], shapes[1]}, {"where"});
      c.numbers.resize(3);
      c.dtypes = {DType::bool_, *any_dtype, *any_dtype};
      if (form & 1) c.numbers[2] = *number();
      if (form & 2) c.numbers[1] = *number();
      if (form == 3) c.shapes[1] = c.shapes[2] = Shape{};
      else c.shapes[form == 1 ? 2 : 1] = Shape{};
    } else {
      const Op op = *rc::gen::elementOf(number_ops());
      const bool inplace = *weighted<bool>({{2, false}, {1, true}});
      c = make_case(inplace ? *entry(op).inplace : op, {*shape(0, 3), Shape{}}, {inplace ? "in-place" : "out-of-place"});
      c.numbers = {std::nullopt, *number()};
      c.dtypes = {*any_dtype, DType::float32};
      if ((op == Op::add || op == Op::sub) && *weighted<bool>({{3, false}, {1, true}}))
        c.scalars["alpha"] = *weighted<Scalar>({{2, {2, true}}, {1, {0.5, false}}, {1, {-1, true}}});
      if (!inplace) maybe_out(c, 6);
    }
    for (size_t k = 0; k < c.shapes.size(); ++k)
      if (const Number* n = number_of(c, k)) c.dtypes[k] = n->dtype();
    ValueSpec v;
    v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    v.special = *weighted<bool>({{3, false}, {1, true}});
    c.values = v;
    if (v.special) c.tags.push_back("special values");
    // Sometimes the tensor requires grad (a floating one, out of place, no out=): x * 2.5's gradient.
    const size_t self = c.op == Op::where ? 1 : 0;
    if (!c.out && !is_inplace(c.op) && !number_of(c, self) && category(dtype_of(c, self)) == Category::floating &&
        *weighted<bool>({{5, false}, {1, true}})) {
      c.requires_grad.assign(c.shapes.size(), false);
      c.requires_grad[self] = true;
      c.tags.push_back("gradient");
    }
    for (const std::string& t : number_tags(c)) c.tags.push_back(t);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

}  // namespace bc::gen
