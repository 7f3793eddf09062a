// merge_summaries on hand-built shard summaries (counts add up, one finding per key with the earliest case and
// every shard's hits, order, exit code, input errors once, the merge's own command line), shard_set_problems (one
// I/N set of one run: duplicates, missing shards, other seed, flags, corpus, declarations or implementations);
// through the real binary, `broadcheck merge` refusing such sets, keeping the results.jsonl lines the unsharded
// run kept, and the fingerprint following the flags.
#include "cli/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "run/exit_codes.h"
#include "cli/shard_set.h"
#include "reports/results_filter.h"
#include "cli_util.h"
#include <nlohmann/json.hpp>

namespace bc {
namespace {

Finding finding(const std::string& key, long first_seq, long hits, Verdict verdict, const std::string& tag = "") {
  Finding f;
  f.key = key;
  f.signature = key;
  f.property = "elementwise_agree";
  f.family = "elementwise";
  f.verdict = verdict;
  f.first_seq = first_seq;
  f.hits = hits;
  f.reproduce = "bc1/7/elementwise_agree/" + std::to_string(first_seq) + "/-";
  f.minimal.property = "elementwise_agree";
  f.minimal.c.op = Op::add;
  f.minimal.c.shapes = {{static_cast<int64_t>(first_seq)}, {3}};
  f.minimal.c.note = tag;
  f.minimal.seq = first_seq;
  f.minimal.judgement.verdict = verdict;
  f.minimal.judgement.signature = key;
  f.original = f.minimal.c;
  return f;
}

DeclarationUse use(const std::string& id, long covered, long matched) {
  DeclarationUse u;
  u.declaration.id = id;
  u.declaration.oracle = "xtensor";
  u.covered = covered;
  u.matched = matched;
  return u;
}

RunSummary shard(long index, long count) {
  RunSummary s;
  s.command = "run";
  s.seed = 7;
  s.cases_requested = 50;
  s.shard = std::to_string(index) + "/" + std::to_string(count);
  s.started_at = "2024-01-0" + std::to_string(index + 1) + "T00:00:00Z";
  s.seconds = 1.5 + static_cast<double>(index);
  s.versions = {{"engine", "0.1"}, {"torch", "1.13.1"}};
  s.coverage.required["elementwise_agree"] = {"near miss", "size-0 dim"};
  return s;
}

std::vector<std::string> keys(const RunSummary& s) {
  std::vector<std::string> out;
  for (const Finding& f : s.findings) out.push_back(f.key);
  return out;
}

}  // namespace

TEST(MergeSummaries, CountsAddUp) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  a.verdicts = {{"agree", 40}, {"discrepancy", 3}, {"known", 2}};
  b.verdicts = {{"agree", 41}, {"discrepancy", 1}, {"expect_failed", 1}};
  a.cases_per_property = {{"corpus", 4}, {"elementwise_agree", 25}};
  b.cases_per_property = {{"corpus", 3}, {"elementwise_agree", 25}, {"matmul_agree", 5}};
  a.cases_per_op = {{"elementwise_agree", {{"add", 20}, {"mul", 5}}}};
  b.cases_per_op = {{"elementwise_agree", {{"add", 15}, {"sub", 10}}}, {"matmul_agree", {{"matmul", 5}}}};
  a.statuses = {{"torch:crash", 1}};
  b.statuses = {{"torch:crash", 2}, {"xtensor:timeout", 1}};
  a.coverage.counts["elementwise_agree"] = {{"near miss", 7}, {"size-0 dim", 2}};
  b.coverage.counts["elementwise_agree"] = {{"near miss", 5}, {"rank-0 operand", 1}};
  b.coverage.counts["matmul_agree"] = {{"engine ok", 5}};
  a.declarations = {use("xt-1", 10, 4), use("xt-2", 3, 0)};
  b.declarations = {use("xt-1", 6, 1), use("xt-2", 2, 0)};

