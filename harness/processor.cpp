#include "harness/processor.h"

#include <fstream>
#include <sstream>

namespace bc {

const std::vector<std::string>& processor_feature_names() {
  static const std::vector<std::string> names = {"sse4_2",   "avx",      "avx2",     "fma",     "f16c",
                                                 "avx512f",  "avx512cd", "avx512bw", "avx512dq", "avx512vl",
                                                 "avx512_bf16", "avx512_fp16", "asimd", "sve"};
  return names;
}

std::set<std::string> features_from_cpuinfo(const std::string& cpuinfo) {
  std::istringstream lines(cpuinfo);
  for (std::string line; std::getline(lines, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key != "flags" && key != "Features") continue;
    std::istringstream words(line.substr(colon + 1));
    std::set<std::string> out;
    for (std::string w; words >> w;) out.insert(w);
    return out;
  }
  return {};
}

std::vector<std::string> processor_lacks(const std::vector<std::string>& features) {
  static const std::set<std::string> here = [] {
    std::ifstream in("/proc/cpuinfo");
    std::stringstream text;
    text << in.rdbuf();
    return features_from_cpuinfo(text.str());
  }();
  std::vector<std::string> out;
  for (const std::string& f : features)
    if (!here.count(f)) out.push_back(f);
  return out;
}

}  // namespace bc
