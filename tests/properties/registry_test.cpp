// Each property as a GoogleTest test over every built-in implementation (RapidCheck's default 100 cases each). A case
// passes when the implementations agree or differ only in a declared way (corpus/known_divergences.jsonl).
#include "properties/registry.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "cli/builtin_implementations.h"
#include "harness/coverage.h"
#include "harness/implementations.h"
#include "harness/known_divergence.h"
#include "run/evaluate.h"
#include "test_paths.h"

namespace bc {
namespace {

std::vector<std::unique_ptr<Oracle>>& oracles() {
  // The libraries crash on some generated inputs (integer division by zero): isolated, as in a run.
  static std::vector<std::unique_ptr<Oracle>> all = make_all_oracles(true);
  return all;
}

const std::vector<Declaration>& declarations() {
  static const std::vector<Declaration> d =
      load_declarations(bc::test_source_dir() + "/corpus/known_divergences.jsonl");
  return d;
}

// Implementations that may refuse every case of a property, each with the reason. Any other implementation that
// refused all of a property's cases would let the property pass while checking nothing of it.
// (Variants are held to answering through ValuesRequireEachVariantPathToRun: they run value cases of a few ops.)
const std::map<std::pair<std::string, std::string>, std::string> kMayRefuseAll = {
    {{"autograd_inplace_agree", "xtensor"}, "xtensor has no autograd: the in-place autograd rules are not its to judge"},
    {{"autograd_inplace_agree", "documents"}, "no document states autograd's in-place rules (leaf, version counter)"},
    {{"graphs_agree", "documents"}, "no document states a program of several ops"},
    {{"reductions_agree", "documents"}, "no document states the reductions over dims"},
    {{"numbers_agree", "documents"}, "no document states how a Python number operand promotes"},
};

// Runs the property's cases (RapidCheck's default 100, its seed from RC_PARAMS) and counts, per implementation, the
// cases it answered (any status but `unsupported`).
void check_property(const std::string& name) {
  const Property* p = find_property(name);
  ASSERT_NE(p, nullptr);
  std::map<std::string, long> answered;
  long cases = 0;
  const bool ok = rc::check(name, [&] {
    const Case c = *p->gen;
    const CaseRecord r = evaluate(name, c, oracles(), declarations());
    ++cases;
    for (const auto& [impl, o] : r.outcomes) answered[impl] += o.status != Status::unsupported;
    RC_LOG() << describe(c) << ": " << to_json(r).dump() << "\n";
    RC_ASSERT(r.judgement.verdict == Verdict::agree || r.judgement.verdict == Verdict::known);
  });
  EXPECT_TRUE(ok) << name << ": a case disagrees (RapidCheck printed it above)";
  if (p->check == Check::oracles) {
    for (const auto& o : oracles()) EXPECT_TRUE(answered.count(o->name())) << name << ": " << o->name() << " never ran";
  }
  for (const auto& [impl, n] : answered) {
    std::cout << "[ ANSWERED ] " << name << " " << impl << " " << n << "/" << cases << "\n";
    const Implementation* i = find_implementation(impl.substr(0, impl.find(" unfused")));  // "torch unfused"
    if ((!i || i->role != Role::variant) && !kMayRefuseAll.count({name, impl})) {
      EXPECT_GT(n, 0) << name << ": " << impl << " refused all " << cases << " cases";
    }
  }
}

}  // namespace

TEST(Property, ElementwiseAgree) { check_property("elementwise_agree"); }
TEST(Property, InplaceAgree) { check_property("inplace_agree"); }
TEST(Property, BroadcastShapesAgree) { check_property("broadcast_shapes_agree"); }
TEST(Property, ExpandAgree) { check_property("expand_agree"); }
TEST(Property, SumToAgree) { check_property("sum_to_agree"); }
TEST(Property, MatmulAgree) { check_property("matmul_agree"); }
TEST(Property, ValuesAgree) { check_property("values_agree"); }
TEST(Property, BroadcastAlgebra) { check_property("broadcast_algebra"); }
TEST(Property, GradsAgree) { check_property("grads_agree"); }
TEST(Property, AutogradInplaceAgree) { check_property("autograd_inplace_agree"); }
TEST(Property, GradsFiniteDifference) { check_property("grads_finite_difference"); }
TEST(Property, ProductsAgree) { check_property("products_agree"); }
TEST(Property, FusedAgree) { check_property("fused_agree"); }
TEST(Property, AddcEquivalence) { check_property("addc_equivalence"); }
TEST(Property, GraphsAgree) { check_property("graphs_agree"); }

// Issue 15's classes of small graphs: a run that never drew one of them is flagged.
TEST(Property, GraphsRequireChainsDiamondsWhereExtremaAndNonFiniteIntermediates) {
  const std::vector<std::string>& required = find_property("graphs_agree")->required;
  for (const char* cls : {"graph chain", "graph diamond", "graph where", "graph maximum/minimum",
                          "non-finite intermediate", "gradient", "forward only"})
    EXPECT_NE(std::find(required.begin(), required.end(), cls), required.end()) << cls;
}

TEST(Property, ReductionsAgree) { check_property("reductions_agree"); }
TEST(Property, NumbersAgree) { check_property("numbers_agree"); }

// The numbers' property requires each kind of number, each rule-deciding class and each form it draws.
TEST(Property, NumbersRequireEachKindClassAndForm) {
  const std::vector<std::string>& required = find_property("numbers_agree")->required;
  for (const char* cls : {"number int", "number float", "number bool", "number non-finite", "number -0.0",
                          "number beyond the dtype", "number above the category", "number with a 0-d tensor",
                          "numbers only", "where", "in-place", "out=", "gradient"})
    EXPECT_NE(std::find(required.begin(), required.end(), cls), required.end()) << cls;
}

// The reductions' property requires each reduction op and each class of dims its generator builds.
TEST(Property, ReductionsRequireEachOpAndEachClassOfDims) {
  const std::vector<std::string>& required = find_property("reductions_agree")->required;
  for (const OpEntry& e : op_table()) {
    if (e.reduction) {
      EXPECT_NE(std::find(required.begin(), required.end(), std::string("op ") + e.name), required.end()) << e.name;
    }
  }
  for (const char* cls : {"no dims", "empty dims", "negative dim", "repeated dim", "out-of-range dim", "keepdim",
                          "dtype=", "rank-0 operand", "size-0 dim", "gradient"})
    EXPECT_NE(std::find(required.begin(), required.end(), cls), required.end()) << cls;
}

TEST(Property, EquivalenceRecordsEachImplementationsUnfusedOutcome) {
  // int64 addcmul with value 0.5: the fused op truncates the value, the unfused add refuses a float alpha, on the
  // engine and on LibTorch alike; both departures are declared, and the record names both declarations.
  const Case c = case_from_json(nlohmann::json::parse(
      R"({"op": "addcmul", "shapes": [[2], [2], []], "dtypes": ["int64", "int64", "int64"], "scalars": {"value": 0.5},
          "values": {"seed": 1}})"));
  const CaseRecord r = evaluate("addc_equivalence", c, oracles(), declarations());
  std::vector<std::string> names;
  for (const auto& [name, o] : r.outcomes) names.push_back(name);
  std::vector<std::string> want;  // every registered implementation, each followed by its unfused form
  for (const Implementation& i : implementations()) {
    want.push_back(i.name);
    want.push_back(i.name + " unfused");
  }
  EXPECT_EQ(names, want);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 6),
            (std::vector<std::string>{"engine", "engine unfused", "torch", "torch unfused", "xtensor", "xtensor unfused"}));
  EXPECT_EQ(r.outcomes[1].second.status, Status::error);
  EXPECT_EQ(r.judgement.verdict, Verdict::known);
  EXPECT_EQ(r.judgement.known_id.substr(0, r.judgement.known_id.find(',')), "engine-addcmul-value-truncated");
  EXPECT_NE(r.judgement.known_id.find(",torch-addcmul-value-truncated"), std::string::npos) << r.judgement.known_id;
}

