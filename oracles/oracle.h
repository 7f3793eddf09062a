// One interface over the implementations under test: a case in, an outcome out. An oracle reports what its
// library really does; it never repairs an answer to agree with the others.
#pragma once

#include <memory>
#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual std::string name() const = 0;     // its registered name (harness/implementations.h): the outcomes' key
  virtual std::string version() const = 0;  // the library version the oracle was built against
  virtual Outcome run(const Case& c) = 0;
  // A hint that run(c) comes next: an oracle may start on c early (the isolated one sends it to its worker, so
  // that the workers compute while this process runs the engine). run(c) must still be called.
  virtual void submit(const Case&) {}
};

}  // namespace bc
