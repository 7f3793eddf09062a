// An adapter's fault as a finding: keyed by the adapter and the kind of failure, the adapter the only odd one out,
// new (it fails the run), its outcome the fault, and a reproduction or a note saying why there is none.
#include "harness/adapter_fault.h"

#include <gtest/gtest.h>

#include "harness/run_record.h"

namespace bc {
namespace {

AdapterFault fault(Status status, std::string reproduction) {
  AdapterFault f;
  f.oracle = "mylib";
  f.status = status;
  f.detail = "mylib adapter: exited (SIGABRT) at request 30 of its process";
  f.request = 30;
  f.c = case_from_json(nlohmann::json::parse(R"({"op": "add", "shapes": [[2], [1]]})"));
  f.reproduction = std::move(reproduction);
  return f;
}

TEST(AdapterFault, IsANewFindingOfThatAdapterAlone) {
  const Finding f = fault_finding(fault(Status::crash, "printf ... | mylib\n"));
  EXPECT_EQ(f.key, "adapter_fault | mylib | crash");
  EXPECT_EQ(f.signature, f.key);
  EXPECT_EQ(f.property, "adapter");
  EXPECT_TRUE(f.is_new());
  EXPECT_FALSE(f.shrunk);
  EXPECT_EQ(f.minimal.judgement.odd_ones, std::vector<std::string>{"mylib"});
  ASSERT_EQ(f.minimal.outcomes.size(), 1u);
  EXPECT_EQ(f.minimal.outcomes[0].first, "mylib");
  EXPECT_EQ(f.minimal.outcomes[0].second.status, Status::crash);
  EXPECT_EQ(f.minimal.outcomes[0].second.detail, "mylib adapter: exited (SIGABRT) at request 30 of its process");
  ASSERT_EQ(f.minimal.judgement.differences.size(), 1u);
  EXPECT_FALSE(f.minimal.judgement.differences[0].declared());
  // The requests sent again are the adapter's own shell command; the draft points at it.
  ASSERT_EQ(f.adapter_commands.count("mylib"), 1u);
  EXPECT_EQ(f.adapter_commands.at("mylib"), "printf ... | mylib\n");
  EXPECT_NE(f.regression_draft.find("adapter command"), std::string::npos) << f.regression_draft;
  EXPECT_EQ(finding_from_json(to_json(f)).key, f.key) << "it survives summary.json (merge, --jobs)";
}

TEST(AdapterFault, AHangIsATimeoutFindingAndALongHistoryHasANoteForReproduction) {
  const Finding f = fault_finding(fault(Status::timeout, ""));
  EXPECT_EQ(f.key, "adapter_fault | mylib | timeout");
  EXPECT_TRUE(f.adapter_commands.empty());
  EXPECT_EQ(f.regression_draft.rfind("// The requests before the fault are too long", 0), 0u) << f.regression_draft;
}

}  // namespace
}  // namespace bc
