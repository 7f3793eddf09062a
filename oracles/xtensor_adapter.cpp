// The xtensor oracle built to see undefined behaviour, served through the protocol (docs/protocol.md) as
// engine_adapter serves the engine: compiled with XTENSOR_ENABLE_ASSERT (xtensor_assert_adapter) or with
// AddressSanitizer and UndefinedBehaviorSanitizer (xtensor_asan_adapter), and for bool, int64 and float32 only
// (BC_XTENSOR_FEW_DTYPES, declared in the handshake). An assertion of xtensor's or a sanitizer's report ends the
// process (SIGABRT) after writing the report's first lines on stderr, which broadcheck makes the case's `crash`
// detail; everything else is the xtensor oracle's own answer (docs/notes/xtensor-debug-builds.md).
#include <string>

#include <nlohmann/json.hpp>

#include "oracles/adapter_loop.h"
#include "oracles/protocol.h"
#include "oracles/xtensor_oracle.h"
#include "oracles/xtensor_report.h"

namespace {

using nlohmann::json;

#ifdef XTENSOR_ENABLE_ASSERT
constexpr const char* kBuild = "XTENSOR_ENABLE_ASSERT";
#else
constexpr const char* kBuild = "AddressSanitizer and UndefinedBehaviorSanitizer";
#endif

json answer_one(bc::Oracle& xtensor, const json& request) {
  const bc::Outcome o = xtensor.run(bc::case_from_json(request.at("case")));
  // With XTENSOR_ENABLE_ASSERT, xtensor's assertions throw std::runtime_error, which the oracle answers as an error
  // like any other of xtensor's exceptions: told apart by their text, they end the process here.
  if (o.status == bc::Status::error && o.error && bc::is_xtensor_assertion(o.error->message))
    bc::die_with_report("xtensor assertion: " + o.error->message);
  return bc::to_json(o);
}

}  // namespace

int main() {
  bc::report_sanitizers_first_lines();
  const auto xtensor = bc::make_xtensor_oracle();
  return bc::serve_protocol(
      [&] {
        json ops = json::array(), dtypes = json::array(), layouts = json::array();
        for (const bc::OpEntry& e : bc::op_table()) ops.push_back(e.name);
        for (bc::DType t : bc::compiled_dtypes()) dtypes.push_back(bc::to_string(t));
        for (bc::Layout l : bc::all_layouts()) layouts.push_back(bc::to_string(l));
        return json{{"protocol", bc::kNewestProtocol}, {"name", bc::xtensor_version() + " with " + kBuild},
                    {"version", xtensor->version()},
                    {"capabilities", {{"ops", ops}, {"dtypes", dtypes}, {"layouts", layouts}, {"gradients", true},
                                      {"batch", true}, {"out", true}}}};
      },
      [&](const json& request) { return answer_one(*xtensor, request); });
}