TEST(Property, AlgebraViolationsAreDescribed) {
  Case c;
  c.op = Op::broadcast_shapes;
  c.shapes = {{2, 1}, {3}, {4, 1, 1}};
  EXPECT_EQ(broadcast_algebra_violation(c), "");
  c.shapes = {{2}, {3}};
  EXPECT_EQ(broadcast_algebra_violation(c), "the algebra case needs three shapes");
}

// A run flags a unary op that the value or gradient generator never drew (harness/coverage.h's "op <name>").
TEST(Property, ValueAndGradientPropertiesRequireEachUnaryOp) {
  for (const char* property : {"values_agree", "grads_agree"}) {
    const std::vector<std::string>& required = find_property(property)->required;
    for (const OpEntry& e : op_table()) {
      if (e.unary) {
        EXPECT_NE(std::find(required.begin(), required.end(), std::string("op ") + e.name), required.end())
            << property << " does not require " << e.name;
      }
    }
  }
  Coverage seen;
  seen.required["values_agree"] = find_property("values_agree")->required;
  bool flagged = false;
  for (const std::string& m : seen.missing()) flagged = flagged || m == "values_agree: op reciprocal";
  EXPECT_TRUE(flagged) << "a run without reciprocal must miss it";
}

// Each variant path (a registered implementation of role variant) must have answered some value case of a run.
TEST(Property, ValuesRequireEachVariantPathToRun) {
  const std::vector<std::string> required = required_classes(*find_property("values_agree"));
  int variants = 0;
  for (const Implementation& i : implementations()) {
    if (i.role != Role::variant) continue;
    ++variants;
    EXPECT_NE(std::find(required.begin(), required.end(), i.name + " ok"), required.end()) << i.name;
  }
  EXPECT_GE(variants, 4);
}

