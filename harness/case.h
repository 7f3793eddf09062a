// A case: one operation on operands of given shapes, as it appears in corpus/*.jsonl (schema: corpus/README.md).
// Cases are plain data, readable and stable across generator changes; unknown JSON fields are kept as they are.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/op_table.h"
#include "engine/reduction.h"
#include "engine/scalar.h"
#include "engine/shape.h"
#include "harness/program.h"
#include "harness/value_classes.h"
#include "harness/values.h"

namespace bc {

// What a case expects, when it says: a shape, an error of a kind, or any error; optionally the exact message.
// A gradient an operand is expected to receive (a seed document's worked example): its shape and, if given, values.
struct ExpectedGrad {
  Shape shape;
  std::vector<double> values;
  friend bool operator==(const ExpectedGrad& a, const ExpectedGrad& b) { return a.shape == b.shape && a.values == b.values; }
};

struct Expectation {
  std::optional<Shape> shape;
  bool any_error = false;
  std::optional<ErrorKind> error;
  std::optional<std::string> message;
  std::vector<std::optional<ExpectedGrad>> grads;  // with a shape: per operand, none for "no gradient"
  friend bool operator==(const Expectation& a, const Expectation& b) {
    return a.shape == b.shape && a.any_error == b.any_error && a.error == b.error && a.message == b.message &&
           a.grads == b.grads;
  }
};

// How an operand's memory is laid out (harness/operands.h builds each the same way in every library).
enum class Layout { contiguous, transposed, strided, expanded, overlapping };
const char* to_string(Layout l);
const std::vector<Layout>& all_layouts();
std::optional<Layout> layout_from_string(const std::string& name);
std::string layout_names();

// Deterministic operand values: drawn from `seed`, of `value_class` when given (harness/value_classes.h), else
// plain: including negatives and zero; NaN, +-inf and -0.0 (and the int64 extremes) only when `special` is set.
// Or given outright: `data` holds, per operand, the values the op sees (row-major), e.g. from a bug report, in the
// kind they were written in (integers exactly; harness/values.h); harness/operands converts them to the dtype.
struct ValueSpec {
  uint64_t seed = 0;
  bool special = false;
  std::vector<Values> data;
  std::optional<ValueClass> value_class;  // absent: plain, written back without it
  friend bool operator==(const ValueSpec& a, const ValueSpec& b) {
    return a.seed == b.seed && a.special == b.special && a.value_class == b.value_class && a.data == b.data;
  }
};

// The out= tensor of a pointwise binary op (add(a, b, out=t)): a fresh contiguous tensor of this shape and dtype,
// zero-filled; LibTorch resizes it (with a warning when it had elements) where its shape differs from the result's.
struct OutSpec {
  Shape shape;
  DType dtype = DType::float32;
  friend bool operator==(const OutSpec& a, const OutSpec& b) { return a.shape == b.shape && a.dtype == b.dtype; }
};

struct Case {
  std::string id;
  Op op = Op::add;  // parsed from its name once (case_from_json) and printed only where the case is written
  // The property whose check a corpus case is replayed under ("addc_equivalence", "grads_finite_difference", ...);
  // "" for the corpus' own check, every implementation's outcome compared (corpus/README.md).
  std::string property;
  std::vector<Shape> shapes;
  // Operand k is a number (a Python int, float or bool: x + 2.5) instead of a tensor where numbers[k] holds one:
  // written {"number": 2.5} in "shapes" (corpus/README.md, "Numbers"); its shape is [] and its dtype its kind's
  // (int64, float64, bool), and it has no layout, values or gradient of its own.
  std::vector<std::optional<Number>> numbers;  // per operand; empty: every operand is a tensor
  std::vector<DType> dtypes;      // per operand; empty: all float32
  std::vector<Layout> layouts;    // per operand; empty: all contiguous
  // "scalars": {"alpha": 2, "beta": 0.5, "value": 2}: alpha for add/sub and the fused products, beta for the
  // fused products, value for addcmul/addcdiv. Written 2 (a Python int) or 2.0 (a float): LibTorch tells them apart.
  std::map<std::string, Scalar> scalars;
  std::optional<ValueSpec> values;  // absent: a shape-level case (no values are compared)
  bool default_values = false;  // a gradient case that gave no "values" runs on seed 0's; written back without them
  // Gradients (docs/notes/gradient-cases.md): which operands require grad; the upstream gradient's value seed
  // (absent: ones); an operand written in place (add_ 1) between the forward and backward.
  std::vector<bool> requires_grad;    // per operand; empty: none
  std::optional<uint64_t> grad_seed;
  std::optional<int> modify;
  std::optional<OutSpec> out;  // the op's out= form (pointwise binary ops only)
  std::optional<Expectation> expect;
  // The op "graph" only: its nodes over the operands (harness/program.h); empty for every other op.
  Program program;
  // A reduction's arguments (sum, mean, amax, amin, prod; corpus/README.md): "dims" (absent: no dim argument),
  // "keepdim", and "dtype_arg" (LibTorch's dtype=, for sum, mean and prod).
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  std::optional<DType> dtype_arg;
  std::string source;
  std::string note;
  std::vector<std::string> tags;  // generator classes ("near_miss", ...); not part of the case's identity
  nlohmann::json extra = nlohmann::json::object();  // fields this version does not know, kept for round trips
};

// The scalars a case may give (alpha, beta, value), and one of them with its default (the integer 1) filled in.
const std::vector<std::string>& scalar_names();
Scalar scalar_of(const Case& c, const std::string& name);

// A reduction case's arguments as the engine takes them.
ReduceArgs reduce_args(const Case& c);

// Whether the case runs backward: some operand requires grad.
bool is_gradient_case(const Case& c);

// The dtype and layout of operand k (defaults filled in; a number's dtype is its kind's, its layout contiguous).
DType dtype_of(const Case& c, size_t k);
Layout layout_of(const Case& c, size_t k);

// Operand k's number, or nullptr for a tensor; whether any operand is a number.
const Number* number_of(const Case& c, size_t k);
bool has_numbers(const Case& c);
// Where a case may write a number: the second operand of a pointwise binary op (x + 2.5, x.mul_(3), out= too)
// and the second and third of where (where(c, x, 0.0)); a reader refuses it anywhere else.
bool may_be_number(Op op, size_t k);
// A number as a case writes it: {"number": 2} (an int), {"number": 2.0} or {"number": "nan"} (a float: NaN and
// the infinities as values write them, -0.0 with its sign), {"number": true} (a bool); an int is a JSON integer
// within int64, exact. number_from_json throws CaseError naming `where`.
nlohmann::json to_json(const Number& n);
Number number_from_json(const nlohmann::json& j, const std::string& where);
// "2.5", "3", "True", "nan": the number as Python writes it, for headings and generated code.
std::string describe(const Number& n);
// The op a name denotes, from the op table (engine/op_table.h); nullptr for an unknown name.
const OpEntry* find_op(const std::string& name);
std::string known_op_names();

// Parsing throws CaseError with a reason that names the field; corpus readers add file and line.
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
Case case_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Case& c);
nlohmann::json to_json(const Expectation& e);

// Whether two cases are the same, field by field (scalars bit for bit, so a NaN alpha equals itself; values as
// Values compares them): what comparing their JSON would say, without building it.
bool same_case(const Case& a, const Case& b);

// The case without id, source, note and tags, serialised with sorted keys: equal for the same experiment.
std::string canonical_form(const Case& c);

// FNV-1a of a string: a hash that is the same on every platform and build, for ids and random keys.
uint64_t stable_hash(const std::string& text);

// "add([2, 3], [3])", for report headings and logs; a graph adds its program ("graph([2, 3], [3]: t2 = mul(x0, x1))").
std::string describe(const Case& c);

}  // namespace bc
