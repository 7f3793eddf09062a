#include "harness/console.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace bc {
namespace {

bool g_drawn = false;  // a progress line is on the terminal's current row

}  // namespace

int console_columns() {
  if (const char* env = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n < 100000) return static_cast<int>(n);
  }
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::string fit_to_columns(const std::string& line, int columns) {
  if (columns < 2) return "";
  const size_t room = static_cast<size_t>(columns - 1);
  size_t shown = 0, at = 0;
  while (at < line.size() && shown < room) {
    ++at;  // past the lead byte, then past its continuation bytes (10xxxxxx)
    while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) ++at;
    ++shown;
  }
  return line.substr(0, at);
}

void console_progress(const std::string& line) {
  if (!::isatty(STDERR_FILENO)) {
    std::cerr << line << "\n";
    return;
  }
  std::cerr << "\r\033[K" << fit_to_columns(line, console_columns()) << std::flush;
  g_drawn = true;
}

void console_end_progress() {
  if (!g_drawn) return;
  std::cerr << "\r\033[K" << std::flush;
  g_drawn = false;
}

void console_message(const std::string& text) {
  console_end_progress();
  std::cerr << text << std::flush;
}

}  // namespace bc
