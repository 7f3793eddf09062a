#include "cli/outputs.h"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace bc {

namespace fs = std::filesystem;

const std::vector<std::string>& output_file_names() {
  static const std::vector<std::string> names = {"results.jsonl", "summary.json", "summary.md", "junit.xml", "report.html"};
  return names;
}

OutputFolder::~OutputFolder() { abandon(); }

void OutputFolder::abandon() {
  if (staging_.empty()) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
  staging_.clear();
}

// Removes the outputs of an earlier run from `out`: "" or the reason one could not be removed.
static std::string remove_earlier_outputs(const std::string& out, const std::vector<std::string>& keep) {
  for (const std::string& name : output_file_names()) {
    if (std::find(keep.begin(), keep.end(), name) != keep.end()) continue;
    std::error_code ec;
    if (fs::is_directory(fs::path(out) / name, ec)) continue;  // no run wrote that; the move into place will say so
    fs::remove(fs::path(out) / name, ec);
    if (ec) return (fs::path(out) / name).string() + ": cannot remove an earlier run's output: " + ec.message();
  }
  return "";
}

std::string OutputFolder::open(const std::string& out, Earlier earlier) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return out + ": cannot create the output folder: " + ec.message();
  if (!fs::is_directory(out, ec)) return out + ": the output folder is not a folder";
  std::string pattern = (fs::path(out) / ".broadcheck-partial-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return out + ": cannot write into the output folder: " + std::strerror(errno);
  out_ = out;
  staging_ = pattern;
  return earlier == Earlier::remove ? remove_earlier_outputs(out, {}) : "";
}

std::string OutputFolder::path(const std::string& name) const { return (fs::path(staging_) / name).string(); }

std::string OutputFolder::commit() {
  std::error_code ec;
  std::vector<std::string> written;
  for (const auto& entry : fs::directory_iterator(staging_, ec)) written.push_back(entry.path().filename().string());
  if (ec) return staging_ + ": cannot list the outputs: " + ec.message();
  if (std::string failed = remove_earlier_outputs(out_, written); !failed.empty()) return failed;
  for (const std::string& name : written) {
    fs::rename(fs::path(staging_) / name, fs::path(out_) / name, ec);
    if (ec) return (fs::path(out_) / name).string() + ": cannot move the output into place: " + ec.message();
  }
  fs::remove(staging_, ec);
  staging_.clear();
  return "";
}

}  // namespace bc
