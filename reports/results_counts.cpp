#include "reports/results_counts.h"

namespace bc {

void ResultsCounts::add(const std::string& property, const std::string& verdict, bool written) {
  Counts& c = by_property_[property];
  ++c.cases;
  ++c.verdicts[verdict];
  c.written += written ? 1 : 0;
}

void ResultsCounts::add_line(const nlohmann::json& line) {
  const nlohmann::json& counts = line.at("counts");
  Counts& c = by_property_[line.at("property").get<std::string>()];
  c.cases += counts.at("cases").get<long>();
  c.written += counts.at("written").get<long>();
  for (const auto& [verdict, n] : counts.at("verdicts").items()) c.verdicts[verdict] += n.get<long>();
}

void ResultsCounts::set_written(const std::map<std::string, long>& written) {
  for (auto& [property, c] : by_property_) {
    auto it = written.find(property);
    c.written = it == written.end() ? 0 : it->second;
  }
}

std::vector<std::string> ResultsCounts::lines() const {
  std::vector<std::string> out;
  for (const auto& [property, c] : by_property_) {
    nlohmann::json line;
    line["property"] = property;
    line["counts"] = {{"cases", c.cases}, {"written", c.written}, {"verdicts", c.verdicts}};
    out.push_back(line.dump());
  }
  return out;
}

}  // namespace bc
