// torch_draft: the LibTorch call written for each op family, operands built as harness/operands.h plans them
// (values, dtypes, views, requires_grad), literals that read back exactly, and the assertions for each kind of
// rule. That the drafts compile and run the oracle's program is held against LibTorch by torch_draft_replay.
#include "reports/torch_draft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "harness/operands.h"

namespace bc {
namespace {

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

Case parse(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

TEST(TorchDraft, CallsNameTheOpWithItsScalarsAsTheCaseWritesThem) {
  EXPECT_EQ(torch_call(parse(R"({"op": "add", "shapes": [[2], [2]]})")), "at::add(t0, t1)");
  EXPECT_EQ(torch_call(parse(R"({"op": "sub_", "shapes": [[2], [2]], "scalars": {"alpha": 2.0}})")),
            "t0.sub_(t1, 2.0)");
  EXPECT_EQ(torch_call(parse(R"({"op": "add", "shapes": [[2], [2]], "scalars": {"alpha": 3}})")),
            "at::add(t0, t1, 3)");
  EXPECT_EQ(torch_call(parse(R"({"op": "lerp_", "shapes": [[2], [2], []]})")), "t0.lerp_(t1, t2)");
  EXPECT_EQ(torch_call(parse(R"({"op": "where", "shapes": [[2], [2], [2]]})")), "at::where(t0, t1, t2)");
  EXPECT_EQ(torch_call(parse(R"({"op": "reciprocal", "shapes": [[2]]})")), "at::reciprocal(t0)");
  EXPECT_EQ(torch_call(parse(R"({"op": "mm", "shapes": [[2, 3], [3, 2]]})")), "at::mm(t0, t1)");
  EXPECT_EQ(torch_call(parse(R"({"op": "addmm", "shapes": [[2], [2, 3], [3, 2]], "scalars": {"beta": 0.5}})")),
            "at::addmm(t0, t1, t2, 0.5, 1)");
  EXPECT_EQ(torch_call(parse(R"({"op": "baddbmm_", "shapes": [[1, 2, 2], [1, 2, 3], [1, 3, 2]],
                                 "scalars": {"beta": 0, "alpha": -1.5}})")),
            "t0.baddbmm_(t1, t2, 0, -1.5)");
  EXPECT_EQ(torch_call(parse(R"({"op": "addcdiv_", "shapes": [[2], [2], [2]], "scalars": {"value": 0.5}})")),
            "t0.addcdiv_(t1, t2, 0.5)");
  EXPECT_EQ(torch_call(parse(R"({"op": "unfused_addcmul", "shapes": [[2], [2], [2]], "scalars": {"value": 2}})")),
            "at::add(t0, at::mul(t1, t2), 2)");
  EXPECT_EQ(torch_call(parse(R"({"op": "unfused_addcdiv_", "shapes": [[2], [2], [2]]})")),
            "t0.add_(at::div(t1, t2), 1)");
  EXPECT_EQ(torch_call(parse(R"({"op": "diamond", "shapes": [[2], [2]]})")), "at::mul(at::add(t0, t1), t0)");
  EXPECT_EQ(torch_call(parse(R"({"op": "expand", "shapes": [[1], [-1, 3]]})")), "t0.expand({-1, 3})");
  EXPECT_EQ(torch_call(parse(R"({"op": "broadcast_shapes", "shapes": [[1], [3], []]})")),
            "at::broadcast_tensors({t0, t1, t2})[0]");
}

TEST(TorchDraft, OperandsAreTheOraclesValuesDtypesAndViews) {
  const Case c = parse(R"({"op": "add", "shapes": [[2, 3], [3]], "dtypes": ["int64", "float64"],
                           "layouts": ["transposed", "expanded"], "values": {"seed": 4}})");
  const std::vector<OperandPlan> plans = plan_operands(c);
  ASSERT_EQ(plans[0].layout, Layout::transposed);
  const std::string draft = torch_draft(c, Outcome::success({2, 3}, "float64"), "S", "n");
  std::string values0;  // the base's values as the draft must write them: integer literals
  for (int64_t v : plans[0].base_values.ints()) values0 += (values0.empty() ? "" : ", ") + std::to_string(v);
  EXPECT_TRUE(has(draft, "at::Tensor b0 = make_ints({" + values0 + "}, {3, 2}, at::kLong);")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t0 = b0.transpose(-2, -1);")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t1 = b1.expand({3});")) << draft;
  EXPECT_TRUE(has(draft, ", at::kDouble);")) << draft;
  EXPECT_FALSE(has(draft, "retain_grad")) << "nothing requires grad:\n" << draft;
  EXPECT_TRUE(has(draft, "EXPECT_EQ(r.scalar_type(), at::kDouble);")) << draft;
}

// A number operand is an at::Scalar, so that the call takes LibTorch's Scalar overload as the oracle does.
TEST(TorchDraft, ANumberOperandIsAScalarOfItsKind) {
  const std::string f = torch_draft(parse(R"({"op": "add", "shapes": [[2], {"number": 2.5}], "values": {"seed": 1}})"),
                                    Outcome::success({2}, "float32"), "S", "n");
  EXPECT_TRUE(has(f, "const at::Scalar t1 = 2.5;")) << f;
  EXPECT_TRUE(has(f, "at::add(t0, t1)")) << f;
  const std::string i = torch_draft(parse(R"({"op": "mul_", "shapes": [[2], {"number": -9223372036854775808}],
                                              "dtypes": ["int8", "int64"], "values": {"seed": 1}})"),
                                    Outcome::success({2}, "int8"), "S", "n");
  EXPECT_TRUE(has(i, "const at::Scalar t1 = int64_t{INT64_MIN};")) << i;
  const std::string b = torch_draft(parse(R"({"op": "where", "shapes": [[2], {"number": true}, {"number": "nan"}],
                                              "values": {"seed": 1}})"),
                                    Outcome::success({2}, "float32"), "S", "n");
  EXPECT_TRUE(has(b, "const at::Scalar t1 = true;") && has(b, "const at::Scalar t2 = NAN;")) << b;
}

