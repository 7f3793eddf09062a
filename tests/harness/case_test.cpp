// Cases as data: parsing every op, keeping unknown fields, round trips, the error for each kind of bad input,
// and which fields make up a case's identity (canonical_form).
#include "harness/case.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace bc {
namespace {

using nlohmann::json;

// Field by field, since Case has no operator== of its own.
void expect_same_case(const Case& a, const Case& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.op, b.op);
  EXPECT_EQ(a.shapes, b.shapes);
  EXPECT_EQ(a.expect, b.expect);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.note, b.note);
  EXPECT_EQ(a.tags, b.tags);
  EXPECT_EQ(a.extra, b.extra);
  EXPECT_EQ(a.requires_grad, b.requires_grad);
  EXPECT_EQ(a.grad_seed, b.grad_seed);
  EXPECT_EQ(a.modify, b.modify);
  EXPECT_EQ(a.out, b.out);
}

// The message of the CaseError that parsing `j` throws, or a marker that makes the calling assertion fail.
std::string parse_error(const json& j) {
  try {
    case_from_json(j);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "<no CaseError thrown>";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Case, ParsesEveryKnownOpWithItsArity) {
  ASSERT_EQ(op_table().size(), static_cast<size_t>(kOpCount));
  for (const OpEntry& info : op_table()) {
    SCOPED_TRACE(info.name);
    json shapes = info.arity < 0 ? json::parse("[[2, 1], [3, 1, 1], [1]]") : json::array();
    for (int i = 0; i < info.arity; ++i) shapes.push_back(json::parse("[2, 3]"));
    json j = {{"op", info.name}, {"shapes", shapes}};
    if (info.op == Op::graph) j["program"] = json::parse(R"([{"op": "add", "args": [0, 1]}])");  // it needs one
    const Case c = case_from_json(j);
    EXPECT_EQ(c.op, info.op);
    EXPECT_EQ(c.shapes.size(), shapes.size());
    EXPECT_EQ(c.shapes.front(), shapes.front().get<Shape>());
    EXPECT_EQ(&entry(c.op), &info);
  }
}

TEST(Case, KnownOpsHaveTheDocumentedFamilies) {
  EXPECT_EQ(find_op("add")->family, Family::elementwise);
  EXPECT_EQ(find_op("div_")->family, Family::inplace);
  EXPECT_EQ(find_op("broadcast_shapes")->arity, -1);
  EXPECT_EQ(find_op("expand")->family, Family::expand);
  EXPECT_EQ(find_op("sum_to")->family, Family::sum_to);
  EXPECT_EQ(find_op("matmul")->family, Family::matmul);
  EXPECT_EQ(find_op("Add"), nullptr);
  EXPECT_EQ(find_op("lerp")->arity, 3);
  EXPECT_EQ(find_op("lerp_")->family, Family::inplace);
  EXPECT_EQ(find_op("where")->arity, 3);
  EXPECT_EQ(find_op("maximum_"), nullptr);  // PyTorch has no in-place maximum
  // The list names every op of the table once, in the table's order.
  std::string expected;
  for (const OpEntry& e : op_table()) expected += (expected.empty() ? "" : ", ") + std::string(e.name);
  EXPECT_EQ(known_op_names(), expected);
  EXPECT_TRUE(contains(known_op_names(), "hypot_, neg, abs, sqrt, exp, log, sign, reciprocal, lerp"));
  EXPECT_EQ(find_op("sqrt")->arity, 1);
  EXPECT_TRUE(contains(known_op_names(), "diamond, dist"));
  EXPECT_EQ(find_op("addmm_")->family, Family::fused);
  EXPECT_EQ(find_op("addcmul")->arity, 3);
  EXPECT_EQ(find_op("unfused_addcdiv_")->family, Family::unfused);
}

TEST(Case, ScalarsKeepHowTheyWereWritten) {
  const Case c = case_from_json(json::parse(R"({"op": "addmm", "shapes": [[2], [2, 3], [3, 2]],
                                               "scalars": {"beta": 0, "alpha": 2.0}})"));
  EXPECT_EQ(scalar_of(c, "beta"), (Scalar{0, true}));
  EXPECT_EQ(scalar_of(c, "alpha"), (Scalar{2, false}));
  EXPECT_EQ(scalar_of(c, "value"), (Scalar{1, true}));  // absent: the integer 1
  EXPECT_EQ(to_json(c)["scalars"].dump(), R"({"alpha":2.0,"beta":0})");
  EXPECT_THROW(case_from_json(json::parse(R"({"op": "add", "shapes": [[1], [1]], "scalars": {"gamma": 1}})")),
               CaseError);
}

// fill_'s value may be NaN or an infinity: written as values write them ("nan", "inf", "-inf"), floats.
TEST(Case, NonFiniteScalarsAreStringsAndRoundTrip) {
  const Case c = case_from_json(json::parse(R"({"op": "fill_", "shapes": [[3]], "scalars": {"value": "-inf"}})"));
  EXPECT_EQ(scalar_of(c, "value"), (Scalar{-std::numeric_limits<double>::infinity(), false}));
  EXPECT_EQ(to_json(c)["scalars"].dump(), R"({"value":"-inf"})");
  const Case n = case_from_json(json::parse(R"({"op": "fill_", "shapes": [[3]], "scalars": {"value": "nan"}})"));
  EXPECT_TRUE(std::isnan(scalar_of(n, "value").value));
  EXPECT_TRUE(same_case(case_from_json(to_json(n)), n));
  EXPECT_THROW(case_from_json(json::parse(R"({"op": "fill_", "shapes": [[3]], "scalars": {"value": "NaN"}})")),
               CaseError);
}

TEST(Case, OutIsForTheOutOfPlaceBinaryOpsAndRoundTrips) {
  const Case c = case_from_json(json::parse(R"({"op": "floor_divide", "shapes": [[3], [1]],
                                               "out": {"shape": [2], "dtype": "int64"}})"));
  ASSERT_TRUE(c.out.has_value());
  EXPECT_EQ(c.out->shape, (Shape{2}));
  EXPECT_EQ(c.out->dtype, DType::int64);
  EXPECT_EQ(to_json(c)["out"].dump(), R"({"dtype":"int64","shape":[2]})");
  EXPECT_TRUE(same_case(c, case_from_json(to_json(c))));
  EXPECT_EQ(case_from_json(json::parse(R"({"op": "add", "shapes": [[1], [1]], "out": {"shape": []}})")).out->dtype,
            DType::float32);
  EXPECT_TRUE(contains(parse_error(json::parse(R"({"op": "add_", "shapes": [[1], [1]], "out": {"shape": [1]}})")),
                       "out-of-place pointwise binary ops"));
  EXPECT_TRUE(contains(parse_error(json::parse(R"({"op": "neg", "shapes": [[1]], "out": {"shape": [1]}})")), "\"out\""));
  EXPECT_TRUE(contains(parse_error(json::parse(R"({"op": "add", "shapes": [[1], [1]], "out": {"dtype": "int64"}})")),
                       "\"out\" must be an object"));
  EXPECT_TRUE(contains(parse_error(json::parse(R"({"op": "add", "shapes": [[1], [1]], "out": {"shape": [1], "dtype": "int4"}})")),
                       "unknown dtype"));
}

TEST(CaseErrors, NoTensorOrResultHasANegativeSize) {
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[1], [1]], "out": {"shape": [-1]}})")),
            "\"out.shape\" has a negative size: [-1]");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[1], [1]], "expect": {"shape": [2, -3]}})")),
            "\"expect.shape\" has a negative size: [2, -3]");
  // An expand target's -1 and broadcast_shapes' sizes stay allowed (their own tests above).
}

