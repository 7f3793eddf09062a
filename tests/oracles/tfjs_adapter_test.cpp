// The TensorFlow.js adapter (oracles/tfjs/adapter.mjs) through the real protocol, on both backends: what it declares,
// values worked out by hand for broadcasting, views, special values, matMul, reductions and gradients (protocol 2's
// upstream gradient included), tfjs's own messages with their kinds, and a planted bug that a run blames on it and
// shrinks. The adapter needs its npm packages: without oracles/tfjs/node_modules (scripts/setup.sh installs them)
// these tests fail, they do not skip.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "cli/cli_util.h"
#include "harness/shell_quote.h"
#include "oracles/external_oracle.h"
#include "test_paths.h"

namespace bc {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

const std::string kAdapter = "node " + bc::test_source_dir() + "/oracles/tfjs/adapter.mjs";

Case make_case(const char* text) { return case_from_json(json::parse(text)); }

// The version package.json pins, which the handshake must report.
std::string pinned_version() {
  return json::parse(slurp(bc::test_source_dir() + "/oracles/tfjs/package.json"))["dependencies"]["@tensorflow/tfjs-core"];
}

ExternalOracle& tfjs(const std::string& backend) {
  static std::map<std::string, std::unique_ptr<ExternalOracle>> oracles;
  auto& o = oracles[backend];
  if (!o) o = std::make_unique<ExternalOracle>("tfjs-" + backend, kAdapter + " --backend " + backend, 60000ms);
  return *o;
}

class TfjsAdapter : public ::testing::TestWithParam<std::string> {
 protected:
  Outcome run(const char* text) { return tfjs(GetParam()).run(make_case(text)); }
};

TEST(TfjsAdapterSetup, ItsPackagesAreInstalled) {
  for (const char* p : {"tfjs-core", "tfjs-backend-cpu", "tfjs-backend-wasm"}) {
    const std::string file = bc::test_source_dir() + "/oracles/tfjs/node_modules/@tensorflow/" + p + "/package.json";
    ASSERT_TRUE(fs::exists(file)) << file << " is missing: run scripts/setup.sh (npm ci in oracles/tfjs)";
    EXPECT_EQ(json::parse(slurp(file))["version"], pinned_version()) << p;
  }
  const std::string bundle = bc::test_source_dir() + "/oracles/tfjs/node_modules/.broadcheck/core_registrations.cjs";
  EXPECT_TRUE(fs::exists(bundle)) << bundle << " is missing: npm ci's postinstall (bundle_registrations.mjs) did not run";
}

TEST_P(TfjsAdapter, DeclaresWhatTfjsHasWithGradients) {
  const Capabilities& caps = tfjs(GetParam()).capabilities();
  EXPECT_EQ(caps.name, "TensorFlow.js " + GetParam());
  EXPECT_EQ(caps.version, pinned_version());
  EXPECT_TRUE(caps.ignored.empty()) << caps.ignored.front();
  for (const char* op : {"add", "remainder", "where", "matmul", "mm", "bmm", "mv", "sum", "amax", "expand", "graph", "diamond"})
    EXPECT_TRUE(caps.ops.count(op)) << op;
  // No in-place forms, and no function of PyTorch's meaning for these.
  for (const char* op : {"add_", "fill_", "fmod", "hypot", "lerp", "addcmul", "addmm", "sum_to"})
    EXPECT_FALSE(caps.ops.count(op)) << op;
  EXPECT_EQ(caps.dtypes, (std::set<std::string>{"bool", "float32", "int32"}));
  EXPECT_TRUE(caps.gradients);
  // A graph is declared, but one with a node tfjs has no function for is unsupported, not an error.
  EXPECT_EQ(run(R"({"op": "graph", "shapes": [[2]], "program": [{"op": "hypot", "args": [0, 0]}], "values": {"seed": 1}})").status,
            Status::unsupported);
}

TEST_P(TfjsAdapter, BroadcastingValuesByHand) {
  // [2, 1] + [3]: each row of the first meets every element of the second.
  Outcome add = run(R"({"op": "add", "shapes": [[2, 1], [3]], "values": {"data": [[1, 2], [10, 20, 30]]}})");
  EXPECT_EQ(summarize(add), "ok [2, 3] float32");
  EXPECT_EQ(add.values, (std::vector<double>{11, 21, 31, 12, 22, 32}));
  // sub with alpha 2: 5 - 2 * [1, 2].
  Outcome sub = run(R"({"op": "sub", "shapes": [[1], [2]], "scalars": {"alpha": 2}, "values": {"data": [[5], [1, 2]]}})");
  EXPECT_EQ(sub.values, (std::vector<double>{3, 1}));
  // where: a [2] condition against a [3, 1] and a 0-d operand.
  Outcome where = run(R"({"op": "where", "shapes": [[2], [3, 1], []], "dtypes": ["bool", "float32", "float32"],
      "values": {"data": [[true, false], [1, 2, 3], [9]]}})");
  EXPECT_EQ(summarize(where), "ok [3, 2] float32");
  EXPECT_EQ(where.values, (std::vector<double>{1, 9, 2, 9, 3, 9}));
  // int32 comparisons give bool.
  Outcome lt = run(R"({"op": "lt", "shapes": [[2], [1]], "dtypes": ["int32", "int32"], "values": {"data": [[1, 5], [3]]}})");
  EXPECT_EQ(summarize(lt), "ok [2] bool");
  EXPECT_EQ(lt.values, Values(std::vector<int64_t>{1, 0}));
  // A transposed operand: the values are the view's (data is row-major over the view), so [[1, 2], [3, 4]] + 0.
  Outcome t = run(R"({"op": "add", "shapes": [[2, 2], [1]], "layouts": ["transposed", "contiguous"],
      "values": {"data": [[1, 2, 3, 4], [0]]}})");
  EXPECT_EQ(t.values, (std::vector<double>{1, 2, 3, 4}));
}

