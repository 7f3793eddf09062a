// Running the broadcheck binary from a test: its exit code and output, a scratch folder, file helpers.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {  // NOLINT: a header for one test binary each

struct CliRun {
  int exit_code;
  std::string output;  // stdout and stderr together
};

[[maybe_unused]] fs::path scratch(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("broadcheck-cli-test-" + std::to_string(::getpid())) / name;
  fs::create_directories(p.parent_path());
  return p;
}

[[maybe_unused]] std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

[[maybe_unused]] CliRun broadcheck(const std::string& args) {
  const fs::path log = scratch("log.txt");
  const std::string cmd = std::string(BC_BINARY_DIR "/broadcheck ") + args + " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(log)};
}

[[maybe_unused]] std::vector<std::string> lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

}  // namespace
