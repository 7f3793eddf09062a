// The ONNX Runtime adapter (oracles/onnxruntime/adapter.mjs) through the real protocol: what it declares, ONNX
// Runtime's own results for broadcasting ops, products and reductions (values worked out by hand), int64 exact at
// its extremes, ONNX Runtime's messages with their kinds, what it cannot load answered unsupported, and a planted
// bug in the adapter (BC_ONNXRUNTIME_PLANT=strides) found by a run, blamed on it and shrunk.
// Needs `npm ci` in oracles/onnxruntime (scripts/setup.sh): without node_modules these tests fail, never skip.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>

#include "cli/cli_util.h"
#include "oracles/external_oracle.h"
#include "test_paths.h"

namespace bc {
namespace {

using namespace std::chrono_literals;

const std::string kAdapterDir = bc::test_source_dir() + "/oracles/onnxruntime";
const std::string kAdapter = "node " + kAdapterDir + "/adapter.mjs";

Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

ExternalOracle& ort() {
  static ExternalOracle oracle("onnxruntime", kAdapter, 20000ms);
  return oracle;
}

TEST(OnnxruntimeAdapter, ItsPackagesAreInstalled) {
  EXPECT_TRUE(fs::exists(kAdapterDir + "/node_modules/onnxruntime-node/package.json"))
      << "run `ONNXRUNTIME_NODE_INSTALL=skip npm ci` in " << kAdapterDir << " (scripts/setup.sh does)";
}

TEST(OnnxruntimeAdapter, DeclaresWhatOnnxHasAndNoGradients) {
  const Capabilities& caps = ort().capabilities();
  EXPECT_EQ(caps.name, "ONNX Runtime");
  EXPECT_EQ(caps.version, "1.30.0");  // the version package.json pins
  EXPECT_TRUE(caps.ignored.empty()) << caps.ignored.front();
  for (const char* op : {"add", "ne", "fmod", "where", "expand", "matmul", "addmm", "sum", "amax", "sign"})
    EXPECT_TRUE(caps.ops.count(op)) << op;
  for (const char* op : {"add_", "sum_to", "broadcast_shapes", "mm", "addmv", "atan2", "hypot", "graph", "fill_"})
    EXPECT_FALSE(caps.ops.count(op)) << op;
  EXPECT_FALSE(caps.gradients);
  EXPECT_FALSE(caps.out);
  EXPECT_TRUE(caps.batch);
  EXPECT_TRUE(caps.dtypes.count("float16") && caps.dtypes.count("int8") && !caps.dtypes.count("bfloat16"));
  EXPECT_EQ(caps.layouts.size(), 5u);
}

// Values worked out by hand from each operator's definition in the ONNX spec.
TEST(OnnxruntimeAdapter, BroadcastingOpsComputeWhatTheSpecSays) {
  const Outcome add = ort().run(make_case(R"({"op": "add", "shapes": [[2, 3], [3]],
      "values": {"data": [[1, 2, 3, 4, 5, 6], [10, 20, 30]]}})"));
  EXPECT_EQ(summarize(add), "ok [2, 3] float32");
  EXPECT_EQ(add.values, (std::vector<double>{11, 22, 33, 14, 25, 36}));
  // where(cond [2], a [2], b [2, 1]) broadcasts all three to [2, 2].
  const Outcome where = ort().run(make_case(R"({"op": "where", "shapes": [[2], [2], [2, 1]],
      "dtypes": ["bool", "float32", "float32"], "values": {"data": [[true, false], [1, 2], [10, 20]]}})"));
  EXPECT_EQ(summarize(where), "ok [2, 2] float32");
  EXPECT_EQ(where.values, (std::vector<double>{1, 10, 1, 20}));
  // ne is Not(Equal): bool.
  const Outcome ne = ort().run(make_case(R"({"op": "ne", "shapes": [[3], [3]], "dtypes": ["int64", "int64"],
      "values": {"data": [[1, 2, 3], [1, 0, 3]]}})"));
  EXPECT_EQ(summarize(ne), "ok [3] bool");
  EXPECT_EQ(ne.values, Values(std::vector<int64_t>{0, 1, 0}));
  // Mod with fmod=1 truncates (the dividend's sign), with fmod=0 floors (the divisor's sign).
  const Outcome fmod = ort().run(make_case(R"({"op": "fmod", "shapes": [[2], [2]], "dtypes": ["int64", "int64"],
      "values": {"data": [[-7, 7], [2, -2]]}})"));
  EXPECT_EQ(fmod.values, Values(std::vector<int64_t>{-1, 1}));
  const Outcome rem = ort().run(make_case(R"({"op": "remainder", "shapes": [[2], [2]], "dtypes": ["int64", "int64"],
      "values": {"data": [[-7, 7], [2, -2]]}})"));
  EXPECT_EQ(rem.values, Values(std::vector<int64_t>{1, -1}));
  // Expand broadcasts both ways: a target smaller than the source keeps the source's size (ONNX's Expand).
  EXPECT_EQ(summarize(ort().run(make_case(R"({"op": "expand", "shapes": [[3, 1], [2, 1, 4]]})"))), "ok [2, 3, 4] float32");
  EXPECT_EQ(summarize(ort().run(make_case(R"({"op": "expand", "shapes": [[2], [1]]})"))), "ok [2] float32");
}

// The issue-34 ops by ONNX's spec: BitwiseAnd (12 & 10 is 8, -1 & 5 is 5), BitShift on uint8 (1 << 2, 3 << 7 is
// 384 mod 256, 255 >> 4, 16 >> 1), Xor on bool; operand types outside an operator's type constraint are refused
// with it; no LogAddExp operator and no in-place forms.
TEST(OnnxruntimeAdapter, BitwiseShiftAndLogicalOperators) {
  const Capabilities& caps = ort().capabilities();
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
                         "logical_and", "logical_or", "logical_xor"})
    EXPECT_TRUE(caps.ops.count(op)) << op;
  for (const char* op : {"logaddexp", "bitwise_and_", "logical_or_"}) EXPECT_FALSE(caps.ops.count(op)) << op;
  const Outcome band = ort().run(make_case(R"({"op": "bitwise_and", "shapes": [[2], [2]], "dtypes": ["int32", "int32"],
      "values": {"data": [[12, -1], [10, 5]]}})"));
  EXPECT_EQ(summarize(band), "ok [2] int32");
  EXPECT_EQ(band.values, Values(std::vector<int64_t>{8, 5}));
  const Outcome left = ort().run(make_case(R"({"op": "bitwise_left_shift", "shapes": [[2], [2]],
      "dtypes": ["uint8", "uint8"], "values": {"data": [[1, 3], [2, 7]]}})"));
  EXPECT_EQ(summarize(left), "ok [2] uint8");
  EXPECT_EQ(left.values, Values(std::vector<int64_t>{4, 128}));
  const Outcome right = ort().run(make_case(R"({"op": "bitwise_right_shift", "shapes": [[2, 1], [1]],
      "dtypes": ["uint8", "uint8"], "values": {"data": [[255, 16], [4]]}})"));
  EXPECT_EQ(summarize(right), "ok [2, 1] uint8");
  EXPECT_EQ(right.values, Values(std::vector<int64_t>{15, 1}));
  const Outcome lxor = ort().run(make_case(R"({"op": "logical_xor", "shapes": [[3], [3]], "dtypes": ["bool", "bool"],
      "values": {"data": [[true, true, false], [true, false, false]]}})"));
  EXPECT_EQ(summarize(lxor), "ok [3] bool");
  EXPECT_EQ(lxor.values, Values(std::vector<int64_t>{0, 1, 0}));
  const Outcome flags = ort().run(make_case(R"({"op": "bitwise_or", "shapes": [[1], [1]], "dtypes": ["bool", "bool"]})"));
  EXPECT_EQ(flags.status, Status::unsupported);
  EXPECT_EQ(flags.detail, "ONNX BitwiseOr takes uint8, int8, int16, int32, int64 only, not bool");
  const Outcome floats = ort().run(make_case(R"({"op": "logical_and", "shapes": [[1], [1]]})"));
  EXPECT_EQ(floats.status, Status::unsupported);
  EXPECT_EQ(floats.detail, "ONNX And takes bool only, not float32");
}