TEST(Case, ParsesAllKnownFields) {
  const Case c = case_from_json(json::parse(
      R"({"id": "seed002-ex4", "op": "add", "shapes": [[6,1,5],[3,5]], "expect": {"shape": [6,3,5]},
          "source": "002.txt", "note": "stretch both", "tags": ["near_miss", "rank3"]})"));
  EXPECT_EQ(c.id, "seed002-ex4");
  EXPECT_EQ(c.op, Op::add);
  EXPECT_EQ(c.shapes, (std::vector<Shape>{{6, 1, 5}, {3, 5}}));
  ASSERT_TRUE(c.expect.has_value());
  EXPECT_EQ(c.expect->shape, (Shape{6, 3, 5}));
  EXPECT_FALSE(c.expect->any_error);
  EXPECT_FALSE(c.expect->error.has_value());
  EXPECT_EQ(c.source, "002.txt");
  EXPECT_EQ(c.note, "stretch both");
  EXPECT_EQ(c.tags, (std::vector<std::string>{"near_miss", "rank3"}));
  EXPECT_EQ(c.extra, json::object());
}

TEST(Case, SameCaseComparesEveryFieldAndANanScalarEqualsItself) {
  const Case c = case_from_json(json::parse(
      R"({"id": "x", "op": "addcmul", "shapes": [[2,1],[3],[1]], "dtypes": ["float32", "float64", "int64"],
          "layouts": ["contiguous", "strided", "contiguous"], "scalars": {"value": 2.5},
          "values": {"data": [[1.5, "-inf"], [0, 1, 2], [9007199254740993]]}, "requires_grad": [true, false, false],
          "grad_seed": 3, "expect": {"shape": [2, 3]}, "note": "n", "tags": ["t"], "later": 1})"));
  EXPECT_TRUE(same_case(c, c));
  EXPECT_TRUE(same_case(c, case_from_json(to_json(c))));
  Case nan_value = c;  // generated cases carry NaN scalars, which JSON text cannot
  nan_value.scalars["value"] = Scalar{std::numeric_limits<double>::quiet_NaN(), false};
  EXPECT_TRUE(same_case(nan_value, Case(nan_value)));
  EXPECT_FALSE(same_case(nan_value, c));
  // Each change of one field, as its JSON would show it.
  const std::vector<std::function<void(Case&)>> changes = {
      [](Case& d) { d.op = Op::addcdiv; },
      [](Case& d) { d.shapes[1] = {1, 3}; },
      [](Case& d) { d.dtypes[0] = DType::float64; },
      [](Case& d) { d.layouts[1] = Layout::contiguous; },
      [](Case& d) { d.scalars["value"] = Scalar{2, true}; },
      [](Case& d) { d.values->data[2] = Values(std::vector<int64_t>{9007199254740992}); },
      [](Case& d) { d.requires_grad[1] = true; },
      [](Case& d) { d.grad_seed.reset(); },
      [](Case& d) { d.expect.reset(); },
      [](Case& d) { d.id = "y"; },
      [](Case& d) { d.tags.clear(); },
      [](Case& d) { d.extra["later"] = 2; },
  };
  for (size_t k = 0; k < changes.size(); ++k) {
    Case d = c;
    changes[k](d);
    EXPECT_FALSE(same_case(c, d)) << "change " << k;
    EXPECT_NE(to_json(c), to_json(d)) << "change " << k << " shows in the JSON too";
  }
}

