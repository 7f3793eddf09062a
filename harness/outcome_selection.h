// Some of one case's named outcomes (the voters among them, say), picked without copying them: the judge looks at
// several such selections per case, and an outcome carries its values and gradients. It reads like Outcomes (size,
// indexing and iteration give the named outcomes themselves) and lives no longer than the Outcomes it points into.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "harness/outcome.h"

namespace bc {

class OutcomeSelection {
 public:
  using Named = std::pair<std::string, Outcome>;

  class Iterator {
   public:
    explicit Iterator(std::vector<const Named*>::const_iterator at) : at_(at) {}
    const Named& operator*() const { return **at_; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at_ != other.at_; }

   private:
    std::vector<const Named*>::const_iterator at_;
  };

  void add(const Named& n) { picked_.push_back(&n); }
  std::size_t size() const { return picked_.size(); }
  bool empty() const { return picked_.empty(); }
  const Named& operator[](std::size_t k) const { return *picked_[k]; }
  Iterator begin() const { return Iterator(picked_.begin()); }
  Iterator end() const { return Iterator(picked_.end()); }

  // The outcome of the implementation of that name, or nullptr.
  const Outcome* find(const std::string& name) const {
    for (const Named* n : picked_)
      if (n->first == name) return &n->second;
    return nullptr;
  }

 private:
  std::vector<const Named*> picked_;
};

}  // namespace bc