TEST(OnnxruntimeAdapter, ProductsAndReductions) {
  // [2, 1, 2] @ [2, 1]: the batch of two rows [1, 2] and [3, 4] times the column [5, 6].
  const Outcome mm = ort().run(make_case(R"({"op": "matmul", "shapes": [[2, 1, 2], [2, 1]],
      "values": {"data": [[1, 2, 3, 4], [5, 6]]}})"));
  EXPECT_EQ(summarize(mm), "ok [2, 1, 1] float32");
  EXPECT_EQ(mm.values, (std::vector<double>{17, 39}));
  // addmm(c, a, b, beta=0.5, alpha=2) is Gemm(a, b, c): 2 * [[1, 2], [3, 4]] @ I + 0.5 * [10, 20].
  const Outcome gemm = ort().run(make_case(R"({"op": "addmm", "shapes": [[2], [2, 2], [2, 2]],
      "scalars": {"alpha": 2, "beta": 0.5}, "values": {"data": [[10, 20], [1, 2, 3, 4], [1, 0, 0, 1]]}})"));
  EXPECT_EQ(summarize(gemm), "ok [2, 2] float32");
  EXPECT_EQ(gemm.values, (std::vector<double>{7, 14, 11, 18}));
  const Outcome sum = ort().run(make_case(R"({"op": "sum", "shapes": [[2, 3]], "dims": [-1], "keepdim": true,
      "values": {"data": [[1, 2, 3, 4, 5, 6]]}})"));
  EXPECT_EQ(summarize(sum), "ok [2, 1] float32");
  EXPECT_EQ(sum.values, (std::vector<double>{6, 15}));
  const Outcome amin = ort().run(make_case(R"({"op": "amin", "shapes": [[2, 3]], "dims": [0],
      "values": {"data": [[1, 5, 3, 4, 2, 6]]}})"));
  EXPECT_EQ(amin.values, (std::vector<double>{1, 2, 3}));
}