TEST(Case, RankZeroAndSizeZeroShapesAreOrdinary) {
  const Case c = case_from_json(json::parse(R"({"op": "add", "shapes": [[], [0, 3]]})"));
  EXPECT_EQ(c.shapes, (std::vector<Shape>{{}, {0, 3}}));
  EXPECT_FALSE(c.expect.has_value());
}

TEST(Case, ParsesEachExpectationForm) {
  const Case kind = case_from_json(json::parse(R"({"op": "add", "shapes": [[2],[3]], "expect": {"error": "broadcast"}})"));
  ASSERT_TRUE(kind.expect.has_value());
  EXPECT_EQ(kind.expect->error, ErrorKind::broadcast);
  EXPECT_FALSE(kind.expect->any_error);

  const Case any = case_from_json(json::parse(R"({"op": "add", "shapes": [[2],[3]], "expect": {"error": true}})"));
  ASSERT_TRUE(any.expect.has_value());
  EXPECT_TRUE(any.expect->any_error);
  EXPECT_FALSE(any.expect->error.has_value());

  const Case text = case_from_json(json::parse(
      R"({"op": "add_", "shapes": [[1],[3]], "expect": {"error": "inplace_shape", "message": "no way"}})"));
  ASSERT_TRUE(text.expect.has_value());
  EXPECT_EQ(text.expect->error, ErrorKind::inplace_shape);
  EXPECT_EQ(text.expect->message, "no way");
}

