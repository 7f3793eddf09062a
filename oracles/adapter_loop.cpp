#include "oracles/adapter_loop.h"

#include <iostream>
#include <string>

namespace bc {

int serve_protocol(const std::function<nlohmann::json()>& handshake,
                   const std::function<nlohmann::json(const nlohmann::json& request)>& answer) {
  using nlohmann::json;
  std::ios::sync_with_stdio(false);
  std::string line;
  if (!std::getline(std::cin, line)) return 1;
  std::cout << handshake().dump() << std::endl;
  while (std::getline(std::cin, line)) {
    const json request = json::parse(line);
    json reply = {{"id", request.at("id")}};
    if (request.contains("batch")) {
      reply["outcomes"] = json::array();
      for (const json& one : request["batch"]) reply["outcomes"].push_back(answer(one));
    } else {
      reply["outcome"] = answer(request);
    }
    std::cout << reply.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  }
  return 0;
}

}  // namespace bc