// Each dtype an implementation must be seen to answer is a required class of the variants' property.
TEST(Property, ValuesRequireTheDtypesEachImplementationMustAnswer) {
  const std::vector<std::string> required = required_classes(*find_property("values_agree"));
  int answers = 0;
  for (const Implementation& i : implementations())
    for (DType t : i.answers) {
      ++answers;
      EXPECT_NE(std::find(required.begin(), required.end(), i.name + " answers " + to_string(t)), required.end())
          << i.name << " " << to_string(t);
    }
  EXPECT_GE(answers, 4);  // xtensor's narrow integers
  const std::vector<std::string> shapes = required_classes(*find_property("broadcast_shapes_agree"));
  for (const std::string& cls : shapes) EXPECT_EQ(cls.find(" answers "), std::string::npos) << cls;
}

TEST(Property, NamesAreUniqueAndListed) {
  for (const Property& p : properties()) {
    EXPECT_EQ(find_property(p.name), &p);
    EXPECT_NE(property_names().find(p.name), std::string::npos);
    EXPECT_FALSE(p.required.empty()) << p.name;
  }
}

// Value classes are required per op family and dtype where they apply, and a run that never drew one misses it.
TEST(Property, ValuePropertiesRequireEachValueClassThatAppliesPerFamilyAndDtype) {
  const std::vector<std::string>& required = find_property("values_agree")->required;
  const auto requires_ = [&](const std::string& cls) {
    return std::find(required.begin(), required.end(), cls) != required.end();
  };
  for (ValueClass cls : all_value_classes())
    for (DType t : all_dtypes())
      EXPECT_EQ(requires_(value_class_cell("elementwise", t, cls)), value_class_applies(cls, t))
          << to_string(cls) << " " << to_string(t);
  EXPECT_TRUE(requires_("values inplace int8 overflow"));
  EXPECT_FALSE(requires_("values elementwise int8 subnormal"));
  Coverage seen;
  seen.required["values_agree"] = required;
  bool flagged = false;
  for (const std::string& m : seen.missing()) flagged = flagged || m == "values_agree: values elementwise float16 rounding";
  EXPECT_TRUE(flagged) << "a run without float16 rounding values must miss them";
}

}  // namespace bc