TEST(Case, UnknownFieldsAreKeptInExtraAndWrittenBack) {
  const json in = json::parse(
      R"({"id": "x1", "op": "mul", "shapes": [[2],[2]], "dtype": "float64", "layout": {"order": "F", "strides": [1]}})");
  const Case c = case_from_json(in);
  EXPECT_EQ(c.extra, json::parse(R"({"dtype": "float64", "layout": {"order": "F", "strides": [1]}})"));
  const json out = to_json(c);
  EXPECT_EQ(out, in);
  EXPECT_EQ(out.at("dtype"), "float64");
  EXPECT_EQ(out.at("layout").at("strides"), json::array({1}));
}

TEST(Case, RoundTripsThroughJson) {
  const std::vector<std::string> lines = {
      R"({"id": "a", "op": "add", "shapes": [[6,1,5],[3,5]], "expect": {"shape": [6,3,5]}, "source": "s", "note": "n"})",
      R"({"op": "sub_", "shapes": [[1,3,1],[3,3,7]], "expect": {"error": "inplace_shape", "message": "old text"}})",
      R"({"op": "broadcast_shapes", "shapes": [[], [0], [4,1]], "tags": ["rank0", "size0"], "future_field": true})",
      R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true, false], "grad_seed": 3, "modify": 1, "values": {"seed": 1}})",
      R"({"op": "expand", "shapes": [[3,1],[-1,4]], "expect": {"error": true, "message": "m"}})",
      R"({"op": "matmul", "shapes": [[2,3],[3]], "expect": {"shape": [2]}})",
  };
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    const Case c = case_from_json(json::parse(line));
    const Case again = case_from_json(to_json(c));
    expect_same_case(again, c);
    EXPECT_EQ(to_json(again), json::parse(line));
  }
}

TEST(Case, GivenInt64DataRoundTripsExactly) {
  const std::string line = R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "float64"],
      "values": {"data": [[9007199254740993, 9223372036854775807, -9223372036854775808], [-0.0, "nan", 2.0]]}})";
  const Case c = case_from_json(json::parse(line));
  ASSERT_TRUE(c.values && c.values->data.size() == 2);
  EXPECT_EQ(c.values->data[0], Values(std::vector<int64_t>{9007199254740993, std::numeric_limits<int64_t>::max(),
                                                           std::numeric_limits<int64_t>::min()}));
  const std::string text = to_json(c).dump();
  EXPECT_NE(text.find("[9007199254740993,9223372036854775807,-9223372036854775808]"), std::string::npos) << text;
  EXPECT_NE(text.find(R"([-0.0,"nan",2.0])"), std::string::npos) << text;
  const Case back = case_from_json(json::parse(text));
  EXPECT_EQ(back.values, c.values);
  EXPECT_EQ(canonical_form(back), canonical_form(c));
}

