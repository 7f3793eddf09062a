// results.jsonl's writer: a batch's findings are on disk once the batch ends; agreements wait for the buffer.
#include "reports/jsonl_writer.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "properties/shape_gen.h"

namespace bc {
namespace {

CaseRecord record_with(Verdict verdict) {
  CaseRecord r{"values_agree", gen::make_case(Op::add, {{2}, {2}}, {}), {}, {}};
  r.judgement.verdict = verdict;
  r.judgement.signature = "values_agree | elementwise | shape | odd: torch | add";
  return r;
}

// What another reader (a CI step tailing the file, or a person after `kill -9`) sees now.
long lines_on_disk(const std::string& path) {
  std::ifstream in(path);
  long n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("broadcheck-jsonl-writer-" + name)).string();
}

TEST(JsonlWriter, AFindingIsOnDiskWhenItsBatchEnds) {
  const std::string path = temp_path("finding.jsonl");
  JsonlWriter out(path, ResultsMode::findings);
  out.write(record_with(Verdict::agree));  // not kept: findings only
  out.write(record_with(Verdict::known));
  out.write(record_with(Verdict::discrepancy));
  out.end_batch();
  EXPECT_EQ(lines_on_disk(path), 2);
}

// One flush per batch, not per line: a batch of agreements (kept by --results all) stays in the buffer (a few
// hundred bytes against libstdc++'s 8 KiB), and the next line that is not an agreement takes it along.
TEST(JsonlWriter, AgreementsWaitForTheBufferOrTheNextFinding) {
  const std::string path = temp_path("agreements.jsonl");
  JsonlWriter out(path, ResultsMode::all);
  out.write(record_with(Verdict::agree));
  out.write(record_with(Verdict::agree));
  out.end_batch();
  EXPECT_EQ(lines_on_disk(path), 0);
  out.write(record_with(Verdict::known));
  EXPECT_EQ(lines_on_disk(path), 0);  // until its batch ends
  out.end_batch();
  EXPECT_EQ(lines_on_disk(path), 3);
  out.finish();
  EXPECT_EQ(lines_on_disk(path), 4);  // and the property's count line
}

}  // namespace
}  // namespace bc
