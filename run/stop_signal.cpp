#include "run/stop_signal.h"

#include <atomic>
#include <csignal>

#include "oracles/child_process.h"

namespace bc {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  request_stop(true);  // waits on workers and adapters give up at once (oracles/child_process.h)
}

}  // namespace

void catch_stop_signals() {
  g_signal.store(0);
  request_stop(false);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

int release_stop_signals() {
  const int sig = g_signal.load();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  request_stop(false);
  return sig;
}

int stop_signal() { return g_signal.load(); }

}  // namespace bc
