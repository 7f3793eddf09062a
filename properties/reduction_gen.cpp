#include "properties/reduction_gen.h"

#include <algorithm>
#include <set>

#include "properties/exec.h"
#include "properties/op_choice.h"
#include "properties/shape_gen.h"
#include "properties/value_class_gen.h"
#include "properties/weighted.h"

namespace bc::gen {
namespace {

// A valid set of dims of a shape of rank `rank`, ascending, each written as d or d - rank (rank 0: 0 or -1).
std::vector<int64_t> valid_dims(int64_t rank, bool want_one) {
  const int64_t wrap = std::max<int64_t>(rank, 1);
  std::vector<int64_t> dims;
  if (want_one) {
    dims.push_back(index_below(static_cast<int>(wrap)));
  } else {
    for (int64_t d = 0; d < wrap; ++d)
      if (*weighted<bool>({{1, false}, {1, true}})) dims.push_back(d);
  }
  for (int64_t& d : dims)
    if (*weighted<bool>({{2, false}, {1, true}})) d -= wrap;
  return dims;
}

}  // namespace

std::vector<std::string> reduction_tags(const Case& c) {
  std::vector<std::string> tags;
  const int64_t rank = c.shapes.empty() ? 0 : static_cast<int64_t>(c.shapes[0].size());
  const int64_t wrap = std::max<int64_t>(rank, 1);
  if (!c.dims) tags.push_back("no dims");
  else if (c.dims->empty()) tags.push_back("empty dims");
  std::set<int64_t> seen;
  bool repeated = false, out_of_range = false, negative = false, unsorted = false;
  int64_t last = -1;
  for (int64_t d : c.dims.value_or(std::vector<int64_t>{})) {
    negative = negative || d < 0;
    if (d < -wrap || d >= wrap) {
      out_of_range = true;
      continue;
    }
    const int64_t w = d < 0 ? d + wrap : d;
    repeated = repeated || !seen.insert(w).second;
    unsorted = unsorted || w < last;
    last = w;
  }
  if (negative) tags.push_back("negative dim");
  if (repeated) tags.push_back("repeated dim");
  if (out_of_range) tags.push_back("out-of-range dim");
  if (unsorted) tags.push_back("unsorted dims");
  if (c.keepdim) tags.push_back("keepdim");
  if (c.dtype_arg) tags.push_back("dtype=");
  return tags;
}

rc::Gen<Case> reduction_case() {
  return bc::gen::exec([] {
    const OpEntry& op =
        **op_from_table(&Weights::values, [](const OpEntry& e) { return e.family == Family::reduce_dims; });
    const Shape shape = *gen::shape(0, 4);
    const auto rank = static_cast<int64_t>(shape.size());
    const int64_t wrap = std::max<int64_t>(rank, 1);
    // 0 valid, 1 no dims, 2 the empty list, 3 a repeated dim, 4 a dim out of range. prod takes one dim (an int):
    // a valid single dim, no dims, or one dim out of range.
    int branch = *weighted<int>({{10, 0}, {3, 1}, {2, 2}, {1, 3}, {1, 4}});
    const bool one = op.reduction->one_dim;
    if (one && (branch == 2 || branch == 3)) branch = branch == 2 ? 1 : 4;
    Case c = make_case(op.op, {shape}, {branch >= 3 ? "near miss" : "valid"});
    if (branch != 1) c.dims = branch == 2 ? std::vector<int64_t>{} : valid_dims(rank, one || branch == 3);
    if (branch == 0 && !one && c.dims->size() > 1 && *weighted<bool>({{4, false}, {1, true}}))
      std::reverse(c.dims->begin(), c.dims->end());  // LibTorch takes dims in any order
    if (branch == 3) c.dims->push_back((*c.dims)[0] < 0 ? (*c.dims)[0] + wrap : (*c.dims)[0] - wrap);
    if (branch == 4) {
      const int64_t bad = *weighted<bool>({{1, false}, {1, true}}) ? -wrap - 1 : wrap;
      if (one) c.dims = std::vector<int64_t>{bad};
      else c.dims->push_back(bad);
    }
    c.keepdim = *weighted<bool>({{1, false}, {1, true}});
    if (one && !c.dims) c.keepdim = false;  // prod without a dim has no keepdim
    // The input: any dtype the table allows, float32 and float64 most; a gradient of a floating input a third of
    // the time.
    const DType dtype = *weighted<DType>({{8, DType::float32}, {4, DType::float64}, {2, DType::int64}, {2, DType::bool_},
                                          {1, DType::int8}, {1, DType::uint8}, {1, DType::int16}, {1, DType::int32},
                                          {2, DType::float16}, {2, DType::bfloat16}});
    const bool grad = category(dtype) == Category::floating && *weighted<bool>({{2, false}, {1, true}});
    if (op.reduction->takes_dtype && *weighted<bool>({{3, false}, {1, true}}))
      c.dtype_arg = grad ? *weighted<DType>({{1, DType::float64}, {1, DType::float32}})
                         : *weighted<DType>({{2, DType::float64}, {2, DType::float32}, {1, DType::int64}, {1, DType::bool_}});
    c.dtypes = {dtype};
    c.layouts = {*weighted<Layout>({{6, Layout::contiguous}, {2, Layout::transposed}, {2, Layout::strided},
                                    {1, Layout::expanded}})};
    ValueSpec v;
    v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    v.special = *weighted<bool>({{6, false}, {1, true}});
    c.values = v;
    if (v.special) c.tags.push_back("special values");
    if (grad) {
      c.requires_grad = {true};
      if (*weighted<bool>({{1, false}, {1, true}})) c.grad_seed = *rc::gen::inRange<uint64_t>(0, 1000000);
      c.tags.push_back("gradient");
    }
    for (const std::string& t : reduction_tags(c)) c.tags.push_back(t);
    draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

}  // namespace bc::gen
