// results_line writes the JSON that to_json(record) would build: held together on generated records (cases from
// the property generators, outcomes with every status, NaN, infinities, -0.0, extreme doubles and hostile text).
#include "reports/results_line.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/product_gen.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

rc::Gen<double> any_value() {
  return rc::gen::oneOf(rc::gen::arbitrary<double>(),
                        rc::gen::element(0.0, -0.0, 3.0, 0.5, 1e-300, -2.5e300, 123456789012345678.0,
                                         std::numeric_limits<double>::quiet_NaN(),
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity(),
                                         std::numeric_limits<double>::denorm_min()));
}

// Values of a dtype's kind (harness/values.h): any int64, the extremes and 2^53 + 1 included, or any double.
Values any_values(const std::string& dtype) {
  if (holds_integers(dtype))
    return Values(*rc::gen::container<std::vector<int64_t>>(rc::gen::oneOf(
        rc::gen::arbitrary<int64_t>(), rc::gen::element<int64_t>(std::numeric_limits<int64_t>::min(),
                                                                 std::numeric_limits<int64_t>::max(),
                                                                 9007199254740993, -1, 0))));
  return *rc::gen::container<std::vector<double>>(any_value());
}

rc::Gen<std::string> any_text() {
  // Any ASCII, control characters included (messages are ASCII; invalid UTF-8 is not JSON text at all).
  const auto ascii = rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127));
  return rc::gen::oneOf(ascii,
                        rc::gen::element<std::string>("", "quote \" backslash \\ tab \t newline \n",
                                                      "<script>alert(1)</script>", "größe [2, 3] ≠ [4]"));
}

Outcome any_outcome() {
  Outcome o;
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      o = Outcome::success(*rc::gen::container<Shape>(rc::gen::inRange<int64_t>(0, 6)),
                           *rc::gen::element<std::string>("float32", "int64", "bool", "float64"));
      o.values = any_values(o.dtype);
      if (*rc::gen::arbitrary<bool>())
        for (int k = *rc::gen::inRange(0, 3); k > 0; --k) {
          if (*rc::gen::arbitrary<bool>()) o.grads.push_back(std::nullopt);
          else o.grads.push_back(Grad{*rc::gen::container<Shape>(rc::gen::inRange<int64_t>(0, 4)), "float64",
                                      *rc::gen::container<std::vector<double>>(any_value())});
        }
      break;
    case 1: o = Outcome::failure(*rc::gen::element(ErrorKind::broadcast, ErrorKind::dtype_mismatch, ErrorKind::other), *any_text()); break;
    case 2: o.status = Status::crash; o.detail = "SIGFPE"; break;
    default: o = Outcome::unsupported_because(*any_text()); break;
  }
  return o;
}

}  // namespace

RC_GTEST_PROP(ResultsLine, IsTheJsonOfTheRecord, ()) {
  CaseRecord r;
  r.property = *rc::gen::element<std::string>("values_agree", "fused_agree", "addc_equivalence");
  r.c = *rc::gen::oneOf(gen::value_case(), gen::fused_case(), gen::addc_case(), gen::grad_case());
  if (*rc::gen::arbitrary<bool>()) r.c.note = *any_text();
  for (const char* name : {"engine", "engine unfused", "torch", "xtensor"})
    if (*rc::gen::arbitrary<bool>()) r.outcomes.emplace_back(name, any_outcome());
  r.judgement.verdict = *rc::gen::element(Verdict::agree, Verdict::discrepancy, Verdict::known);
  if (r.judgement.verdict != Verdict::agree) {
    r.judgement.difference = "values";
    r.judgement.odd_ones = {"torch"};
    r.judgement.attribution = *any_text();
    r.judgement.signature = *any_text();
    r.judgement.known_id = *rc::gen::element<std::string>("", "a,b");
    const int n = *rc::gen::inRange(0, 3);
    for (int k = 0; k < n; ++k)
      r.judgement.differences.push_back(
          {*rc::gen::element<std::string>("status", "values", "grad values"),
           *rc::gen::element(FindingClass::outcome, FindingClass::message, FindingClass::zeros),
           *rc::gen::inRange(-1, 3), {"torch"}, *any_text(),
           *rc::gen::element(std::vector<std::string>{}, std::vector<std::string>{"a", "b"}),
           *rc::gen::element(std::vector<std::string>{}, std::vector<std::string>{"xtensor"}),
           *rc::gen::element(Verdict::discrepancy, Verdict::expect_failed)});
  }
  r.seq = *rc::gen::inRange<long>(-1, 100000);

  const std::string line = results_line(r);
  RC_ASSERT(line.find('\n') == std::string::npos);  // one line
  const nlohmann::json parsed = nlohmann::json::parse(line);
  RC_ASSERT(parsed == to_json(r));
  // Every double reads back bit for bit (nlohmann's equality cannot tell -0.0 from 0.0).
  const CaseRecord back = case_record_from_json(parsed);
  RC_ASSERT(back.outcomes == r.outcomes);
  RC_ASSERT(back.judgement.differences == r.judgement.differences);
}

TEST(ResultsLine, KeysComeInNlohmannsOrder) {
  CaseRecord r;
  r.property = "corpus";
  r.c = case_from_json(nlohmann::json::parse(R"({"op": "addmm", "shapes": [[2], [2, 3], [3, 2]], "scalars": {"beta": 0,
      "alpha": 2.5}, "id": "x", "dtypes": ["float32", "float32", "float64"], "values": {"seed": 4, "class": "rounding"}})"));
  r.outcomes = {{"torch", Outcome::success({2, 2})}, {"engine", Outcome::failure(ErrorKind::dtype_mismatch, "m")}};
  r.judgement.verdict = Verdict::known;
  r.judgement.known_id = "d";
  EXPECT_EQ(results_line(r), to_json(r).dump());
}

TEST(ResultsLine, BytesThatAreNotUtf8ShowAsEscapesAndTheLineStaysJson) {
  // An implementation's message may carry any bytes; nlohmann's dump() would throw (type_error 316) on them.
  CaseRecord r;
  r.property = "corpus";
  r.c = case_from_json(nlohmann::json::parse(R"({"op": "add", "shapes": [[2], [3]]})"));
  r.outcomes = {{"torch", Outcome::failure(ErrorKind::broadcast, "bad \xFF byte")}};
  r.judgement.verdict = Verdict::discrepancy;
  r.judgement.attribution = "x\xC3";
  const std::string line = results_line(r);
  const nlohmann::json parsed = nlohmann::json::parse(line);  // throws on invalid UTF-8
  EXPECT_EQ(parsed["outcomes"]["torch"]["error"]["message"], "bad \\xFF byte");
  EXPECT_EQ(parsed["attribution"], "x\\xC3");
}

}  // namespace bc
