// The registry of implementations: order, replacement, roles, reserved names; and what reads it (declarations name
// registered implementations only, run records read any implementation's outcomes back in the registry's order).
#include "harness/implementations.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/known_divergence.h"
#include "registered.h"
#include "harness/run_record.h"

namespace bc {
namespace {

// tests/test_panel.cpp registered engine (rule), torch (reference) and xtensor before main().
TEST(Implementations, RegistrationOrderIsVoteOrder) {
  ASSERT_GE(implementations().size(), 3u);
  EXPECT_EQ(implementations()[0].name, "engine");
  EXPECT_EQ(name_with_role(Role::rule), "engine");
  EXPECT_EQ(name_with_role(Role::reference), "torch");
  EXPECT_EQ(implementation_names(), "engine, torch, xtensor");
  EXPECT_EQ(title_of("torch"), "LibTorch");
  EXPECT_EQ(title_of("nobody"), "nobody");
}

TEST(Implementations, ReRegisteringReplacesInPlace) {
  register_implementation({"xtensor", "xtensor 0.24", Role::voter, {}, "", {}});
  EXPECT_EQ(implementations().size(), 3u);
  EXPECT_EQ(implementations()[2].title, "xtensor 0.24");
  register_implementation({"xtensor", "xtensor", Role::voter, {}, "", {}});
  const Registered numpy("numpy");
  EXPECT_EQ(implementation_names(), "engine, torch, xtensor, numpy");
}

TEST(Implementations, ReservedNamesAndSecondRolesAreRefused) {
  EXPECT_THROW(register_implementation({"", "x", Role::voter, {}, "", {}}), std::invalid_argument);
  EXPECT_THROW(register_implementation({"document", "x", Role::voter, {}, "", {}}), std::invalid_argument);
  EXPECT_THROW(register_implementation({"numpy unfused", "x", Role::voter, {}, "", {}}), std::invalid_argument);
  EXPECT_THROW(register_implementation({"other", "x", Role::rule, {}, "", {}}), std::invalid_argument);
  EXPECT_THROW(register_implementation({"other", "x", Role::reference, {}, "", {}}), std::invalid_argument);
  EXPECT_EQ(find_implementation("other"), nullptr);
  unregister_implementation("nobody");
  EXPECT_EQ(implementation_names(), "engine, torch, xtensor");
}

// The documents' voter stays last whoever registers after it, and there is at most one.
TEST(Implementations, TheDocumentRoleVotesLast) {
  EXPECT_STREQ(to_string(Role::document), "document");
  const Registered documents("documents", Role::document);
  const Registered numpy("numpy");
  EXPECT_EQ(implementation_names(), "engine, torch, xtensor, numpy, documents");
  EXPECT_EQ(name_with_role(Role::document), "documents");
  EXPECT_THROW(register_implementation({"other", "x", Role::document, {}, "", {}}), std::invalid_argument);
}

// A declaration may name an implementation that is not in this run (an optional adapter not installed): it is
// inactive, and listed as such, until that implementation is registered.
TEST(Implementations, DeclarationsOfAbsentImplementationsAreInactive) {
  const std::vector<Declaration> decls = {
      declaration_from_json(nlohmann::json::parse(R"({"id": "n", "oracle": "numpy", "reason": "r", "reference": "r"})")),
      declaration_from_json(nlohmann::json::parse(R"({"id": "t", "oracle": "torch", "reason": "r", "reference": "r"})")),
      declaration_from_json(nlohmann::json::parse(R"({"id": "d", "oracle": "document", "reason": "r", "reference": "r"})"))};
  EXPECT_EQ(inactive_oracles(decls), std::vector<std::string>{"numpy"});
  const Registered numpy("numpy");
  EXPECT_TRUE(inactive_oracles(decls).empty());
}

TEST(Implementations, RunRecordsReadEveryImplementationInRegistryOrder) {
  const Registered numpy("numpy");
  const nlohmann::json line = nlohmann::json::parse(R"({"property": "p", "case": {"op": "add", "shapes": [[1], [1]]},
      "verdict": "agree", "outcomes": {"zlib": {"status": "unsupported"}, "numpy": {"status": "unsupported"},
      "xtensor": {"status": "unsupported"}, "engine": {"status": "unsupported"},
      "engine unfused": {"status": "unsupported"}, "alpha": {"status": "unsupported"}}})");
  std::vector<std::string> names;
  for (const auto& [name, o] : case_record_from_json(line).outcomes) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"engine", "engine unfused", "xtensor", "numpy", "alpha", "zlib"}));
}

}  // namespace
}  // namespace bc