  const RunSummary m = merge_summaries({a, b}, {});
  EXPECT_EQ(m.verdicts, (std::map<std::string, long>{{"agree", 81}, {"discrepancy", 4}, {"known", 2}, {"expect_failed", 1}}));
  EXPECT_EQ(m.cases_per_property,
            (std::map<std::string, long>{{"corpus", 7}, {"elementwise_agree", 50}, {"matmul_agree", 5}}));
  EXPECT_EQ(m.cases_per_op.at("elementwise_agree"),
            (std::map<std::string, long>{{"add", 35}, {"mul", 5}, {"sub", 10}}));
  EXPECT_EQ(m.cases_per_op.at("matmul_agree").at("matmul"), 5);
  EXPECT_EQ(m.statuses, (std::map<std::string, long>{{"torch:crash", 3}, {"xtensor:timeout", 1}}));
  EXPECT_EQ(m.coverage.counts.at("elementwise_agree"),
            (std::unordered_map<std::string, long>{{"near miss", 12}, {"size-0 dim", 2}, {"rank-0 operand", 1}}));
  EXPECT_EQ(m.coverage.counts.at("matmul_agree"), (std::unordered_map<std::string, long>{{"engine ok", 5}}));
  EXPECT_EQ(m.coverage.required.at("elementwise_agree"), (std::vector<std::string>{"near miss", "size-0 dim"}));
  ASSERT_EQ(m.declarations.size(), 2u);
  EXPECT_EQ(m.declarations[0].declaration.id, "xt-1");
  EXPECT_EQ(m.declarations[0].covered, 16);
  EXPECT_EQ(m.declarations[0].matched, 5);
  EXPECT_EQ(m.declarations[1].declaration.id, "xt-2");
  EXPECT_EQ(m.declarations[1].covered, 5);
  EXPECT_EQ(m.declarations[1].matched, 0);
  EXPECT_TRUE(m.declarations[1].stale());
  EXPECT_EQ(m.seed, 7u);
  EXPECT_EQ(m.cases_requested, 50);
  EXPECT_EQ(m.shard, "");
  EXPECT_EQ(m.started_at, "2024-01-01T00:00:00Z");
  EXPECT_DOUBLE_EQ(m.seconds, 2.5);
  EXPECT_FALSE(m.interrupted);
  EXPECT_EQ(m.exit_code, 0);
}

TEST(MergeSummaries, CommandLineIsTheMerge) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  a.arguments = {"broadcheck", "run", "--seed", "7", "--shard", "0/2", "--out", "s0"};
  b.arguments = {"broadcheck", "run", "--seed", "7", "--shard=1/2", "--out", "s1"};
  const std::vector<std::string> merge = {"broadcheck", "merge", "s0", "s1", "--out", "m"};
  EXPECT_EQ(merge_summaries({a, b}, merge).arguments, merge);
  EXPECT_EQ(merge_summaries({b, a}, merge).arguments, merge);
  EXPECT_EQ(merge_summaries({b, a}, merge).command, "run") << "what ran is still a run";
}

TEST(MergeSummaries, ASingleShardMergesToItsCounts) {
  RunSummary a = shard(0, 1);
  a.verdicts = {{"agree", 9}};
  a.findings = {finding("k", 3, 2, Verdict::known)};
  const RunSummary m = merge_summaries({a}, {});
  EXPECT_EQ(m.verdicts, (std::map<std::string, long>{{"agree", 9}}));
  ASSERT_EQ(m.findings.size(), 1u);
  EXPECT_EQ(m.findings[0].hits, 2);
}

TEST(MergeSummaries, SharedKeyKeepsTheEarliestFindingAndSumsHits) {
  RunSummary a = shard(0, 3), b = shard(1, 3), c = shard(2, 3);
  a.findings = {finding("sig-x", 12, 2, Verdict::discrepancy, "from a")};
  b.findings = {finding("sig-x", 4, 5, Verdict::discrepancy, "from b")};
  c.findings = {finding("sig-x", 9, 1, Verdict::discrepancy, "from c")};
  b.findings[0].shrink_steps = 6;

  const RunSummary m = merge_summaries({a, b, c}, {});
  ASSERT_EQ(m.findings.size(), 1u);
  const Finding& f = m.findings[0];
  EXPECT_EQ(f.key, "sig-x");
  EXPECT_EQ(f.first_seq, 4);
  EXPECT_EQ(f.minimal.c.note, "from b");
  EXPECT_EQ(f.reproduce, "bc1/7/elementwise_agree/4/-");
  EXPECT_EQ(f.shrink_steps, 6);
  EXPECT_EQ(f.hits, 8);

  // The earliest first: the later shards only add hits.
  const RunSummary m2 = merge_summaries({b, a, c}, {});
  ASSERT_EQ(m2.findings.size(), 1u);
  EXPECT_EQ(m2.findings[0].minimal.c.note, "from b");
  EXPECT_EQ(m2.findings[0].first_seq, 4);
  EXPECT_EQ(m2.findings[0].hits, 8);
}