TEST(Case, GradientFieldsAreChecked) {
  auto reason = [](const std::string& line) { return parse_error(json::parse(line)); };
  EXPECT_EQ(reason(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true]})"),
            "\"requires_grad\" names 1 operands, the case has 2");
  EXPECT_EQ(reason(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true, 1], "values": {"seed": 1}})"),
            "\"requires_grad\" must be an array of booleans, one per operand");
  EXPECT_EQ(reason(R"({"op": "mul", "shapes": [[2],[1]], "modify": 2, "values": {"seed": 1}})"),
            "\"modify\" names operand 2, the case has 2");
  EXPECT_TRUE(is_gradient_case(case_from_json(json::parse(R"({"op": "diamond", "shapes": [[2],[1]], "requires_grad": [false, true], "values": {"seed": 1}})"))));
  EXPECT_FALSE(is_gradient_case(case_from_json(json::parse(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [false, false]})"))));
}

TEST(Case, ToJsonLeavesOutEmptyOptionalFields) {
  Case c;
  c.op = Op::div;
  c.shapes = {{2}, {1}};
  EXPECT_EQ(to_json(c), json::parse(R"({"op": "div", "shapes": [[2],[1]]})"));
}

TEST(Case, ExpectationToJson) {
  Expectation e;
  e.any_error = true;
  e.message = "boom";
  EXPECT_EQ(to_json(e), json::parse(R"({"error": true, "message": "boom"})"));
  Expectation s;
  s.shape = Shape{};
  EXPECT_EQ(to_json(s), json::parse(R"({"shape": []})"));
}

TEST(CaseErrors, UnknownOpListsTheValidOps) {
  const std::string msg = parse_error(json::parse(R"({"op": "addd", "shapes": [[2], [2]]})"));
  EXPECT_TRUE(contains(msg, "unknown op \"addd\"")) << msg;
  EXPECT_TRUE(contains(msg, known_op_names())) << msg;
  EXPECT_TRUE(contains(msg, "broadcast_shapes")) << msg;
}

TEST(CaseErrors, MissingOpListsTheValidOps) {
  const std::string msg = parse_error(json::parse(R"({"shapes": [[2], [2]]})"));
  EXPECT_TRUE(contains(msg, "missing \"op\"")) << msg;
  EXPECT_TRUE(contains(msg, "matmul")) << msg;
}

TEST(CaseErrors, UnknownErrorKindListsTheValidKinds) {
  const std::string msg =
      parse_error(json::parse(R"({"op": "add", "shapes": [[2],[3]], "expect": {"error": "brodcast"}})"));
  EXPECT_TRUE(contains(msg, "unknown error kind \"brodcast\"")) << msg;
  EXPECT_TRUE(contains(msg, error_kind_names())) << msg;
  EXPECT_TRUE(contains(msg, "inplace_shape")) << msg;
}

TEST(CaseErrors, WrongArityNamesTheOpAndTheCounts) {
  const std::string three = parse_error(json::parse(R"({"op": "add", "shapes": [[2], [2], [2]]})"));
  EXPECT_EQ(three, "op \"add\" takes 2 shapes, got 3");
  const std::string one = parse_error(json::parse(R"({"op": "matmul", "shapes": [[2, 3]]})"));
  EXPECT_EQ(one, "op \"matmul\" takes 2 shapes, got 1");
  const std::string none = parse_error(json::parse(R"({"op": "add", "shapes": []})"));
  EXPECT_EQ(none, "op \"add\" takes 2 shapes, got 0");
}

TEST(Case, BroadcastShapesTakesAnyNumberOfShapesNoneIncludedAndNegativeSizes) {
  EXPECT_TRUE(case_from_json(json::parse(R"({"op": "broadcast_shapes", "shapes": []})")).shapes.empty());
  const Case c = case_from_json(json::parse(R"({"op": "broadcast_shapes", "shapes": [[2, -1], [-3]]})"));
  EXPECT_EQ(c.shapes, (std::vector<Shape>{{2, -1}, {-3}}));
}

TEST(Case, AGradientCaseWithoutValuesRunsOnSeedZerosAndIsWrittenBackWithout) {
  const json line = json::parse(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true, false]})");
  const Case c = case_from_json(line);
  ASSERT_TRUE(c.values.has_value());
  EXPECT_EQ(*c.values, ValueSpec{});
  EXPECT_TRUE(c.default_values);
  EXPECT_EQ(to_json(c), line);
  // Saying the seed outright is another case (it is written back), though it runs on the same values.
  const Case said = case_from_json(json::parse(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true, false], "values": {"seed": 0}})"));
  EXPECT_FALSE(said.default_values);
  EXPECT_FALSE(same_case(c, said));
  // modify, like requires_grad, takes the default values.
  EXPECT_TRUE(case_from_json(json::parse(R"({"op": "mul", "shapes": [[2],[1]], "requires_grad": [true, true], "modify": 1})")).values);
}

