#include "reports/coverage_html.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "reports/html_text.h"

namespace bc {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The kinds in the order the tables list them; anything else comes last as "other".
const std::vector<std::string>& kind_order() {
  static const std::vector<std::string> order = {
      "rank", "rank 0", "size 0", "singleton vs non-singleton", "near miss", "dtype", "layout",
      "in-place vs out-of-place", "operands", "outcome", "other"};
  return order;
}

size_t kind_rank(const std::string& kind) {
  const auto& order = kind_order();
  return static_cast<size_t>(std::find(order.begin(), order.end(), kind) - order.begin());
}

}  // namespace

std::string coverage_kind(const std::string& cls) {
  if (starts_with(cls, "max rank ")) return "rank";
  if (cls == "rank-0 operand" || cls == "0-D operand") return "rank 0";
  if (cls == "size-0 dim") return "size 0";
  if (cls == "singleton vs non-singleton") return cls;
  if (cls == "near miss" || cls == "near_miss") return "near miss";
  if (starts_with(cls, "dtype ")) return "dtype";
  if (starts_with(cls, "layout ")) return "layout";
  if (cls == "in-place" || cls == "out-of-place") return "in-place vs out-of-place";
  if (ends_with(cls, " operand") || ends_with(cls, " operands")) return "operands";
  for (const char* oracle : {"engine ", "torch ", "xtensor "})
    if (starts_with(cls, oracle) && (ends_with(cls, " ok") || cls.find(" error:") != std::string::npos))
      return "outcome";
  return "other";
}

std::string coverage_html(const Coverage& cov) {
  std::string out = "<section id=\"coverage\"><h2>Generator coverage</h2>\n"
                    "<p>Cases per class, per property. A class the property's generator promises but never produced "
                    "is flagged <strong>MISSING</strong>: the generator (not the libraries) has a bug. A property's "
                    "table is folded unless a class is missing.</p>\n";
  std::set<std::string> properties;
  for (const auto& [p, classes] : cov.counts) properties.insert(p);
  for (const auto& [p, classes] : cov.required) properties.insert(p);
  if (properties.empty()) out += "<p>No coverage was recorded.</p>\n";
  for (const std::string& p : properties) {
    std::map<std::string, long> counts;
    if (auto it = cov.counts.find(p); it != cov.counts.end()) counts.insert(it->second.begin(), it->second.end());
    std::set<std::string> required;
    if (auto it = cov.required.find(p); it != cov.required.end()) required.insert(it->second.begin(), it->second.end());
    for (const std::string& cls : required) counts.emplace(cls, 0);
    std::vector<std::pair<std::string, long>> rows(counts.begin(), counts.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return kind_rank(coverage_kind(a.first)) < kind_rank(coverage_kind(b.first));
    });
    const long missing_classes = std::count_if(required.begin(), required.end(), [&](const std::string& cls) {
      return counts.at(cls) == 0;
    });
    // Folded unless something is missing.
    out += fmt::format("<details class=\"coverage\"{}><summary>{} — {} classes, {}</summary>\n",
                       missing_classes ? " open" : "", html_escape(p), rows.size(),
                       missing_classes ? fmt::format("{} MISSING", missing_classes) : std::string("none missing"));
    out += "<div class=\"wide\"><table class=\"coverage\"><tr><th>kind</th><th>class</th><th class=\"num\">cases</th><th>required</th>"
           "<th>flag</th></tr>\n";
    for (const auto& [cls, n] : rows) {
      const bool req = required.count(cls) > 0, missing = req && n == 0;
      out += fmt::format("<tr{}><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                         missing ? " class=\"missing\"" : "", html_escape(coverage_kind(cls)), html_escape(cls), n,
                         req ? "required" : "", missing ? "<span class=\"flag missing\">MISSING</span>" : "");
    }
    out += "</table></div></details>\n";
  }
  return out + "</section>\n";
}

}  // namespace bc
