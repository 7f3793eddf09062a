// The protocol as data: the handshake's checks, which cases an adapter is not sent, the request's encoding of
// values (NaN, infinities, -0.0, int64 extremes) and layouts, protocol 2's upstream gradient, and every way an answer
// can be malformed.
#include "oracles/protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace bc {
namespace {

using nlohmann::json;
Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

const char* kHello = R"({"protocol": 1, "name": "Lib", "version": "2.0", "capabilities": {"ops": ["add", "cumsum"],
    "dtypes": ["float32", "int64", "complex64"], "layouts": ["contiguous"], "gradients": false}})";

std::string error_of(const std::string& hello) {
  try {
    capabilities_from_hello(hello);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Protocol, HandshakeDeclaresCapabilitiesAndSetsAsideUnknownNames) {
  const Capabilities caps = capabilities_from_hello(kHello);
  EXPECT_EQ(caps.name, "Lib");
  EXPECT_EQ(caps.version, "2.0");
  EXPECT_EQ(caps.ops, (std::set<std::string>{"add"}));
  EXPECT_EQ(caps.dtypes, (std::set<std::string>{"float32", "int64"}));
  EXPECT_EQ(caps.ignored, (std::vector<std::string>{"op cumsum", "dtype complex64"}));
  EXPECT_FALSE(caps.gradients);
}

TEST(Protocol, HandshakeErrorsSayWhatIsWrong) {
  EXPECT_NE(error_of("hello").find("the handshake is not JSON"), std::string::npos);
  EXPECT_EQ(error_of(R"({"protocol": 3})"), "the handshake speaks protocol 3; this broadcheck speaks 1 to 2");
  EXPECT_EQ(error_of(R"({"protocol": "2"})"), "the handshake speaks protocol \"2\"; this broadcheck speaks 1 to 2");
  EXPECT_NE(error_of(R"({"protocol": 1, "name": "x", "version": "1", "capabilities": {"ops": "add"}})")
                .find("\"capabilities.ops\" must be an array of strings"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"protocol": 1, "version": "1"})").find("malformed"), std::string::npos);
}

TEST(Protocol, CasesOutsideTheCapabilitiesAreNotSent) {
  const Capabilities caps = capabilities_from_hello(kHello);
  EXPECT_EQ(undeclared(caps, make_case(R"({"op": "add", "shapes": [[2], [2]]})")), std::nullopt);
  EXPECT_EQ(undeclared(caps, make_case(R"({"op": "sub", "shapes": [[2], [2]]})")),
            "not declared by the adapter: op sub");
  EXPECT_EQ(undeclared(caps, make_case(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["float32", "bool"]})")),
            "not declared by the adapter: dtype bool");
  EXPECT_EQ(undeclared(caps, make_case(R"({"op": "add", "shapes": [[2, 2], [2]], "layouts": ["transposed", "contiguous"]})")),
            "not declared by the adapter: layout transposed");
  EXPECT_EQ(undeclared(caps, make_case(R"({"op": "add", "shapes": [[2], [2]], "requires_grad": [true, false], "values": {"seed": 1}})")),
            "not declared by the adapter: gradients");
}

// Protocol 2: broadcheck offers both versions; an adapter answering 2 with gradients is sent every gradient case,
// grad_seed ones included; one answering 1 (or 2 without gradients) gets what protocol 1 gives.
TEST(Protocol, AnAdapterOptsIntoProtocol2ByItsHandshake) {
  const json hello = json::parse(hello_line());
  EXPECT_EQ(hello["protocol"], 1) << "a protocol-1 adapter reads only this";
  EXPECT_EQ(hello["protocols"], json::parse("[1, 2]"));
  EXPECT_EQ(capabilities_from_hello(kHello).protocol, 1);
  json two = json::parse(kHello);
  two["protocol"] = 2;
  two["capabilities"]["gradients"] = true;
  const Capabilities caps2 = capabilities_from_hello(two.dump());
  EXPECT_EQ(caps2.protocol, 2);
  EXPECT_TRUE(sends_upstream(caps2));
  two["capabilities"]["gradients"] = false;
  EXPECT_FALSE(sends_upstream(capabilities_from_hello(two.dump())));
  json one = json::parse(kHello);
  one["capabilities"]["gradients"] = true;
  const Capabilities caps1 = capabilities_from_hello(one.dump());
  EXPECT_FALSE(sends_upstream(caps1));
  const Case seeded = make_case(
      R"({"op": "add", "shapes": [[2], [2]], "requires_grad": [true, false], "values": {"seed": 1}, "grad_seed": 7})");
  EXPECT_EQ(undeclared(caps2, seeded), std::nullopt);
  EXPECT_EQ(undeclared(caps1, seeded), "an upstream gradient other than ones (grad_seed) is not in protocol 1");
}

// The upstream gradient of each request, worked out by hand: the result's shape and dtype under the rule (broadcast
// shape, promoted dtype; self for an in-place op; a graph's last node), ones without grad_seed, else splitmix64
// halves (harness/operands.cpp; the halves below computed apart, in Python, from the seed's state
// seed * 0x100000001b3 + 0x5eed). No upstream without upstream=true, in a case that is no gradient case, or where the
// rule finds an error.
TEST(Protocol, Protocol2RequestsCarryTheUpstreamGradient) {
  const Case ones = make_case(
      R"({"op": "add", "shapes": [[2, 1], [3]], "dtypes": ["float32", "float64"], "requires_grad": [true, false]})");
  EXPECT_EQ(request_json(ones, 1, true)["upstream"],
            json::parse(R"({"shape": [2, 3], "dtype": "float64", "values": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]})"));
  EXPECT_FALSE(request_json(ones, 1).contains("upstream")) << "protocol 1";
  const Case inplace = make_case(R"({"op": "mul_", "shapes": [[2, 2], [2]], "requires_grad": [false, true],
      "values": {"seed": 4}, "grad_seed": 7})");
  EXPECT_EQ(request_json(inplace, 1, true)["upstream"],
            json::parse(R"({"shape": [2, 2], "dtype": "float32", "values": [-2.0, 1.0, -4.0, -3.0]})"));
  const Case graph = make_case(R"({"op": "graph", "shapes": [[3], [2, 1]], "dtypes": ["float64", "float64"],
      "program": [{"op": "mul", "args": [0, 1]}, {"op": "neg", "args": [2]}], "requires_grad": [true, true],
      "values": {"seed": 9}, "grad_seed": 3})");
  const json batch = json::parse(batch_line({&graph, &ones}, 5, true));
  EXPECT_EQ(batch["batch"][0]["upstream"],
            json::parse(R"({"shape": [2, 3], "dtype": "float64", "values": [-3.5, -1.0, -2.0, -1.5, -3.5, 1.5]})"));
  EXPECT_EQ(batch["batch"][1]["upstream"]["shape"], json::parse("[2, 3]"));
  EXPECT_FALSE(json::parse(batch_line({&graph}, 5))["batch"][0].contains("upstream")) << "protocol 1";
  const Case error = make_case(R"({"op": "add", "shapes": [[2], [3]], "requires_grad": [true, true]})");
  EXPECT_FALSE(request_json(error, 1, true).contains("upstream")) << "no result to start backward from";
  const Case forward = make_case(R"({"op": "add", "shapes": [[2], [2]], "values": {"seed": 1}})");
  EXPECT_FALSE(request_json(forward, 1, true).contains("upstream"));
}

