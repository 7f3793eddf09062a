// A fault of an adapter's that is no case's own (docs/protocol.md, "Faults of an adapter"): it did not recur when
// the cases in the adapter's hands ran again one by one in a fresh adapter (one failing there alone in another), and it did recur when a fresh adapter
// was sent the same requests again (or they were too many to send again). It is that adapter's finding and fails
// the run; the cases keep the answers they got alone.
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

struct Finding;

struct AdapterFault {
  std::string oracle;            // the adapter's name
  Status status = Status::crash;  // crash (a death, a malformed or oversized answer) or timeout
  std::string detail;            // what happened, how it was checked, and the end of the adapter's stderr
  long request = 0;              // the failing request's place among those its process had been sent, from 1
  Case c;                        // the oldest case in its hands then
  std::string reproduction;      // a shell command that sends the adapter those requests again; "" when over 64 KiB
};

// The finding of `f`: key and signature "adapter_fault | NAME | crash", property and family "adapter", odd one out
// NAME, the fault as NAME's outcome on its case, `reproduction` as its adapter command; it is neither shrunk nor
// re-run.
Finding fault_finding(const AdapterFault& f);

}  // namespace bc