TEST(MergeSummaries, FindingsInDiscoveryOrderNewBeforeKnown) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  a.findings = {finding("known-early", 1, 1, Verdict::known), finding("new-late", 9, 1, Verdict::discrepancy),
                finding("shared", 6, 1, Verdict::expect_failed)};
  b.findings = {finding("new-early", 3, 2, Verdict::discrepancy), finding("known-late", 4, 1, Verdict::known),
                finding("shared", 2, 3, Verdict::expect_failed)};
  const RunSummary m = merge_summaries({a, b}, {});
  EXPECT_EQ(keys(m), (std::vector<std::string>{"shared", "new-early", "new-late", "known-early", "known-late"}));
  EXPECT_EQ(m.findings[0].first_seq, 2);
  EXPECT_EQ(m.findings[0].hits, 4);
  EXPECT_EQ(m.exit_code, kExitFindings);
}

TEST(MergeSummaries, ExitCodeOneForANewFindingZeroWhenAllKnown) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  a.findings = {finding("k1", 1, 1, Verdict::known)};
  b.findings = {finding("k2", 2, 1, Verdict::known)};
  EXPECT_EQ(merge_summaries({a, b}, {}).exit_code, 0);
  b.findings.push_back(finding("n1", 5, 1, Verdict::discrepancy));
  EXPECT_EQ(merge_summaries({a, b}, {}).exit_code, 1);
  b.findings.back().verdict = Verdict::expect_failed;
  EXPECT_EQ(merge_summaries({a, b}, {}).exit_code, 1);
}

TEST(MergeSummaries, MismatchedRunsThrow) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  b.seed = 8;
  EXPECT_THROW(merge_summaries({a, b}, {}), std::runtime_error);
  b = shard(1, 2);
  b.cases_requested = 51;
  EXPECT_THROW(merge_summaries({a, b}, {}), std::runtime_error);
  b = shard(1, 2);
  b.command = "replay";
  EXPECT_THROW(merge_summaries({a, b}, {}), std::runtime_error);
  EXPECT_THROW(merge_summaries({}, {}), std::runtime_error);
  b = shard(1, 2);
  EXPECT_NO_THROW(merge_summaries({a, b}, {}));
}

TEST(MergeSummaries, InputErrorsAppearOnce) {
  RunSummary a = shard(0, 3), b = shard(1, 3), c = shard(2, 3);
  const std::vector<std::string> errors = {"corpus/bad.jsonl:3: missing \"op\"", "corpus/bad.jsonl:7: unknown op"};
  a.input_errors = b.input_errors = c.input_errors = errors;
  a.findings = {finding("n1", 5, 1, Verdict::discrepancy)};
  const RunSummary m = merge_summaries({a, b, c}, {});
  EXPECT_EQ(m.input_errors, errors);
  EXPECT_EQ(m.exit_code, kExitBadInput);
}

TEST(MergeSummaries, InterruptedIfAnyShardWas) {
  RunSummary a = shard(0, 2), b = shard(1, 2);
  b.interrupted = true;
  EXPECT_TRUE(merge_summaries({a, b}, {}).interrupted);
  b.interrupted = false;
  EXPECT_FALSE(merge_summaries({a, b}, {}).interrupted);
}

namespace {

std::map<std::string, std::string> fingerprint() {
  return {{"flags", "f1"}, {"corpus", "c1"}, {"declarations", "d1"}, {"implementations", "i1"}};
}

ShardInput input(const std::string& dir, const std::string& shard_text) {
  ShardInput in{dir, RunSummary{}};
  in.summary.command = "run";
  in.summary.seed = 7;
  in.summary.shard = shard_text;
  in.summary.fingerprint = fingerprint();
  return in;
}

}  // namespace

TEST(ShardSet, OneCompleteSetHasNoProblem) {
  EXPECT_EQ(shard_set_problems({input("s1", "1/3"), input("s0", "0/3"), input("s2", "2/3")}),
            std::vector<std::string>{});
  EXPECT_EQ(shard_set_problems({input("whole", "")}), std::vector<std::string>{}) << "an unsharded run is 0/1";
}

TEST(ShardSet, DuplicateAndMissingShardsAreNamed) {
  EXPECT_EQ(shard_set_problems({input("A", "1/4"), input("B", "1/4"), input("C", "0/4"), input("D", "3/4")}),
            (std::vector<std::string>{"duplicate shard 1/4 in A and B", "missing shard 2/4"}));
  EXPECT_EQ(shard_set_problems({input("A", "0/2")}), std::vector<std::string>{"missing shard 1/2"});
}