// An adapter in C++ reads the upstream gradient back exactly, or learns why it is malformed.
TEST(Protocol, TheUpstreamGradientReadsBack) {
  const Case inplace = make_case(R"({"op": "mul_", "shapes": [[2, 2], [2]], "requires_grad": [false, true],
      "values": {"seed": 4}, "grad_seed": 7})");
  const std::optional<Grad> g = upstream_of(request_json(inplace, 1, true));
  ASSERT_TRUE(g);
  EXPECT_EQ(*g, (Grad{{2, 2}, "float32", Values(std::vector<double>{-2.0, 1.0, -4.0, -3.0})}));
  EXPECT_EQ(upstream_of(request_json(inplace, 1)), std::nullopt);
  auto refused = [](const char* upstream) {
    try {
      upstream_of(json::parse(std::string(R"({"upstream": )") + upstream + "}"));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused(R"({"shape": [2], "dtype": "float32", "values": [1, "-inf"]})"), "accepted");
  EXPECT_EQ(refused(R"({"shape": [2], "dtype": "float32", "values": [1]})"), "1 values for shape [2]");
  EXPECT_EQ(refused(R"({"shape": [1], "dtype": "half", "values": [1]})"), "unknown dtype \"half\"");
  EXPECT_NE(refused(R"({"dtype": "float32", "values": []})").find("the upstream gradient is malformed"), std::string::npos);
}