// A number is the JavaScript number a tfjs user writes (tf.add(x, 2)): tfjs makes it a float32 tensor (a boolean a bool
// one) and promotes by dtype, so int32 + 2 is float32 where PyTorch keeps int32; float32 * 0.1 multiplies by 0.1
// rounded to float32 (1.5 * 0.100000001490116 = 0.150000005960464 in float32). On cpu only: tfjs-wasm's Select reads
// a number branch through the other branch's dtype (where(c, int32 [7, 7], 2.5) gave [7, 1075838976], 2.5's bits).
TEST_P(TfjsAdapter, NumbersAreJavaScriptNumbersOnCpu) {
  const bool cpu = GetParam() == "cpu";
  EXPECT_EQ(tfjs(GetParam()).capabilities().numbers, cpu);
  if (!cpu) {
    const Outcome o = run(R"({"op": "add", "shapes": [[2], {"number": 2}], "dtypes": ["int32", "int64"], "values": {"seed": 1}})");
    EXPECT_EQ(o.status, Status::unsupported);
    EXPECT_EQ(o.detail, "not declared by the adapter: numbers");
    return;
  }
  Outcome i = run(R"({"op": "add", "shapes": [[2], {"number": 2}], "dtypes": ["int32", "int64"], "values": {"data": [[100, -3], []]}})");
  EXPECT_EQ(summarize(i), "ok [2] float32");
  EXPECT_EQ(i.values, (std::vector<double>{102, -1}));
  Outcome b = run(R"({"op": "add", "shapes": [[2], {"number": true}], "dtypes": ["int32", "bool"], "values": {"data": [[100, -3], []]}})");
  EXPECT_EQ(summarize(b), "ok [2] int32");
  EXPECT_EQ(b.values, Values(std::vector<int64_t>{101, -2}));
  Outcome f = run(R"({"op": "mul", "shapes": [[2], {"number": 0.1}], "dtypes": ["float32", "float64"], "values": {"data": [[1.5, -4], []]}})");
  EXPECT_EQ(f.values, (std::vector<double>{static_cast<float>(1.5f * 0.1f), static_cast<float>(-4.0f * 0.1f)}));
  // sub with alpha 2: 1 - 2 * 3, the number scaled in JavaScript as a user writes tf.sub(x, 2 * 3).
  Outcome a = run(R"({"op": "sub", "shapes": [[1], {"number": 3}], "dtypes": ["float32", "int64"], "scalars": {"alpha": 2},
                     "values": {"data": [[1], []]}})");
  EXPECT_EQ(a.values, (std::vector<double>{-5}));
  Outcome w = run(R"({"op": "where", "shapes": [[2], [2], {"number": 2.5}], "dtypes": ["bool", "int32", "float64"],
                     "values": {"data": [[true, false], [7, 7], []]}})");
  EXPECT_EQ(summarize(w), "ok [2] float32");
  EXPECT_EQ(w.values, (std::vector<double>{7, 2.5}));
}

