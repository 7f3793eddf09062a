#include "run/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "harness/console.h"

namespace bc {

ProgressLine::ProgressLine(Progress mode, double budget)
    : on_(mode != Progress::quiet), tty_(isatty(2)), budget_(budget) {}

void ProgressLine::update(const std::string& where, long cases, long fresh, long known) {
  if (!on_) return;
  const auto now = Clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.2 : 10.0)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::ostringstream line;
  line << where << ": " << cases << " cases, " << static_cast<long>(cases / std::max(elapsed, 1e-9))
       << " cases/s, " << fresh << " new, " << known << " known";
  if (budget_ > 0) line << ", " << static_cast<long>(std::max(0.0, budget_ - elapsed)) << " s left";
  console_progress(line.str());  // on a terminal, cut to its width and redrawn in place
}

void ProgressLine::finish() { console_end_progress(); }

}  // namespace bc
