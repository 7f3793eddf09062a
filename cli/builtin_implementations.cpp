#include "cli/builtin_implementations.h"

#include <chrono>

#include "cli/build_info.h"
#include "cli/external_implementations.h"
#include "oracles/document_oracle.h"
#include "oracles/engine_oracle.h"
#include "oracles/external_oracle.h"
#include "oracles/isolated_oracle.h"
#include "oracles/torch_oracle.h"
#include "oracles/xtensor_oracle.h"
#include "oracles/xtensor_variants.h"
#include "reports/engine_draft.h"
#include "reports/torch_draft.h"
#include "reports/xtensor_draft.h"

namespace bc {
namespace {

std::string torch_reproduction(const Case& c, const Outcome& want, const std::string& name) {
  return torch_draft(c, want, "BroadcheckRegression", name + "_LibTorch");
}

}  // namespace

const std::vector<BuiltIn>& builtin_implementations() {
  // name, title, role, reproduction, base, dtypes it must be seen to answer; factory; isolated; refusal. The order
  // is the vote order (and the columns' order).
  static const std::vector<BuiltIn> all = {
      {{"engine", "the engine", Role::rule, engine_draft, "", {}}, make_engine_oracle, false},
      {{"torch", "LibTorch", Role::reference, torch_reproduction, "", {}}, make_torch_oracle, true},
      {{"xtensor", "xtensor", Role::voter, xtensor_draft, "", {DType::int8, DType::uint8, DType::int16, DType::int32}},
       make_xtensor_oracle, true, {}, OnSigfpe::recover},
      {{"xtensor-noalias", "xtensor, xt::noalias", Role::variant, {}, "xtensor", {}}, make_xtensor_noalias_oracle, true,
       xtensor_noalias_refusal, OnSigfpe::recover},
      {{"xtensor-rank", "xtensor, xt::xtensor<T, N>", Role::variant, {}, "xtensor", {}}, make_xtensor_rank_oracle, true,
       xtensor_rank_refusal, OnSigfpe::recover},
      {{"xtensor-fixed", "xtensor, xt::xtensor_fixed", Role::variant, {}, "xtensor", {}}, make_xtensor_fixed_oracle, true,
       xtensor_fixed_refusal, OnSigfpe::recover},
      {{"xtensor-lazy", "xtensor, unevaluated", Role::variant, {}, "xtensor", {}}, make_xtensor_lazy_oracle, true,
       xtensor_lazy_refusal, OnSigfpe::recover},
      {{"documents", "the documents", Role::document, {}, "", {}}, make_document_oracle, false},
  };
  return all;
}

void register_builtin_implementations() {
  for (const BuiltIn& b : builtin_implementations()) register_implementation(b.info);
}

std::string version_text() {
  std::string text = std::string("broadcheck ") + broadcheck_commit();
  for (const BuiltIn& b : builtin_implementations()) text += "\n" + b.info.name + ": " + b.make()->version();
  return text;
}

std::vector<std::unique_ptr<Oracle>> make_all_oracles(bool isolate, int timeout_ms) {
  std::vector<std::unique_ptr<Oracle>> all;
  const std::chrono::milliseconds timeout(timeout_ms);
  for (const BuiltIn& b : builtin_implementations())
    if (find_implementation(b.info.name) && b.info.role != Role::document)
      all.push_back(!isolate || !b.isolated ? b.make()
                    : b.refuses ? make_gated_oracle(b.refuses, make_isolated_oracle(b.make, timeout, b.on_sigfpe))
                                : make_isolated_oracle(b.make, timeout, b.on_sigfpe));
  // An adapter is its own process already: isolated whatever `isolate` says. Its version is the one its handshake
  // gave when it was registered, so that a later start that is slow is a case's failure, not the run's.
  for (const ExternalSpec& e : external_implementations())
    all.push_back(std::make_unique<ExternalOracle>(e.name, e.command, timeout, e.version));
  // The documents vote last, as the registry orders them (harness/implementations.h).
  for (const BuiltIn& b : builtin_implementations())
    if (find_implementation(b.info.name) && b.info.role == Role::document) all.push_back(b.make());
  for (auto& o : all) o->prepare();  // the adapters start together, not each at its first case
  return all;
}

}  // namespace bc
