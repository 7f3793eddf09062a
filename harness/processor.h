// The processor this process runs on, as far as the declarations care: some libraries pick their kernels by the
// processor's instruction sets (NumPy's float32 arctan2 takes Intel's SVML on AVX-512; LibTorch's exp takes Sleef's
// AVX2 loop), so a departure can be real on one machine and absent on another. A declaration names the features
// it needs (`"cpu"` in corpus/known_divergences.jsonl); on a processor without them it covers nothing.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace bc {

// The feature names a declaration may use, as Linux's /proc/cpuinfo spells them ("avx2", "avx512f", ...).
const std::vector<std::string>& processor_feature_names();

// The features listed on the first "flags" (x86) or "Features" (ARM) line of a /proc/cpuinfo text.
std::set<std::string> features_from_cpuinfo(const std::string& cpuinfo);

// Of `features`, those this machine's processor lacks (read once from /proc/cpuinfo; none readable: all lacking).
std::vector<std::string> processor_lacks(const std::vector<std::string>& features);

}  // namespace bc