TEST(Protocol, RequestsCarryExactValuesAndTheViews) {
  const Case c = make_case(R"({"op": "add", "shapes": [[4], [2, 2]], "dtypes": ["float64", "int64"],
      "layouts": ["contiguous", "transposed"], "values": {"data": [[1.5, 0, 0, 0], [-9223372036854775808, 4611686018427387904, -1, 0]]}})");
  Case with_specials = c;
  with_specials.values->data[0] = {std::nan(""), std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(), -0.0};
  const std::string line = request_line(with_specials, 42);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const json j = json::parse(line);
  EXPECT_EQ(j["id"], 42);
  EXPECT_EQ(j["case"]["op"], "add");
  EXPECT_EQ(j["operands"][0]["base"], json::parse(R"(["nan", "inf", "-inf", -0.0])"));
  EXPECT_TRUE(std::signbit(j["operands"][0]["base"][3].get<double>())) << line;
  // The transposed int64 operand: its base holds the values with the last two dims swapped, read exactly.
  EXPECT_EQ(j["operands"][1]["base"], json::parse("[-9223372036854775808, -1, 4611686018427387904, 0]"));
  EXPECT_EQ(j["operands"][1]["base"][0].get<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(j["operands"][1]["strides"], json::parse("[1, 2]"));
  EXPECT_EQ(j["operands"][1]["layout"], "transposed");
}

TEST(Protocol, Int64ValuesBeyondDoublesGoAndComeBackExactly) {
  const Case c = make_case(R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "bool"],
      "values": {"data": [[9007199254740993, 9223372036854775807, -9223372036854775808], [1, 0, 1]]}})");
  const json j = json::parse(request_line(c, 1));
  EXPECT_EQ(j["operands"][0]["base"], json::parse("[9007199254740993, 9223372036854775807, -9223372036854775808]"));
  EXPECT_EQ(j["operands"][1]["base"], json::parse("[true, false, true]"));
  EXPECT_EQ(j["case"]["values"]["data"][0][0].get<int64_t>(), 9007199254740993) << j["case"].dump();
  const Outcome o = outcomes_from_answer(
      R"({"id": 2, "outcome": {"status": "ok", "shape": [4], "dtype": "int64",
          "values": [9007199254740993, 9223372036854775807, -9223372036854775808, "-9223372036854775807"]}})",
      2, {&c})[0];
  EXPECT_EQ(o.values, Values(std::vector<int64_t>{9007199254740993, std::numeric_limits<int64_t>::max(),
                                                  std::numeric_limits<int64_t>::min(), -9223372036854775807}));
  const Outcome b = outcomes_from_answer(
      R"({"id": 3, "outcome": {"status": "ok", "shape": [3], "dtype": "bool", "values": [true, 0, 1]}})", 3, {&c})[0];
  EXPECT_EQ(b.values, Values(std::vector<int64_t>{1, 0, 1}));
  // An int64 result must hold integers: 2.5 is not one (a float holding an integer, 2.0, is taken as 2).
  EXPECT_THROW(outcomes_from_answer(R"({"id": 4, "outcome": {"status": "ok", "shape": [1], "dtype": "int64",
                                        "values": [2.5]}})", 4, {&c}),
               std::runtime_error);
  const Outcome two = outcomes_from_answer(
      R"({"id": 5, "outcome": {"status": "ok", "shape": [1], "dtype": "int64", "values": [2.0]}})", 5, {&c})[0];
  EXPECT_EQ(two.values, Values(std::vector<int64_t>{2}));
}

TEST(Protocol, ShapeRulesSendNoOperands) {
  const json j = json::parse(request_line(make_case(R"({"op": "expand", "shapes": [[3, 1], [-1, 4]]})"), 1));
  EXPECT_TRUE(j["operands"].empty());
}