TEST_P(TfjsAdapter, SpecialValuesComeBackExactly) {
  Outcome div = run(R"({"op": "div", "shapes": [[4], [1]], "values": {"data": [[1, -1, 0, 3], [0]]}})");
  ASSERT_EQ(div.values.size(), 4u) << summarize(div);
  EXPECT_EQ(div.values.as_double(0), INFINITY);
  EXPECT_EQ(div.values.as_double(1), -INFINITY);
  EXPECT_TRUE(std::isnan(div.values.as_double(2)));
  EXPECT_EQ(div.values.as_double(3), INFINITY);
  Outcome mul = run(R"({"op": "mul", "shapes": [[1], [1]], "values": {"data": [[-0.0], [5]]}})");
  ASSERT_EQ(mul.values.size(), 1u) << summarize(mul);
  EXPECT_TRUE(mul.values.as_double(0) == 0 && std::signbit(mul.values.as_double(0)));
}

TEST_P(TfjsAdapter, ProductsReductionsAndShapesByHand) {
  // Batches [1] and [2] broadcast: [[1, 2], [3, 4]] times the columns [1, 0] and [0, 1].
  Outcome mm = run(R"({"op": "matmul", "shapes": [[1, 2, 2], [2, 2, 1]], "values": {"data": [[1, 2, 3, 4], [1, 0, 0, 1]]}})");
  EXPECT_EQ(summarize(mm), "ok [2, 2, 1] float32");
  EXPECT_EQ(mm.values, (std::vector<double>{1, 3, 2, 4}));
  Outcome sum = run(R"({"op": "sum", "shapes": [[2, 3]], "dims": [0], "keepdim": true, "values": {"data": [[1, 2, 3, 4, 5, 6]]}})");
  EXPECT_EQ(summarize(sum), "ok [1, 3] float32");
  EXPECT_EQ(sum.values, (std::vector<double>{5, 7, 9}));
  Outcome amax = run(R"({"op": "amax", "shapes": [[2, 3]], "dims": [-1], "values": {"data": [[1, 5, 2, 7, 0, 3]]}})");
  EXPECT_EQ(summarize(amax), "ok [2] float32");
  EXPECT_EQ(amax.values, (std::vector<double>{5, 7}));
  EXPECT_EQ(summarize(run(R"({"op": "expand", "shapes": [[3, 1], [2, 3, 4]]})")), "ok [2, 3, 4] float32");
  EXPECT_EQ(summarize(run(R"({"op": "broadcast_shapes", "shapes": [[2, 1], [3]]})")), "ok [2, 3] float32");
}

