// The processor's features as /proc/cpuinfo lists them: parsed from x86's and ARM's texts, and, on x86, the same
// answers as GCC's own CPUID test.
#include "harness/processor.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace bc {
namespace {

TEST(Processor, FeaturesComeFromTheFirstFlagsLine) {
  const std::string x86 =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse2 avx avx2 fma\nbugs\t\t: sysret_ss_attrs\n\n"
      "processor\t: 1\nflags\t\t: fpu sse2 avx512f\n";
  EXPECT_EQ(features_from_cpuinfo(x86), (std::set<std::string>{"fpu", "sse2", "avx", "avx2", "fma"}));
  const std::string arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\n";
  EXPECT_EQ(features_from_cpuinfo(arm), (std::set<std::string>{"fp", "asimd", "evtstrm", "aes"}));
  EXPECT_TRUE(features_from_cpuinfo("processor\t: 0\n").empty());
}

// Where each name comes from, written by hand: on x86 the CPUID leaf, sub-leaf, register and bit that Linux reads
// for the flag (arch/x86/include/asm/cpufeatures.h names the words and bits), on ARM the hwcap that Linux's
// arch/arm64/kernel/cpuinfo.c prints under the name. A name missing here is one no Linux prints.
struct Source {
  bool x86;
  unsigned leaf, subleaf;
  int reg;  // 0 eax, 1 ebx, 2 ecx, 3 edx
  int bit;
};
const std::map<std::string, Source>& feature_sources() {
  static const std::map<std::string, Source> sources = {
      {"sse4_2", {true, 1, 0, 2, 20}},      {"fma", {true, 1, 0, 2, 12}},
      {"avx", {true, 1, 0, 2, 28}},         {"f16c", {true, 1, 0, 2, 29}},
      {"avx2", {true, 7, 0, 1, 5}},         {"avx512f", {true, 7, 0, 1, 16}},
      {"avx512dq", {true, 7, 0, 1, 17}},    {"avx512cd", {true, 7, 0, 1, 28}},
      {"avx512bw", {true, 7, 0, 1, 30}},    {"avx512vl", {true, 7, 0, 1, 31}},
      {"avx512_fp16", {true, 7, 0, 3, 23}}, {"avx512_bf16", {true, 7, 1, 0, 5}},
      {"asimd", {false, 0, 0, 0, 0}},       {"sve", {false, 0, 0, 0, 0}},
  };
  return sources;
}

TEST(Processor, EveryNameADeclarationMayUseIsOneLinuxLists) {
  for (const std::string& name : processor_feature_names())
    EXPECT_TRUE(feature_sources().count(name)) << name << " is no flag Linux prints in /proc/cpuinfo";
  EXPECT_EQ(processor_feature_names().size(), feature_sources().size());
}

#if defined(__x86_64__) || defined(__i386__)
// Linux lists an x86 flag only when CPUID sets its bit (it may hide a feature the kernel disabled, never invent
// one): every flag this machine's /proc/cpuinfo shows has its bit set.
TEST(Processor, OnX86EachListedFlagHasItsCpuidBit) {
  for (const auto& [name, src] : feature_sources()) {
    if (!src.x86) continue;
    unsigned r[4] = {0, 0, 0, 0};
    const bool leaf_exists = __get_cpuid_count(src.leaf, src.subleaf, &r[0], &r[1], &r[2], &r[3]) != 0;
    const bool bit = leaf_exists && ((r[src.reg] >> src.bit) & 1u);
    if (processor_lacks({name}).empty()) {
      EXPECT_TRUE(bit) << name << " is listed by Linux, but its CPUID bit is clear: the source here is wrong";
    }
  }
}
#endif

#if defined(__x86_64__) || defined(__i386__)
TEST(Processor, OnX86ItAgreesWithTheCompilersCpuidTest) {
  EXPECT_EQ(processor_lacks({"avx2"}).empty(), __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(processor_lacks({"avx512f"}).empty(), __builtin_cpu_supports("avx512f") != 0);
  EXPECT_EQ(processor_lacks({"avx512bw"}).empty(), __builtin_cpu_supports("avx512bw") != 0);
  EXPECT_EQ(processor_lacks({"fma"}).empty(), __builtin_cpu_supports("fma") != 0);
  EXPECT_EQ(processor_lacks({"asimd"}), std::vector<std::string>{"asimd"});
}
#endif

}  // namespace
}  // namespace bc