TEST(ShardSet, ShardsOfAnotherCountAreNamed) {
  EXPECT_EQ(shard_set_problems({input("A", "0/2"), input("B", "1/3")}),
            std::vector<std::string>{"shard B is shard 1/3 but A is one of 2"});
  EXPECT_EQ(shard_set_problems({input("A", "0/2"), input("B", "x/2")}),
            std::vector<std::string>{"shard B has an unreadable shard \"x/2\""});
}

TEST(ShardSet, EachDifferingFingerprintPartIsNamed) {
  ShardInput a = input("A", "0/2"), b = input("B", "1/2");
  b.summary.fingerprint["declarations"] = "d2";
  EXPECT_EQ(shard_set_problems({a, b}),
            std::vector<std::string>{"shard B was run with different declarations than A"});
  b.summary.fingerprint["flags"] = "f2";
  b.summary.fingerprint["corpus"] = "c2";
  b.summary.fingerprint["implementations"] = "i2";
  EXPECT_EQ(shard_set_problems({a, b}),
            std::vector<std::string>{"shard B was run with different flags, corpus, declarations, implementations than A"});
}

TEST(ShardSet, SeedCommandAndMissingFingerprintAreNamed) {
  ShardInput a = input("A", "0/2"), b = input("B", "1/2");
  b.summary.seed = 8;
  b.summary.command = "replay";
  EXPECT_EQ(shard_set_problems({a, b}), (std::vector<std::string>{"shard B is a \"replay\" but A is a \"run\"",
                                                                  "shard B was run with seed 8, A with seed 7"}));
  b = input("B", "1/2");
  b.summary.fingerprint.clear();
  EXPECT_EQ(shard_set_problems({a, b}),
            std::vector<std::string>{"shard B has no fingerprint in its summary.json (written by an older broadcheck): "
                                     "run it again"});
}

// Through the real binary: the shard sets that merge used to accept.
TEST(MergeCommand, RefusesDuplicateMissingAndMismatchedShards) {
  const std::string args = "run --seed 5 --cases 5 --no-replay --quiet --property elementwise_agree --out ";
  const fs::path s0 = scratch("m-s0"), s1 = scratch("m-s1"), copy = scratch("m-s0-copy"), s1nk = scratch("m-s1-nk");
  ASSERT_EQ(broadcheck(args + s0.string() + " --shard 0/2").exit_code, 0);
  ASSERT_EQ(broadcheck(args + s1.string() + " --shard 1/2").exit_code, 0);
  // Without declarations a difference may be new (exit 1): the shard is still written, which is all this needs.
  ASSERT_LE(broadcheck(args + s1nk.string() + " --shard 1/2 --no-known").exit_code, 1);
  fs::remove_all(copy);
  fs::copy(s0, copy, fs::copy_options::recursive);
  const std::string out = " --out " + scratch("m-out").string();

  CliRun dup = broadcheck("merge " + s0.string() + " " + copy.string() + " " + s1.string() + out);
  EXPECT_EQ(dup.exit_code, 2) << dup.output;
  EXPECT_NE(dup.output.find("duplicate shard 0/2 in " + s0.string() + " and " + copy.string()), std::string::npos)
      << dup.output;
  CliRun missing = broadcheck("merge " + s0.string() + out);
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("missing shard 1/2"), std::string::npos) << missing.output;
  CliRun mixed = broadcheck("merge " + s0.string() + " " + s1nk.string() + out);
  EXPECT_EQ(mixed.exit_code, 2) << mixed.output;
  EXPECT_NE(mixed.output.find("shard " + s1nk.string() + " was run with different declarations than " + s0.string()),
            std::string::npos) << mixed.output;

  // --out naming one of the shards (by another spelling too) would replace that shard's outputs with the merge's.
  const std::string shard_summary = slurp(s0 / "summary.json");
  for (const std::string& into : {s0.string(), s0.string() + "/."}) {
    CliRun onto = broadcheck("merge " + s0.string() + " " + s1.string() + " --out " + into);
    EXPECT_EQ(onto.exit_code, 2) << onto.output;
    EXPECT_NE(onto.output.find("--out " + into + " is the shard folder " + s0.string()), std::string::npos) << onto.output;
    EXPECT_EQ(slurp(s0 / "summary.json"), shard_summary) << "the shard is as it was";
  }

  CliRun good = broadcheck("merge " + s1.string() + " " + s0.string() + out);
  ASSERT_EQ(good.exit_code, 0) << good.output;
  const auto summary = nlohmann::json::parse(slurp(scratch("m-out") / "summary.json"));
  const auto arguments = summary["arguments"].get<std::vector<std::string>>();
  EXPECT_EQ(std::vector<std::string>(arguments.begin() + 1, arguments.end()),
            (std::vector<std::string>{"merge", s1.string(), s0.string(), "--out", scratch("m-out").string()}))
      << "the merged summary's command line is the merge";
  EXPECT_EQ(summary["verdicts"]["agree"].get<long>() + summary["verdicts"].value("known", 0L), 5)
      << "5 cases, each counted once";
}