TEST_P(TfjsAdapter, GradientsByHand) {
  // mul of [2, 1] and [3] with ones upstream: each gets the other's elements summed over what it was broadcast on.
  Outcome mul = run(R"({"op": "mul", "shapes": [[2, 1], [3]], "requires_grad": [true, true],
      "values": {"data": [[1, 2], [10, 20, 30]]}})");
  ASSERT_EQ(mul.grads.size(), 2u) << summarize(mul);
  EXPECT_EQ(mul.grads[0]->shape, (Shape{2, 1}));
  EXPECT_EQ(mul.grads[0]->values, (std::vector<double>{60, 60}));
  EXPECT_EQ(mul.grads[1]->values, (std::vector<double>{3, 3, 3}));
  // (a + b) * a: d/da = 2a + b = 7, d/db = a = 2; only a's gradient is asked for in the second.
  Outcome diamond = run(R"({"op": "diamond", "shapes": [[1], [1]], "requires_grad": [true, true], "values": {"data": [[2], [3]]}})");
  ASSERT_EQ(diamond.grads.size(), 2u) << summarize(diamond);
  EXPECT_EQ(diamond.grads[0]->values, (std::vector<double>{7}));
  EXPECT_EQ(diamond.grads[1]->values, (std::vector<double>{2}));
  Outcome one = run(R"({"op": "diamond", "shapes": [[1], [1]], "requires_grad": [true, false], "values": {"data": [[2], [3]]}})");
  ASSERT_EQ(one.grads.size(), 2u) << summarize(one);
  EXPECT_FALSE(one.grads[1].has_value());
  // The mean over dim 1 of a [2, 2]: each element's gradient is 1/2.
  Outcome mean = run(R"({"op": "mean", "shapes": [[2, 2]], "dims": [1], "requires_grad": [true], "values": {"data": [[1, 2, 3, 4]]}})");
  ASSERT_EQ(mean.grads.size(), 1u) << summarize(mean);
  EXPECT_EQ(mean.grads[0]->values, (std::vector<double>{0.5, 0.5, 0.5, 0.5}));
  // prod over dim 0 of [2, 3]: each element's gradient is the other's (tfjs's Prod gradient needs its chained ops).
  Outcome prod = run(R"({"op": "prod", "shapes": [[2]], "dims": [0], "requires_grad": [true], "values": {"data": [[2, 3]]}})");
  ASSERT_EQ(prod.grads.size(), 1u) << summarize(prod);
  EXPECT_EQ(prod.grads[0]->values, (std::vector<double>{3, 2}));
  // A graph input the program never uses gets no gradient (null), as in PyTorch; the other gets d(a * a)/da = 2a.
  Outcome unused = run(R"({"op": "graph", "shapes": [[1], [1]], "program": [{"op": "mul", "args": [0, 0]}],
      "requires_grad": [true, true], "values": {"data": [[3], [5]]}})");
  ASSERT_EQ(unused.grads.size(), 2u) << summarize(unused);
  EXPECT_EQ(unused.grads[0]->values, (std::vector<double>{6}));
  EXPECT_FALSE(unused.grads[1].has_value());
  // No input that requires grad reaches the result: tfjs's gradients refuse (no path from x to y), as PyTorch says
  // the result does not require grad; the adapter passes that refusal on instead of answering null gradients.
  Outcome none = run(R"({"op": "graph", "shapes": [[1], [1]], "program": [{"op": "mul", "args": [0, 0]}],
      "requires_grad": [false, true], "values": {"data": [[3], [5]]}})");
  EXPECT_EQ(summarize(none), "error invalid_argument");
  ASSERT_TRUE(none.error.has_value());
  EXPECT_EQ(none.error->message.rfind("Cannot compute gradient of y=f(x) with respect to x.", 0), 0u) << none.error->message;
  // mm of [1, 2] and [2, 1] (tf.matMul): [1*3 + 2*4] = [11]; with ones upstream a's gradient is b's column as a row,
  // b's is a's row as a column.
  Outcome mm = run(R"({"op": "mm", "shapes": [[1, 2], [2, 1]], "requires_grad": [true, true], "values": {"data": [[1, 2], [3, 4]]}})");
  EXPECT_EQ(summarize(mm), "ok [1, 1] float32");
  EXPECT_EQ(mm.values, (std::vector<double>{11}));
  ASSERT_EQ(mm.grads.size(), 2u) << summarize(mm);
  EXPECT_EQ(mm.grads[0]->values, (std::vector<double>{3, 4}));
  EXPECT_EQ(mm.grads[1]->shape, (Shape{2, 1}));
  EXPECT_EQ(mm.grads[1]->values, (std::vector<double>{1, 2}));
  // mv of [[1, 2], [3, 4]] and [5, 6] (tf.dot): [17, 39]; v's gradient sums m's rows: [1 + 3, 2 + 4].
  Outcome mv = run(R"({"op": "mv", "shapes": [[2, 2], [2]], "requires_grad": [false, true], "values": {"data": [[1, 2, 3, 4], [5, 6]]}})");
  EXPECT_EQ(summarize(mv), "ok [2] float32");
  EXPECT_EQ(mv.values, (std::vector<double>{17, 39}));
  ASSERT_EQ(mv.grads.size(), 2u) << summarize(mv);
  EXPECT_EQ(mv.grads[1]->values, (std::vector<double>{4, 6}));
  // A case that writes an operand in place before backward is beyond tfjs, which has no in-place ops.
  EXPECT_EQ(run(R"({"op": "mul", "shapes": [[1], [1]], "requires_grad": [true, true], "modify": 1, "values": {"seed": 1}})").status,
            Status::unsupported);
}

