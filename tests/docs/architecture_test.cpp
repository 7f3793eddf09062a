// docs/ARCHITECTURE.md kept true: the files it says adding a pointwise binary op touches are the files that name
// one such op (hypot), found by reading the clone.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "test_paths.h"

namespace bc {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

// The files the document lists under `heading`: the first `...` of each "- " line after it, up to a blank line.
std::set<std::string> listed_files(const std::string& document, const std::string& heading) {
  std::set<std::string> files;
  const size_t at = document.find(heading);
  if (at == std::string::npos) return files;
  std::istringstream lines(document.substr(at));
  std::string line;
  std::getline(lines, line);  // the heading's own line
  while (std::getline(lines, line) && !line.empty()) {
    if (line.rfind("- `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    files.insert(line.substr(3, end - 3));
  }
  return files;
}

// The files under `root` that name `word` (in any case), outside the folders that talk about the ops rather than
// implement them (docs, corpus, tests) and those that are not the project's sources (builds, node_modules, .git).
std::set<std::string> files_naming(const fs::path& root, const std::string& word) {
  std::set<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory()) {
      const bool skipped = name == "docs" || name == "corpus" || name == "tests" || name == "node_modules" ||
                           name.rfind("build", 0) == 0 || name.rfind(".", 0) == 0;
      if (skipped) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && lower(read(it->path())).find(word) != std::string::npos)
      files.insert(fs::relative(it->path(), root).generic_string());
  }
  return files;
}

std::string joined(const std::set<std::string>& files) {
  std::string text;
  for (const std::string& f : files) text += "  " + f + "\n";
  return text;
}

TEST(Architecture, TheFilesAPointwiseBinaryOpTouchesAreTheFilesNamingHypot) {
  const fs::path root = test_source_dir();
  const std::set<std::string> listed =
      listed_files(read(root / "docs/ARCHITECTURE.md"),
                   "Adding a pointwise binary op with a backward (as `hypot` was added) touches");
  ASSERT_FALSE(listed.empty()) << "docs/ARCHITECTURE.md lists no file for adding a pointwise binary op";
  const std::set<std::string> naming = files_naming(root, "hypot");
  EXPECT_EQ(listed, naming) << "docs/ARCHITECTURE.md lists:\n" << joined(listed) << "the files naming hypot:\n"
                            << joined(naming);
}

// The reader itself: a heading's list ends at the first blank line, and a "- " line without a path is skipped.
TEST(Architecture, ReadsTheListUnderItsHeading) {
  const std::string document = "intro\nThe list touches:\n- `a/b.cpp`: one;\n- `c.h` and more\nnot a bullet\n\n- `d.cpp`\n";
  EXPECT_EQ(listed_files(document, "The list touches"), (std::set<std::string>{"a/b.cpp", "c.h"}));
  EXPECT_TRUE(listed_files(document, "Another heading").empty());
}

}  // namespace
}  // namespace bc
