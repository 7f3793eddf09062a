// The per-property count lines that end results.jsonl. A run writes a case line only for a case that does not
// simply agree (unless --results all), so these lines say how many cases each property ran, per verdict, and how
// many of its case lines the file holds:
//   {"counts":{"cases":2000,"verdicts":{"agree":1990,"known":10},"written":10},"property":"elementwise_agree"}
// One line per property (and "corpus"), sorted by property. `broadcheck merge` adds the shards' lines up.
// Schema: reports/README.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bc {

class ResultsCounts {
 public:
  void add(const std::string& property, const std::string& verdict, bool written);
  // Adds a count line read back from a results.jsonl (throws nlohmann::json::exception when malformed).
  void add_line(const nlohmann::json& line);
  // Sets every property's "written" to its count in `written` (0 when absent): a merge decides anew what it keeps.
  void set_written(const std::map<std::string, long>& written);
  std::vector<std::string> lines() const;  // the count lines, without line breaks
  static bool is_count_line(const nlohmann::json& line) { return line.contains("counts"); }

 private:
  struct Counts {
    long cases = 0, written = 0;
    std::map<std::string, long> verdicts;
  };
  std::map<std::string, Counts> by_property_;
};

}  // namespace bc