// Protocol 2 by hand, piped into the adapter: the request's upstream gradient is tf.grads' dy.
TEST_P(TfjsAdapter, Protocol2UpstreamIsTheGradientsDy) {
  const std::string hello = R"({"protocol": 1, "hello": "broadcheck", "protocols": [1, 2]})";
  const std::string request = R"({"id": 5, "case": {"op": "mul", "shapes": [[3], [1]], "requires_grad": [true, true], )"
      R"("values": {"seed": 0}}, "operands": [)"
      R"({"dtype": "float32", "layout": "contiguous", "shape": [3], "base_shape": [3], "base": [1, 2, 3], "offset": 0, "strides": [1]}, )"
      R"({"dtype": "float32", "layout": "contiguous", "shape": [1], "base_shape": [1], "base": [10], "offset": 0, "strides": [1]}], )"
      R"("upstream": {"shape": [3], "dtype": "float32", "values": [1, -2, 0.5]}})";
  const std::string command = "printf '%s\\n' '" + hello + "' '" + request + "' | " + kAdapter + " --backend " + GetParam() + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ASSERT_EQ(::pclose(pipe), 0) << out;
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> v;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) v.push_back(line);
    return v;
  }();
  ASSERT_EQ(lines.size(), 2u) << out;
  EXPECT_EQ(json::parse(lines[0])["protocol"], 2);
  const json answer = json::parse(lines[1]);
  EXPECT_EQ(answer["id"], 5);
  // d(a * b)/da = dy * b = [10, -20, 5]; d/db = sum(dy * a) = 1 - 4 + 1.5.
  EXPECT_EQ(answer["outcome"]["grads"][0]["values"], json::array({10, -20, 5})) << lines[1];
  EXPECT_EQ(answer["outcome"]["grads"][1]["values"], json::array({-1.5})) << lines[1];
}

// The issue-34 ops tfjs has: tf.bitwiseAnd (int32 of one shape only: 12 & 10 is 8, -1 & 5 is 5) and the logical
// ops (bool only), called as a user calls them, so that their refusals are tfjs's own errors; the others undeclared.
TEST_P(TfjsAdapter, BitwiseAndAndLogicalOpsByHand) {
  const Capabilities& caps = tfjs(GetParam()).capabilities();
  for (const char* op : {"bitwise_and", "logical_and", "logical_or", "logical_xor"}) EXPECT_TRUE(caps.ops.count(op)) << op;
  for (const char* op : {"bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "logaddexp",
                         "bitwise_and_", "logical_and_"})
    EXPECT_FALSE(caps.ops.count(op)) << op;
  const Outcome band = run(R"({"op": "bitwise_and", "shapes": [[2], [2]], "dtypes": ["int32", "int32"],
      "values": {"data": [[12, -1], [10, 5]]}})");
  EXPECT_EQ(summarize(band), "ok [2] int32");
  EXPECT_EQ(band.values, Values(std::vector<int64_t>{8, 5}));
  const Outcome spread = run(R"({"op": "bitwise_and", "shapes": [[2, 1], [3]], "dtypes": ["int32", "int32"],
      "values": {"seed": 1}})");
  EXPECT_EQ(summarize(spread), "error broadcast");
  EXPECT_EQ(spread.error->message.rfind("BitwiseAnd: Tensors must have the same shape", 0), 0u) << spread.error->message;
  const Outcome flags = run(R"({"op": "bitwise_and", "shapes": [[1], [1]], "dtypes": ["bool", "bool"], "values": {"seed": 1}})");
  EXPECT_EQ(summarize(flags), "error invalid_argument");
  // logical_or of [2, 1] and [3] broadcasts: row k is a[k] || b.
  const Outcome lor = run(R"({"op": "logical_or", "shapes": [[2, 1], [3]], "dtypes": ["bool", "bool"],
      "values": {"data": [[true, false], [false, true, false]]}})");
  EXPECT_EQ(summarize(lor), "ok [2, 3] bool");
  EXPECT_EQ(lor.values, Values(std::vector<int64_t>{1, 1, 1, 0, 1, 0}));
  const Outcome lxor = run(R"({"op": "logical_xor", "shapes": [[3], [3]], "dtypes": ["bool", "bool"],
      "values": {"data": [[true, true, false], [true, false, false]]}})");
  EXPECT_EQ(lxor.values, Values(std::vector<int64_t>{0, 1, 0})) << summarize(lxor);
  const Outcome floats = run(R"({"op": "logical_and", "shapes": [[1], [1]], "values": {"seed": 1}})");
  EXPECT_EQ(summarize(floats), "error invalid_argument");
}