TEST(CaseErrors, NegativeSizeOutsideAnExpandTargetOrBroadcastShapesIsRefused) {
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2, -1], [2]]})")), "\"shapes[0]\" has a negative size -1");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "sum_to", "shapes": [[2, 3], [-1]]})")), "\"shapes[1]\" has a negative size -1");
  // The source of an expand may not be negative either; only its target may.
  EXPECT_EQ(parse_error(json::parse(R"({"op": "expand", "shapes": [[-1], [3]]})")), "\"shapes[0]\" has a negative size -1");
}

TEST(CaseErrors, NegativeSizesInAnExpandTargetAreAllowed) {
  const Case c = case_from_json(json::parse(R"({"op": "expand", "shapes": [[3, 1], [-1, 4]]})"));
  EXPECT_EQ(c.shapes[1], (Shape{-1, 4}));
  const Case probe = case_from_json(json::parse(R"({"op": "expand", "shapes": [[3], [-2]]})"));
  EXPECT_EQ(probe.shapes[1], (Shape{-2}));
}

TEST(CaseErrors, SizesBeyondInt64AreRefusedNotWrapped) {
  const json expand = json::parse(R"({"op": "expand", "shapes": [[3], [18446744073709551615]]})");
  const std::string msg = parse_error(expand);
  EXPECT_NE(msg, "<no CaseError thrown>");
  EXPECT_TRUE(contains(msg, "shapes[1]")) << msg;
  const json add = json::parse(R"({"op": "add", "shapes": [[9223372036854775808], [1]]})");
  EXPECT_FALSE(contains(parse_error(add), "negative")) << parse_error(add);
}

TEST(CaseErrors, ExpectWithShapeAndErrorIsRefused) {
  const std::string msg =
      parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {"shape": [2], "error": "broadcast"}})"));
  EXPECT_EQ(msg, "\"expect\" gives both a shape and an error");
  const std::string any =
      parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {"shape": [2], "error": true}})"));
  EXPECT_EQ(any, "\"expect\" gives both a shape and an error");
}

TEST(CaseErrors, OtherMalformedExpectations) {
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {}})")),
            "\"expect\" needs \"shape\" or \"error\"");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {"shape": [2], "message": "m"}})")),
            "\"expect.message\" goes with an error");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {"error": false}})")),
            "\"expect.error\" must be an error kind or true");
  const std::string extra = parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": {"dtype": "f"}})"));
  EXPECT_TRUE(contains(extra, "unknown field \"expect.dtype\"")) << extra;
  const std::string not_object = parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "expect": [2]})"));
  EXPECT_TRUE(contains(not_object, "\"expect\" must be an object")) << not_object;
}

TEST(CaseErrors, MalformedShapesAndFieldsNameTheField) {
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add"})")), "missing \"shapes\"");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2], [2.5]]})")),
            "\"shapes[1]\" must be an array of integers, got [2.5]");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2], 3]})")),
            "\"shapes[1]\" must be an array of integers, got 3");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": {"a": [2]}})")), "\"shapes\" must be an array of shapes");
  EXPECT_EQ(parse_error(json::parse(R"({"op": 7, "shapes": [[2],[2]]})")), "\"op\" must be a string");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "id": 3, "shapes": [[2],[2]]})")), "\"id\" must be a string");
  EXPECT_EQ(parse_error(json::parse(R"({"op": "add", "shapes": [[2],[2]], "tags": ["a", 1]})")),
            "\"tags\" must be an array of strings");
  EXPECT_EQ(parse_error(json::parse(R"([1, 2])")), "a case must be a JSON object");
}

TEST(CanonicalForm, IgnoresIdSourceNoteTagsAndExpect) {
  const Case bare = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[3]]})"));
  const Case dressed = case_from_json(json::parse(
      R"({"id": "z", "op": "add", "shapes": [[2,3],[3]], "expect": {"error": true}, "source": "doc",
          "note": "why", "tags": ["t"]})"));
  EXPECT_EQ(canonical_form(dressed), canonical_form(bare));
  EXPECT_EQ(canonical_form(bare), R"({"op":"add","shapes":[[2,3],[3]]})");
}

