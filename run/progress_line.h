// A run's progress on stderr (harness/console.h): a line rewritten in place on a terminal, a plain line every 10 s
// otherwise, nothing when quiet.
#pragma once

#include <chrono>
#include <string>

#include "run/run_options.h"

namespace bc {

class ProgressLine {
 public:
  ProgressLine(Progress mode, double budget);
  void update(const std::string& where, long cases, long fresh, long known);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  bool on_, tty_;
  double budget_;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

}  // namespace bc