TEST(Protocol, AnswersBecomeOutcomes) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2], [2]], "values": {"seed": 1}})");
  const Outcome o = outcomes_from_answer(
      R"({"id": 3, "outcome": {"status": "ok", "shape": [2], "dtype": "float64", "values": ["nan", "-9007199254740993"]}})",
      3, {&c})[0];
  EXPECT_EQ(o.status, Status::ok);
  EXPECT_TRUE(std::isnan(o.values.as_double(0)));
  EXPECT_EQ(o.values.as_double(1), -9007199254740993.0);
  const Outcome e = outcomes_from_answer(
      R"({"id": 4, "outcome": {"status": "error", "error": {"kind": "broadcast", "message_latin1": "bad \u00ff byte"}}})",
      4, {&c})[0];
  EXPECT_EQ(e.error->kind, ErrorKind::broadcast);
  EXPECT_EQ(e.error->message, "bad \xff byte");
  const std::vector<Outcome> batch = outcomes_from_answer(
      R"({"id": 5, "outcomes": [{"status": "unsupported", "detail": "no"}, {"status": "error"}]})", 5, {&c, &c});
  EXPECT_EQ(batch[0].detail, "no");
  EXPECT_EQ(batch[1].error->kind, ErrorKind::other);
}

// Why the answer line to request 1 of `c` is refused, or "accepted".
std::string refusal(const std::string& line, const Case& c) {
  try {
    outcomes_from_answer(line, 1, {&c});
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Protocol, MalformedAnswersAreRefusedWithTheReason) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2], [2]], "values": {"seed": 1}})");
  auto reason = [&](const std::string& line) { return refusal(line, c); };
  EXPECT_NE(reason("garbage").find("not JSON"), std::string::npos);
  EXPECT_EQ(reason(R"({"id": 2, "outcome": {"status": "ok"}})"), "the answer has id 2, expected 1");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "fine"}})"), "unknown status \"fine\"");
  EXPECT_NE(reason(R"({"id": 1, "outcome": {"status": "ok", "dtype": "float32"}})").find("malformed"), std::string::npos);
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "ok", "shape": [2], "dtype": "half", "values": [1, 2]}})"),
            "unknown dtype \"half\"");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "ok", "shape": [2], "dtype": "float32", "values": [1]}})"),
            "1 values for shape [2]");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "ok", "shape": [2], "dtype": "float32", "values": [1, "x"]}})"),
            "not a value: \"x\"");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "error", "error": {"kind": "oops"}}})").substr(0, 26),
            "unknown error kind \"oops\";");
}

// Past the limits an answer is refused with the limit named: nesting, and a text over kMaxAnswerText bytes (a text
// at the limit is kept).
TEST(Protocol, AnswersOverTheLimitsAreRefused) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2], [2]]})");
  auto reason = [&](const std::string& line) { return refusal(line, c); };
  const std::string deep = std::string(kMaxJsonDepth - 2, '[') + std::string(kMaxJsonDepth - 2, ']');
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "unsupported", "x": )" + deep + "}}"), "accepted");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "unsupported", "x": [)" + deep + "]}}"),
            "the answer nests deeper than 32 levels");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "unsupported", "x": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}})"),
            "accepted") << "brackets in a string do not nest";
  const std::string most(kMaxAnswerText, 'x');
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "unsupported", "detail": ")" + most + "\"}}"), "accepted");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "unsupported", "detail": "x)" + most + "\"}}"),
            "\"detail\" holds 65537 bytes; the limit is 65536");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "error", "error": {"kind": "other", "message": "x)" + most + "\"}}}"),
            "\"message\" holds 65537 bytes; the limit is 65536");
  EXPECT_EQ(reason(R"({"id": 1, "outcome": {"status": "error", "warnings": ["x)" + most + "\"]}}"),
            "\"warnings\" holds 65537 bytes; the limit is 65536");
}

// An answer line may hold 1 MiB, and 32 bytes more per value its cases' answers may hold.
TEST(Protocol, TheAnswerLineLimitFollowsWhatTheCasesMayAnswer) {
  const Case shapes = make_case(R"({"op": "add", "shapes": [[2], [2]]})");
  const Case values = make_case(R"({"op": "add", "shapes": [[2], [2]], "values": {"seed": 1}})");
  const Case grads = make_case(R"({"op": "add", "shapes": [[2, 3], [3]], "values": {"seed": 1}, "requires_grad": [true, true]})");
  EXPECT_EQ(answer_line_limit({&shapes}), size_t{1} << 20);
  EXPECT_EQ(answer_line_limit({&values}), (size_t{1} << 20) + 32 * (size_t{1} << 20));
  EXPECT_EQ(answer_line_limit({&grads}), (size_t{1} << 20) + 32 * ((size_t{1} << 20) + 9));
  EXPECT_EQ(answer_line_limit({&shapes, &values}), answer_line_limit({&values}));
}

}  // namespace
}  // namespace bc
