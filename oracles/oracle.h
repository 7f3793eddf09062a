// One interface over the implementations under test: a case in, an outcome out. An oracle reports what its
// library really does; it never repairs an answer to agree with the others.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/adapter_fault.h"
#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual std::string name() const = 0;     // its registered name (harness/implementations.h): the outcomes' key
  virtual std::string version() const = 0;  // the library version the oracle was built against
  virtual Outcome run(const Case& c) = 0;
  // A hint that cases will come: an oracle whose start is slow (an adapter's process, oracles/external_oracle.h)
  // begins it now and returns without waiting for it, so that the oracles of a set start together. Calling it is
  // never needed: what it began is finished, or done anew, by the first call that needs the oracle.
  virtual void prepare() {}
  // A hint that run(c) will come, after the runs of the cases submitted before it: an oracle may start on c early
  // (the isolated one queues it to its worker, so that the workers compute ahead while this process judges, and may
  // start a worker for it, which can take up to its timeout). Submitting a case that is queued already is a no-op.
  // run(c) must still be called.
  virtual void submit(const Case&) {}
  // The faults of its own it found since the last call that are no case's (an adapter's: harness/adapter_fault.h),
  // oldest first; the run reports each as the oracle's finding.
  virtual std::vector<AdapterFault> take_faults() { return {}; }
};

}  // namespace bc