TEST(CanonicalForm, DependsOnShapesOpAndUnknownFields) {
  const Case base = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[3]]})"));
  const Case other_shape = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[1]]})"));
  const Case swapped = case_from_json(json::parse(R"({"op": "add", "shapes": [[3],[2,3]]})"));
  const Case other_op = case_from_json(json::parse(R"({"op": "sub", "shapes": [[2,3],[3]]})"));
  const Case with_extra = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[3]], "dtype": "int8"})"));
  const Case other_extra = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[3]], "dtype": "int16"})"));
  EXPECT_NE(canonical_form(other_shape), canonical_form(base));
  EXPECT_NE(canonical_form(swapped), canonical_form(base));
  EXPECT_NE(canonical_form(other_op), canonical_form(base));
  EXPECT_NE(canonical_form(with_extra), canonical_form(base));
  EXPECT_NE(canonical_form(other_extra), canonical_form(with_extra));
  EXPECT_EQ(canonical_form(with_extra), R"({"dtype":"int8","op":"add","shapes":[[2,3],[3]]})");
}

TEST(CanonicalForm, FieldOrderDoesNotMatter) {
  const Case a = case_from_json(json::parse(R"({"zeta": 1, "op": "add", "alpha": 2, "shapes": [[2],[2]]})"));
  const Case b = case_from_json(json::parse(R"({"shapes": [[2],[2]], "alpha": 2, "op": "add", "zeta": 1})"));
  EXPECT_EQ(canonical_form(a), canonical_form(b));
}

TEST(Case, DescribeIsReadable) {
  const Case c = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,3],[3]]})"));
  EXPECT_EQ(describe(c), "add([2, 3], [3])");
  const Case r0 = case_from_json(json::parse(R"({"op": "broadcast_shapes", "shapes": [[]]})"));
  EXPECT_EQ(describe(r0), "broadcast_shapes([])");
}

}  // namespace
}  // namespace bc

namespace bc {
namespace {

// A reduction's arguments round-trip, show in describe(), take part in same_case, and belong to reductions only.
TEST(CaseReduction, DimsKeepdimAndDtypeArgRoundTrip) {
  const nlohmann::json j = nlohmann::json::parse(
      R"({"op": "sum", "shapes": [[2, 3]], "dims": [0, -1], "keepdim": true, "dtype_arg": "float64"})");
  const Case c = case_from_json(j);
  EXPECT_EQ(c.dims, (std::vector<int64_t>{0, -1}));
  EXPECT_TRUE(c.keepdim);
  EXPECT_EQ(c.dtype_arg, DType::float64);
  EXPECT_EQ(to_json(c), j);
  EXPECT_EQ(describe(c), "sum([2, 3], dims=[0, -1], keepdim, dtype=float64)");
  Case other = c;
  other.dims = std::vector<int64_t>{};
  EXPECT_FALSE(same_case(c, other));
  EXPECT_EQ(to_json(other)["dims"], nlohmann::json::array());  // dim=[] is kept apart from no dims
  other.dims.reset();
  EXPECT_FALSE(to_json(other).contains("dims"));
}

TEST(CaseReduction, ArgumentsAreRefusedWhereTheyMeanNothing) {
  EXPECT_THROW(case_from_json(nlohmann::json::parse(R"({"op": "add", "shapes": [[2], [2]], "dims": [0]})")), CaseError);
  EXPECT_THROW(case_from_json(nlohmann::json::parse(R"({"op": "amax", "shapes": [[2]], "dtype_arg": "int64"})")),
               CaseError);
  EXPECT_THROW(case_from_json(nlohmann::json::parse(R"({"op": "sum", "shapes": [[2]], "dims": [0.5]})")), CaseError);
  EXPECT_THROW(case_from_json(nlohmann::json::parse(R"({"op": "sum", "shapes": [[2]], "keepdim": 1})")), CaseError);
  EXPECT_THROW(case_from_json(nlohmann::json::parse(R"({"op": "sum", "shapes": [[2]], "dtype_arg": "int8x"})")),
               CaseError);
}

}  // namespace
}  // namespace bc
