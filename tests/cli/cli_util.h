// Running the broadcheck binary from a test: its exit code and output, a scratch folder, file helpers.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_paths.h"

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

// A run's findings (summary.json's) that are not known and name `name` alone as the odd one out: what a planted bug
// in that implementation must produce.
[[maybe_unused]] std::vector<nlohmann::json> findings_blaming(const nlohmann::json& summary, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& f : summary["findings"])
    if (f["verdict"] != "known" && f["minimal"]["odd_ones"] == nlohmann::json::array({name})) out.push_back(f);
  return out;
}

[[maybe_unused]] CliRun broadcheck(const std::string& args) {
  const fs::path log = scratch("log.txt");
  // Without GITHUB_STEP_SUMMARY: tests run in a CI job must not write to its page.
  const std::string cmd = std::string("env -u GITHUB_STEP_SUMMARY " + bc::test_binary_dir() + "/broadcheck ") + args +
                          " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(log)};
}

// Starts build/broadcheck with `args` (no shell), its stdout and stderr into `log`; returns its pid.
[[maybe_unused]] pid_t start_broadcheck(const std::vector<std::string>& args, const fs::path& log) {
  const std::string binary = bc::test_binary_dir() + "/broadcheck";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::unsetenv("GITHUB_STEP_SUMMARY");
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

[[maybe_unused]] int exit_code_of(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

[[maybe_unused]] std::vector<std::string> lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

[[maybe_unused]] nlohmann::json summary_without_timing(const fs::path& dir) {
  nlohmann::json j = nlohmann::json::parse(slurp(dir / "summary.json"));
  for (const char* timing : {"started_at", "seconds", "arguments", "shard"}) j.erase(timing);
  return j;
}

// report.html without the rows that differ from run to run: start, duration, command line (--out differs).
[[maybe_unused]] std::string report_without_timing(const fs::path& dir) {
  std::string out;
  std::istringstream in(slurp(dir / "report.html"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("<tr><th>started</th>", 0) != 0 && line.rfind("<tr><th>duration</th>", 0) != 0 &&
        line.rfind("<tr><th>command line</th>", 0) != 0)
      out += line + "\n";
  return out;
}

// The case lines of a results.jsonl: every line but the per-property count lines at its end (reports/README.md).
[[maybe_unused]] std::vector<std::string> case_lines(const fs::path& p) {
  std::vector<std::string> out;
  for (const std::string& l : lines(p))
    if (l.rfind("{\"counts\":", 0) != 0) out.push_back(l);
  return out;
}

// A declarations file with the corpus's declarations of nondeterministic implementations only (LibTorch's baddbmm
// with beta 0, tfjs-wasm's and ONNX Runtime's kernels over size-0 dims read uninitialised memory): the others left
// out, the differences they explain are findings that two runs must agree on, while numbers that change from process
// to process are still withheld, as they would be from any two runs. tfjs-wasm's kernels whose answer depends on what
// its memory holds (its faults of declarations_replay_test's kWithoutOwnCase, the bool kernels that read garbage) are
// kept too: as findings, their shrinking differs from process to process.
[[maybe_unused]] std::string nondeterministic_declarations_only() {
  const fs::path file = scratch("nondeterministic-only.jsonl");
  std::ofstream out(file);
  for (const std::string& line : lines(fs::path(bc::test_source_dir()) / "corpus" / "known_divergences.jsonl")) {
    const nlohmann::json d = nlohmann::json::parse(line);
    const std::string id = d.value("id", "");
    if (d.value("on", "") == "nondeterministic" || id == "tfjs-wasm-reciprocal-bool-out-of-bounds" ||
        id == "tfjs-wasm-where-mixed-branches-fault" || id == "tfjs-wasm-bool-kernels-read-garbage")
      out << line << "\n";
  }
  return file.string();
}

}  // namespace
