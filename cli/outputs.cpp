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

OutputFolder::~OutputFolder() {
  if (staging_.empty()) return;
  std::error_code ignored;
  fs::remove(staging_, ignored);  // only succeeds when empty: a failed commit keeps what was written
}

std::string OutputFolder::open(const std::string& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return out + ": cannot create the output folder: " + ec.message();
  if (!fs::is_directory(out, ec)) return out + ": the output folder is not a folder";
  std::string pattern = (fs::path(out) / ".broadcheck-partial-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return out + ": cannot write into the output folder: " + std::strerror(errno);
  out_ = out;
  staging_ = pattern;
  return "";
}

std::string OutputFolder::path(const std::string& name) const { return (fs::path(staging_) / name).string(); }

std::string OutputFolder::commit() {
  std::error_code ec;
  std::vector<std::string> written;
  for (const auto& entry : fs::directory_iterator(staging_, ec)) written.push_back(entry.path().filename().string());
  if (ec) return staging_ + ": cannot list the outputs: " + ec.message();
  for (const std::string& name : output_file_names()) {
    if (std::find(written.begin(), written.end(), name) != written.end()) continue;
    fs::remove(fs::path(out_) / name, ec);
    if (ec) return (fs::path(out_) / name).string() + ": cannot remove an earlier run's output: " + ec.message();
  }
  for (const std::string& name : written) {
    fs::rename(fs::path(staging_) / name, fs::path(out_) / name, ec);
    if (ec) return (fs::path(out_) / name).string() + ": cannot move the output into place: " + ec.message();
  }
  fs::remove(staging_, ec);
  staging_.clear();
  return "";
}

}  // namespace bc