// A signature met more often than results.jsonl keeps: the merge keeps the same first cases the unsharded run kept.
TEST(MergeCommand, KeepsTheCasesTheUnshardedRunKept) {
  const std::string args = "run --seed 1 --cases 600 --no-replay --quiet --property sum_to_agree --out ";
  ASSERT_EQ(broadcheck(args + scratch("cap-whole").string()).exit_code, 0);
  std::string dirs;
  for (int i = 0; i < 3; ++i) {
    const fs::path d = scratch("cap-shard" + std::to_string(i));
    ASSERT_EQ(broadcheck(args + d.string() + " --shard " + std::to_string(i) + "/3").exit_code, 0);
    dirs += " " + d.string();
  }
  ASSERT_EQ(broadcheck("merge" + dirs + " --quiet --out " + scratch("cap-merged").string()).exit_code, 0);
  const auto whole = lines(scratch("cap-whole") / "results.jsonl");
  EXPECT_EQ(lines(scratch("cap-merged") / "results.jsonl"), whole);
  const auto counts = nlohmann::json::parse(whole.back());
  ASSERT_EQ(counts["property"], "sum_to_agree");
  const long disagreeing = counts["counts"]["cases"].get<long>() - counts["counts"]["verdicts"]["agree"].get<long>();
  EXPECT_LT(counts["counts"]["written"].get<long>(), disagreeing) << "some signature was met more than "
                                                                 << ResultsFilter::kPerSignature << " times";
  EXPECT_EQ(counts["counts"]["written"].get<long>() + 1, static_cast<long>(whole.size()));
}

// Every flag that changes the results changes the fingerprint; --out, --shard and -q do not.
TEST(MergeCommand, TheFingerprintFollowsTheFlagsThatChangeResults) {
  auto fingerprint_of = [](const std::string& flags) {
    const fs::path out = scratch("fp");
    EXPECT_LT(broadcheck("run --cases 1 --property elementwise_agree " + flags + " --out " + out.string()).exit_code, 2)
        << flags;
    return nlohmann::json::parse(slurp(out / "summary.json"))["fingerprint"];
  };
  const auto base = fingerprint_of("--seed 1 --no-replay");
  ASSERT_EQ(base.size(), 4u) << base.dump();
  EXPECT_EQ(fingerprint_of("--seed 1 --no-replay -q --shard 1/3"), base);
  EXPECT_NE(fingerprint_of("--seed 2 --no-replay")["flags"], base["flags"]);
  EXPECT_NE(fingerprint_of("--seed 1 --no-replay --results all")["flags"], base["flags"]);
  const auto no_known = fingerprint_of("--seed 1 --no-replay --no-known");
  EXPECT_NE(no_known["declarations"], base["declarations"]);
  EXPECT_EQ(no_known["flags"], base["flags"]);
  // Two corpus folders that differ only in one case's text: the corpus part differs, nothing else.
  auto corpus_dir = [](const std::string& name, const std::string& shape) {
    const fs::path dir = scratch(name);
    fs::create_directories(dir);
    std::ofstream(dir / "a.jsonl") << "{\"op\": \"add\", \"shapes\": [[" + shape + "], [2]]}\n";
    fs::copy_file(bc::test_source_dir() + "/corpus/known_divergences.jsonl", dir / "known_divergences.jsonl",
                  fs::copy_options::overwrite_existing);
    return dir.string();
  };
  const auto one = fingerprint_of("--seed 1 --corpus-dir " + corpus_dir("fp-a", "2"));
  const auto other = fingerprint_of("--seed 1 --corpus-dir " + corpus_dir("fp-b", "1"));
  EXPECT_NE(one["corpus"], other["corpus"]);
  EXPECT_EQ(one["declarations"], other["declarations"]);
  EXPECT_EQ(one["declarations"], base["declarations"]) << "the same declarations' content, another path";
  EXPECT_EQ(one["flags"], other["flags"]);
  EXPECT_EQ(one["implementations"], base["implementations"]);
}

}  // namespace bc
