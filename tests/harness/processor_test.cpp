// The processor's features as /proc/cpuinfo lists them: parsed from x86's and ARM's texts, and, on x86, the same
// answers as GCC's own CPUID test.
#include "harness/processor.h"

#include <gtest/gtest.h>

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

TEST(Processor, EveryNameADeclarationMayUseIsOneLinuxLists) {
  for (const std::string& name : processor_feature_names()) {
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find_first_of(" \tABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << name;
  }
}

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
