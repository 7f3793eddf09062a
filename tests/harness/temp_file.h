// A file with given content in the temporary folder, removed when the object goes; for tests that read files.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace bc::testing {

class TempFile {
 public:
  TempFile(const std::string& prefix, const std::string& content) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".jsonl"))
                .string();
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace bc::testing
