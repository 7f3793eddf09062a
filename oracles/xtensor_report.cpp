#include "oracles/xtensor_report.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

// The sanitizers' options, read before main: stop at the first report, abort (a SIGABRT the adapter layer names),
// no leak check at exit (a leak is not undefined behaviour, and the adapter's exit is no case's).
extern "C" const char* __asan_default_options() { return "halt_on_error=1:abort_on_error=1:detect_leaks=0"; }
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:abort_on_error=1:print_stacktrace=1"; }
#endif

namespace bc {

bool is_xtensor_assertion(const std::string& message) {
  for (const char* mark : {": assertion failed (", "Assertion error!\n", ": check failed\n"})
    if (message.find(mark) != std::string::npos) return true;
  return false;
}

std::string first_lines(const std::string& report) {
  std::string out;
  size_t start = 0;
  for (int n = 0; n < kReportLines && start < report.size(); ++n) {
    size_t end = report.find('\n', start);
    if (end == std::string::npos) end = report.size();
    const std::string line = report.substr(start, end - start);
    out += line.size() > kReportLineChars ? line.substr(0, kReportLineChars) + "..." : line;
    out += '\n';
    start = end + 1;
  }
  return out;
}

void die_with_report(const std::string& report) {
  const std::string text = first_lines(report);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  std::abort();
}

#ifdef __SANITIZE_ADDRESS__
namespace {

int g_report_fd = -1;

// The sanitizers' death callback: the report so far, read back from the memory file, its first lines on stderr.
void copy_first_lines() {
  static char buffer[1 << 16];
  const ssize_t got = ::pread(g_report_fd, buffer, sizeof buffer, 0);
  if (got <= 0) return;
  const std::string text = first_lines(std::string(buffer, static_cast<size_t>(got)));
  (void)!::write(2, text.data(), text.size());
}

}  // namespace

void report_sanitizers_first_lines() {
  g_report_fd = ::memfd_create("sanitizer-report", 0);
  if (g_report_fd < 0) return;  // the reports stay on stderr, whole
  __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<intptr_t>(g_report_fd)));
  __sanitizer_set_death_callback(copy_first_lines);
}
#else
void report_sanitizers_first_lines() {}
#endif

}  // namespace bc
