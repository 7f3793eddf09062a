// broadcheck's own engine served through the protocol (docs/protocol.md): a self-check of the protocol. It speaks
// protocol 2, declares everything the engine does, checks that each request's operands are exactly the ones the
// case plans (so the encoding of values and views round-trips), runs the engine oracle, its backward from the
// request's upstream gradient when it carries one, and answers its outcome. A run with
// `--oracle NAME=engine_adapter` must find it agreeing with the in-process engine on every case it is sent.
// `engine_adapter 1` speaks protocol 1 instead, and answers a request that carries an upstream gradient with an
// error (a protocol-1 adapter must be sent what protocol 1 sends).
#include <string>

#include <nlohmann/json.hpp>

#include "oracles/adapter_loop.h"
#include "oracles/engine_oracle.h"
#include "oracles/protocol.h"

namespace {

using nlohmann::json;

json answer_one(bc::Oracle& engine, const json& request, int protocol) {
  const bc::Case c = bc::case_from_json(request.at("case"));
  if (protocol == 1 && request.contains("upstream"))
    return {{"status", "error"},
            {"error", {{"kind", "other"}, {"message", "engine adapter: an upstream gradient sent in protocol 1"}}}};
  // The operands as sent, against the operands this build plans for the case: equal, or the answer says why not.
  if (bc::request_json(c, 0).at("operands") != request.at("operands"))
    return {{"status", "error"},
            {"error", {{"kind", "other"}, {"message", "engine adapter: the request's operands are not the case's"}}}};
  if (const std::optional<bc::Grad> upstream = bc::upstream_of(request))
    return bc::to_json(bc::engine_outcome_from(c, *upstream));
  return bc::to_json(engine.run(c));
}

}  // namespace

int main(int argc, char** argv) {
  const int protocol = argc > 1 && std::string(argv[1]) == "1" ? 1 : bc::kNewestProtocol;
  const auto engine = bc::make_engine_oracle();
  return bc::serve_protocol(
      [&] {
        json ops = json::array(), dtypes = json::array(), layouts = json::array();
        for (const bc::OpEntry& e : bc::op_table()) ops.push_back(e.name);
        for (bc::DType t : bc::all_dtypes()) dtypes.push_back(bc::to_string(t));
        for (bc::Layout l : bc::all_layouts()) layouts.push_back(bc::to_string(l));
        return json{{"protocol", protocol}, {"name", "broadcheck engine (protocol)"}, {"version", engine->version()},
                    {"capabilities", {{"ops", ops}, {"dtypes", dtypes}, {"layouts", layouts}, {"gradients", true},
                                      {"batch", true}, {"out", true}, {"numbers", true}}}};
      },
      [&](const json& request) { return answer_one(*engine, request, protocol); });
}