TEST_P(TfjsAdapter, ErrorsAreTfjsOwnWithTheirKinds) {
  const Outcome refused = run(R"({"op": "add", "shapes": [[2], [3]]})");
  EXPECT_EQ(summarize(refused), "error broadcast");
  EXPECT_EQ(refused.error->message, "Operands could not be broadcast together with shapes 2 and 3.");
  EXPECT_EQ(summarize(run(R"({"op": "matmul", "shapes": [[2, 3], [2, 2]]})")), "error matmul_shape");
  EXPECT_EQ(summarize(run(R"({"op": "expand", "shapes": [[3], [4]]})")), "error expand");
  EXPECT_EQ(summarize(run(R"({"op": "sum", "shapes": [[2, 3]], "dims": [5]})")), "error invalid_argument");
}

// The CPU seconds (user and system) that a shell command and every process it starts take: the median of 3 runs.
double cpu_seconds(const std::string& command) {
  const auto seconds = [](const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  std::vector<double> runs;
  for (int k = 0; k < 3; ++k) {
    rusage before{}, after{};
    getrusage(RUSAGE_CHILDREN, &before);
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    getrusage(RUSAGE_CHILDREN, &after);
    runs.push_back(seconds(after) - seconds(before));
  }
  std::sort(runs.begin(), runs.end());
  return runs[1];
}

// A start (the handshake, then the end of its input) costs less than three times the CPU of a bare Node process that
// reads the hello line and writes it back. A run starts each voter three times at least (its registration and each
// job); tfjs's CommonJS bundles loaded with import() made Node scan their text for exports, 0.2 s of CPU per start,
// over four times a bare Node's (docs/notes/voter-cost.md).
TEST_P(TfjsAdapter, StartsAtLessThanThreeBareNodeStarts) {
  const std::string hello = "printf '%s\\n' " + shell_quote(hello_line()) + " | ";
  const double bare = cpu_seconds(hello + "node -e " + shell_quote("process.stdin.once('data', (d) => process.stdout.write(d))") + " >/dev/null");
  const double start = cpu_seconds(hello + kAdapter + " --backend " + GetParam() + " >/dev/null");
  EXPECT_LT(start, 3 * bare) << "the adapter's start: " << start << " s of CPU; a bare Node's: " << bare << " s";
}

INSTANTIATE_TEST_SUITE_P(Backends, TfjsAdapter, ::testing::Values("cpu", "wasm"));

// tfjs-wasm's min over an axis of size 0 traps (an integer division by zero in the module): that case is an error
// with the trap's own message (not a crash of the adapter), and the cases after it, in the same adapter, come out
// right (they run on a fresh module).
TEST(TfjsWasm, ATrapIsTheCasesErrorAndTheNextCasesAreRight) {
  const Outcome trap = tfjs("wasm").run(make_case(R"({"op": "amin", "shapes": [[0, 4, 5]], "dims": [1], "values": {"seed": 1}})"));
  EXPECT_EQ(summarize(trap), "error other");
  for (int k = 0; k < 3; ++k) {
    const Outcome add = tfjs("wasm").run(make_case(R"({"op": "add", "shapes": [[], [2]], "values": {"data": [[2], [5, -1]]}})"));
    EXPECT_EQ(add.values, (std::vector<double>{7, 1})) << summarize(add);
  }
}

// A run with the adapter's planted bug (an add whose result's last dim is 3 gets 1 added) finds it, blames the
// adapter alone and shrinks the case to one with such a dim. Tensor operands only: tfjs-cpu's number departures are
// declared for tfjs-cpu, not for an adapter named "planted".
TEST(TfjsAdapterRun, APlantedBugIsFoundBlamedAndShrunk) {
  const fs::path out = scratch("tfjs-planted");
  const CliRun r = broadcheck("run --seed 1 --cases 200 --op add --property elementwise_agree --property values_agree "
                              "--timeout-ms 60000 --no-config --no-replay --oracle 'planted=BC_TFJS_PLANTED=add-last-dim-3 " +
                              kAdapter + " --backend cpu' -q --out " + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  int found = 0;
  for (const json& f : findings_blaming(summary, "planted")) {
    ++found;
    const json& c = f["minimal"]["case"];
    bool last_three = false;
    for (const json& s : c["shapes"]) {
      EXPECT_LE(s.size(), 2u) << "shrunk: " << c.dump();
      last_three = last_three || (!s.empty() && s.back() == 3);
    }
    EXPECT_TRUE(last_three) << "a last dim of 3 is the planted bug: " << c.dump();
    EXPECT_NE(f["adapter_commands"].value("planted", "").find("BC_TFJS_PLANTED=add-last-dim-3"), std::string::npos) << f.dump();
  }
  EXPECT_GE(found, 1) << r.output;
}

}  // namespace
}  // namespace bc