TEST(OnnxruntimeAdapter, ValuesComeBackExactly) {
  // int64 wraps at its extremes and keeps integers beyond 2^53: none passes through a double.
  const Outcome wrap = ort().run(make_case(R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "int64"],
      "values": {"data": [[9223372036854775807, -9223372036854775808, 9007199254740993], [1, -1, 0]]}})"));
  EXPECT_EQ(wrap.values, Values(std::vector<int64_t>{INT64_MIN, INT64_MAX, 9007199254740993})) << summarize(wrap);
  const Outcome neg = ort().run(make_case(R"({"op": "neg", "shapes": [[2]], "dtypes": ["int64"],
      "values": {"data": [[-9223372036854775808, 9223372036854775807]]}})"));
  EXPECT_EQ(neg.values, Values(std::vector<int64_t>{INT64_MIN, -INT64_MAX}));
  // Doubles of 17 significant digits (16 or more after the point) and their exponents reach ONNX Runtime intact.
  const Outcome digits = ort().run(make_case(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["float64", "float64"],
      "values": {"data": [[0.30000000000000004, 1.2345678901234567e-300], [0.0, 0.0]]}})"));
  EXPECT_EQ(digits.values, (std::vector<double>{0.30000000000000004, 1.2345678901234567e-300})) << summarize(digits);
  // -0.0 keeps its sign, NaN and infinities travel as strings, float16 round-trips through its bits.
  const Outcome f = ort().run(make_case(R"({"op": "mul", "shapes": [[3], [3]], "dtypes": ["float64", "float64"],
      "values": {"data": [[0.0, "inf", 1.5], [-1.0, 0.0, 2.25]]}})"));
  ASSERT_EQ(f.values.size(), 3u) << summarize(f);
  EXPECT_TRUE(std::signbit(f.values.as_double(0)) && f.values.as_double(0) == 0);
  EXPECT_TRUE(std::isnan(f.values.as_double(1)));
  EXPECT_EQ(f.values.as_double(2), 3.375);
  const Outcome half = ort().run(make_case(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["float16", "float16"],
      "values": {"data": [[1.5, 65504], [0.25, 0]]}})"));
  EXPECT_EQ(summarize(half), "ok [2] float16");
  EXPECT_EQ(half.values, (std::vector<double>{1.75, 65504}));
  // A transposed operand (its data are the view's elements, row-major, laid out in a base the view transposes): the
  // adapter gathers the view's elements through its strides, as an ONNX user would copy them.
  const Outcome t = ort().run(make_case(R"({"op": "mul", "shapes": [[2, 2], [2]], "layouts": ["transposed", "contiguous"],
      "values": {"data": [[1, 2, 3, 4], [10, 100]]}})"));
  EXPECT_EQ(t.values, (std::vector<double>{10, 200, 30, 400}));
}