TEST(TorchDraft, SpecialValuesAreWrittenSoThatTheyReadBackExactly) {
  Case c = parse(R"({"op": "mul", "shapes": [[5], [5]], "dtypes": ["float64", "int64"]})");
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  c.values = ValueSpec{0, false,
                       {{nan, inf, -inf, -0.0, 0.1}, {-9223372036854775808.0, 4611686018427387904.0, -1, 0, 5}}};
  Outcome rule = Outcome::success({5}, "float64");
  rule.values = {nan, inf, -inf, 0.0, 0.5};
  const std::string draft = torch_draft(c, rule, "S", "n");
  EXPECT_TRUE(has(draft, "make({NAN, INFINITY, -INFINITY, -0.0, 0.10000000000000001}, {5}, at::kDouble)")) << draft;
  EXPECT_TRUE(has(draft, "make_ints({INT64_MIN, 4611686018427387904, -1, 0, 5}, {5}, at::kLong)")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_TRUE(close(r, {NAN, INFINITY, -INFINITY, 0.0, 0.5}, 9.9999999999999995e-08, "
                         "9.9999999999999995e-08)) << r;"))
      << "float64's tolerance:\n" << draft;
}

TEST(TorchDraft, Int64ValuesAreIntegerLiteralsComparedExactly) {
  const Case c = parse(R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "int64"],
      "values": {"data": [[9007199254740993, 9223372036854775807, -9223372036854775808], [0, -1, 0]]}})");
  Outcome rule = Outcome::success({3}, "int64");
  rule.values = Values(std::vector<int64_t>{9007199254740993, 9223372036854775806, INT64_MIN});
  const std::string draft = torch_draft(c, rule, "S", "n");
  EXPECT_TRUE(has(draft, "make_ints({9007199254740993, 9223372036854775807, INT64_MIN}, {3}, at::kLong)")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_TRUE(equal_ints(r, {9007199254740993, 9223372036854775806, INT64_MIN})) << r;"))
      << draft;
  EXPECT_TRUE(has(draft, "#include <cstdint>")) << "INT64_MIN's header:\n" << draft;
  EXPECT_FALSE(has(draft, "e+18")) << "no int64 passes through a double:\n" << draft;
}

TEST(TorchDraft, GradientCasesRetainViewGradsModifyRunBackwardAndCheckEachGrad) {
  const Case c = parse(R"({"op": "mul", "shapes": [[2, 2], [2]], "layouts": ["transposed", "contiguous"],
                           "values": {"seed": 1}, "requires_grad": [true, true], "grad_seed": 9})");
  Outcome rule = Outcome::success({2, 2});
  rule.values = {1, 2, 3, 4};
  rule.grads = {Grad{{2, 2}, "float32", {1, 1, 1, 1}}, std::nullopt};
  const std::string draft = torch_draft(c, rule, "S", "n");
  EXPECT_TRUE(has(draft, "}, {2, 2}, at::kFloat).requires_grad_();\n  at::Tensor t0 = b0.transpose(-2, -1);\n"
                         "  t0.retain_grad();")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t1 = b1;\n")) << "a contiguous operand is its base, a leaf:\n" << draft;
  EXPECT_TRUE(has(draft, "r.backward(make({")) << "the seeded upstream gradient:\n" << draft;
  EXPECT_TRUE(has(draft, "ASSERT_EQ(t0.grad().sizes(), at::IntArrayRef({2, 2}));")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_TRUE(close(t0.grad(), {1.0, 1.0, 1.0, 1.0},")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_FALSE(t1.grad().defined());")) << "the rule gives t1 no gradient:\n" << draft;
}

TEST(TorchDraft, AnErrorRuleRunsTheWholeProgramAndComparesLibTorchsText) {
  Case c = parse(R"({"op": "pow", "shapes": [[2], [2]], "values": {"seed": 1}, "requires_grad": [true, false],
                     "modify": 0})");
  const Outcome rule = Outcome::failure(ErrorKind::version_counter, "one of the variables ... is at version 1");
  const std::string draft = torch_draft(c, rule, "S", "n");
  EXPECT_TRUE(has(draft, "try {\n    at::Tensor r = at::pow(t0, t1);\n    t0.add_(1);  // modified before backward\n"
                         "    r.backward(at::ones_like(r));\n    ADD_FAILURE()")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_EQ(std::string(e.what_without_backtrace()), R\"__(one of the variables ... is at "
                         "version 1)__\");")) << draft;
}

TEST(TorchDraft, NoDraftWithoutACallOrForAnOutcomeThatIsNotOkOrError) {
  EXPECT_EQ(torch_draft(parse(R"({"op": "add", "shapes": [[2], [2]]})"), Outcome::unsupported_because("x"), "S", "n"),
            "");
  Outcome crash;
  crash.status = Status::crash;
  EXPECT_EQ(torch_draft(parse(R"({"op": "add", "shapes": [[2], [2]]})"), crash, "S", "n"), "");
}

}  // namespace
}  // namespace bc
