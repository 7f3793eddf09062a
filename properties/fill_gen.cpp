#include "properties/fill_gen.h"

#include <cmath>
#include <limits>

#include "engine/scalar_overflow.h"
#include "harness/case_conditions.h"
#include "properties/exec.h"
#include "properties/op_choice.h"
#include "properties/shape_gen.h"
#include "properties/weighted.h"

namespace bc::gen {

std::vector<std::string> fill_tags(const Case& c) {
  std::vector<std::string> tags;
  if (fill_rule(c.op) && fill_rule(c.op)->reads_value && c.scalars.count("value")) {
    const Scalar v = c.scalars.at("value");
    if (v.value == 0) tags.push_back("fill value 0");
    if (v.value == 0 && std::signbit(v.value)) tags.push_back("fill value -0.0");
    if (std::isnan(v.value)) tags.push_back("fill value NaN");
    if (std::isinf(v.value)) tags.push_back("fill value inf");
    if (!c.shapes.empty() && scalar_overflow(v.value, v.integral, dtype_of(c, 0)))
      tags.push_back("fill value out of range");
  }
  if (self_shares_memory(c)) tags.push_back("fill self shares memory");
  return tags;
}

rc::Gen<Case> fill_case() {
  return bc::gen::exec([] {
    const OpEntry& op = **op_from_table(&Weights::values, [](const OpEntry& e) { return e.family == Family::fill; });
    Case c = make_case(op.op, {*shape(0, 4)}, {"in-place"});
    c.dtypes = {*rc::gen::element(DType::float32, DType::bool_, DType::int64, DType::float64, DType::int8,
                                  DType::uint8, DType::int16, DType::int32, DType::float16, DType::bfloat16)};
    c.layouts = {*weighted<Layout>({{3, Layout::contiguous}, {1, Layout::transposed}, {1, Layout::strided},
                                    {2, Layout::expanded}, {2, Layout::overlapping}})};
    if (op.fill->reads_value && *weighted<bool>({{7, true}, {1, false}})) {
      const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
      // Out of range for some dtype: uint8 (256, -1.0), int8 (-129), int32 (3e9), float16 (1e5), float32 (1e39).
      c.scalars["value"] = *weighted<Scalar>({{4, {2, true}},       {2, {-1, true}},       {2, {2.5, false}},
                                             {2, {0, true}},       {2, {0.0, false}},     {2, {-0.0, false}},
                                             {2, {nan, false}},    {1, {inf, false}},     {1, {-inf, false}},
                                             {1, {256, true}},     {1, {-1.0, false}},    {1, {-129, true}},
                                             {1, {3e9, true}},     {1, {1e5, false}},     {1, {1e39, false}}});
    }
    ValueSpec v;
    v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    v.special = *weighted<bool>({{3, false}, {1, true}});
    c.values = v;
    if (v.special) c.tags.push_back("special values");
    for (const std::string& t : fill_tags(c)) c.tags.push_back(t);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

}  // namespace bc::gen
