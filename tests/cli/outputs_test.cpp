// The output folder holds one run's consistent set or none: an earlier run's outputs are removed when a run starts,
// outputs are staged and moved into place at the end, and a staging folder never committed is removed.
#include "cli/outputs.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "cli_util.h"

namespace bc {
namespace {

fs::path fresh_folder(const std::string& name) {
  const fs::path p = scratch("outputs-" + name);
  fs::remove_all(p);
  return p;
}

std::string read(const fs::path& p) { return slurp(p); }

// A folder holding an earlier run's outputs ("old") and a file of the user's own (notes.txt, "mine").
fs::path folder_with_earlier_outputs(const std::string& name) {
  const fs::path out = fresh_folder(name);
  fs::create_directories(out);
  for (const std::string& file : output_file_names()) std::ofstream(out / file) << "old\n";
  std::ofstream(out / "notes.txt") << "mine\n";
  return out;
}

TEST(OutputFolder, WritesGoToStagingUntilCommit) {
  const fs::path out = fresh_folder("staging");
  OutputFolder folder;
  ASSERT_EQ(folder.open(out.string()), "");
  std::ofstream(folder.path("results.jsonl")) << "new\n";
  EXPECT_FALSE(fs::exists(out / "results.jsonl")) << "nothing is in place before commit";
  ASSERT_EQ(folder.commit(), "");
  EXPECT_EQ(read(out / "results.jsonl"), "new\n");
  for (const auto& entry : fs::directory_iterator(out))
    EXPECT_EQ(entry.path().filename(), "results.jsonl") << "the staging folder is gone";
}

TEST(OutputFolder, AnEarlierRunsOutputsNeverSitNextToThisRuns) {
  const fs::path out = folder_with_earlier_outputs("reused");
  OutputFolder folder;
  ASSERT_EQ(folder.open(out.string()), "");
  std::ofstream(folder.path("results.jsonl")) << "new\n";
  ASSERT_EQ(folder.commit(), "");
  EXPECT_EQ(read(out / "results.jsonl"), "new\n");
  EXPECT_FALSE(fs::exists(out / "summary.json"));
  EXPECT_FALSE(fs::exists(out / "junit.xml"));
  EXPECT_FALSE(fs::exists(out / "report.html"));
  EXPECT_EQ(read(out / "notes.txt"), "mine\n") << "files that are not outputs are left alone";
}

// A run that never commits (killed, a full disk) must not leave the earlier run's reports looking current.
TEST(OutputFolder, AnEarlierRunsOutputsAreGoneOnceARunStarts) {
  const fs::path out = folder_with_earlier_outputs("earlier");
  OutputFolder folder;
  ASSERT_EQ(folder.open(out.string()), "");
  for (const std::string& name : output_file_names()) EXPECT_FALSE(fs::exists(out / name)) << name;
  EXPECT_EQ(read(out / "notes.txt"), "mine\n") << "files that are not outputs are left alone";
}

TEST(OutputFolder, AMergeKeepsItsInputsUntilItCommits) {
  const fs::path out = fresh_folder("merge-in-place");
  fs::create_directories(out);
  std::ofstream(out / "summary.json") << "an input of the merge\n";
  OutputFolder folder;
  ASSERT_EQ(folder.open(out.string(), OutputFolder::Earlier::keep), "");
  EXPECT_EQ(read(out / "summary.json"), "an input of the merge\n");
  std::ofstream(folder.path("results.jsonl")) << "merged\n";
  ASSERT_EQ(folder.commit(), "");
  EXPECT_FALSE(fs::exists(out / "summary.json")) << "an output this merge did not write is gone once it commits";
}

// A run that cannot write its outputs (ENOSPC) leaves nothing behind in --out to keep the disk full.
TEST(OutputFolder, AStagingFolderNeverCommittedIsRemovedWithWhatItHolds) {
  const fs::path out = fresh_folder("abandoned");
  std::string staging;
  {
    OutputFolder folder;
    ASSERT_EQ(folder.open(out.string()), "");
    staging = folder.staging();
    std::ofstream(folder.path("results.jsonl")) << "half a run\n";
    fs::create_directories(folder.path("jobs/0"));
    std::ofstream(folder.path("jobs/0/results.jsonl")) << "a job's\n";
  }
  EXPECT_FALSE(fs::exists(staging));
  EXPECT_TRUE(fs::is_empty(out));
}

TEST(OutputFolder, AnOutputPathThatIsAFileIsRefusedWithItsName) {
  const fs::path parent = fresh_folder("file");
  fs::create_directories(parent);
  const fs::path file = parent / "taken";
  std::ofstream(file) << "x";
  OutputFolder folder;
  const std::string why = folder.open(file.string());
  EXPECT_EQ(why.rfind(file.string() + ": ", 0), 0u) << why;
}

// A folder nobody may write into, root included (CI runs as root): mode 0500 for others, and for root the folder
// bound read-only onto itself. Returns what undoes it, or "" with the reason it could not be made.
struct ReadOnly {
  fs::path path;
  bool mounted = false;
  std::string why_not;
  ~ReadOnly() {
    if (mounted) std::system(("umount " + path.string()).c_str());
    fs::permissions(path, fs::perms::owner_all);
  }
};

void make_read_only(ReadOnly& ro) {
  fs::permissions(ro.path, fs::perms::owner_read | fs::perms::owner_exec);
  if (::geteuid() != 0) return;
  const std::string p = ro.path.string();
  if (std::system(("mount --bind " + p + " " + p + " 2>/dev/null").c_str()) != 0) {
    ro.why_not = "mount --bind failed (no mount namespace privilege here)";
    return;
  }
  ro.mounted = true;
  if (std::system(("mount -o remount,bind,ro " + p + " 2>/dev/null").c_str()) != 0)
    ro.why_not = "remounting read-only failed";
}

TEST(OutputFolder, AnUnwritableFolderIsRefusedWithItsName) {
  const fs::path out = fresh_folder("readonly");
  fs::create_directories(out);
  ReadOnly ro{out};
  make_read_only(ro);
  if (!ro.why_not.empty()) GTEST_SKIP() << ro.why_not;
  ASSERT_FALSE(std::ofstream(out / "probe").good()) << "the folder is still writable";
  OutputFolder folder;
  const std::string why = folder.open(out.string());
  EXPECT_EQ(why.rfind(out.string() + ": cannot write into the output folder", 0), 0u) << why;
}

}  // namespace
}  // namespace bc