TEST(OnnxruntimeAdapter, ErrorsAreOnnxRuntimesOwnAndWhatItCannotLoadIsUnsupported) {
  const Outcome refused = ort().run(make_case(R"({"op": "add", "shapes": [[2], [3]]})"));
  EXPECT_EQ(summarize(refused), "error broadcast");
  EXPECT_NE(refused.error->message.find("Attempting to broadcast an axis by a dimension other than 1. 2 by 3"),
            std::string::npos) << refused.error->message;
  const Outcome batch = ort().run(make_case(R"({"op": "matmul", "shapes": [[4, 2, 3], [3, 3, 1]]})"));
  EXPECT_EQ(summarize(batch), "error broadcast");
  EXPECT_NE(batch.error->message.find("cannot broadcast on dim"), std::string::npos) << batch.error->message;
  const Outcome gemm = ort().run(make_case(R"({"op": "addmm", "shapes": [[3], [2, 2], [2, 2]]})"));
  EXPECT_EQ(summarize(gemm), "error expand");
  EXPECT_NE(gemm.error->message.find("Gemm: Invalid bias shape for broadcast"), std::string::npos);
  // ONNX has no type promotion: a model mixing types does not load, and ONNX Runtime's message says why.
  const Outcome mixed = ort().run(make_case(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["float32", "int64"]})"));
  EXPECT_EQ(mixed.status, Status::unsupported);
  EXPECT_NE(mixed.detail.find("bound to different types"), std::string::npos) << mixed.detail;
  const Outcome sqrt_int = ort().run(make_case(R"({"op": "sqrt", "shapes": [[2]], "dtypes": ["int64"]})"));
  EXPECT_EQ(sqrt_int.status, Status::unsupported);
  EXPECT_NE(sqrt_int.detail.find("Type Error"), std::string::npos) << sqrt_int.detail;
  // Cases ONNX cannot state are refused by the adapter with its reason.
  const Outcome alpha = ort().run(make_case(R"({"op": "add", "shapes": [[2], [2]], "scalars": {"alpha": 2}})"));
  EXPECT_EQ(alpha.status, Status::unsupported);
  EXPECT_EQ(alpha.detail, "ONNX Add and Sub have no alpha");
}

// A run finds the planted bug (every operand read as if contiguous), blames the adapter and shrinks it to a small
// non-contiguous case; the same run without the plant finds nothing new (ONNX Runtime's own departures are declared).
TEST(OnnxruntimeAdapter, APlantedBugIsFoundBlamedAndShrunk) {
  auto run = [](const std::string& env, const std::string& name) {
    const fs::path out = scratch(name);
    const CliRun r = broadcheck("run --seed 1 --cases 150 --no-config --no-replay --property values_agree --oracle "
                                "'onnxruntime=" + env + kAdapter + "' -q --out " + out.string());
    return std::make_pair(r, nlohmann::json::parse(slurp(out / "summary.json")));
  };
  const auto [clean, clean_summary] = run("", "onnxruntime-clean");
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  const auto [planted, summary] = run("env BC_ONNXRUNTIME_PLANT=strides ", "onnxruntime-planted");
  EXPECT_EQ(planted.exit_code, 1) << planted.output;
  int found = 0;
  for (const nlohmann::json& f : summary["findings"]) {
    if (f["verdict"] == "known") continue;
    EXPECT_EQ(f["minimal"]["odd_ones"], nlohmann::json::array({"onnxruntime"})) << f.dump();
    ++found;
    const nlohmann::json& c = f["minimal"]["case"];
    bool view = false;
    for (const nlohmann::json& l : c.value("layouts", nlohmann::json::array())) view = view || l != "contiguous";
    EXPECT_TRUE(view) << "the planted bug reads views wrongly: " << c.dump();
    for (const nlohmann::json& s : c["shapes"]) EXPECT_LE(s.size(), 2u) << "shrunk: " << c.dump();
    EXPECT_NE(f["adapter_commands"].value("onnxruntime", "").find("BC_ONNXRUNTIME_PLANT=strides"), std::string::npos)
        << f.dump();
  }
  EXPECT_GE(found, 1) << planted.output;
}

}  // namespace
}  // namespace bc
