#include "oracles/gated_oracle.h"

#include <stdexcept>
#include <utility>

namespace bc {
namespace {

class GatedOracle : public Oracle {
 public:
  GatedOracle(Refusal refuses, std::unique_ptr<Oracle> inner) : refuses_(std::move(refuses)), inner_(std::move(inner)) {
    if (!refuses_ || !inner_) throw std::invalid_argument("make_gated_oracle: no gate or no oracle");
  }
  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  void submit(const Case& c) override {
    if (!refuses_(c)) inner_->submit(c);
  }
  Outcome run(const Case& c) override {
    if (std::optional<Outcome> refused = refuses_(c)) return std::move(*refused);
    return inner_->run(c);
  }

 private:
  Refusal refuses_;
  std::unique_ptr<Oracle> inner_;
};

}  // namespace

std::unique_ptr<Oracle> make_gated_oracle(Refusal refuses, std::unique_ptr<Oracle> inner) {
  return std::make_unique<GatedOracle>(std::move(refuses), std::move(inner));
}

}  // namespace bc
