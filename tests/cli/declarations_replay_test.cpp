// Each declaration against its own corpus cases (corpus/declared.jsonl holds one per declaration that the seeds and
// findings do not reach): the corpus is replayed by the real binary, then each case the declaration explains is
// judged again without it. What appears must be exactly the difference it explained (its implementation's part
// of that component, now undeclared) and nothing else may change; a declaration that states its component explains
// only that one.
#include "harness/implementations.h"
#include "harness/judge.h"
#include "harness/known_divergence.h"
#include "harness/join.h"
#include "harness/nondeterminism.h"
#include "harness/processor.h"
#include "harness/run_record.h"

#include "cli_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace bc {
namespace {

nlohmann::json to_json(const Judgement& j) {
  nlohmann::json out = nlohmann::json::array();
  for (const Difference& d : j.differences) out.push_back(bc::to_json(d));
  return out;
}

bool lists(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<std::string> split_ids(const std::string& ids) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= ids.size();) {
    const size_t comma = std::min(ids.find(',', at), ids.size());
    if (comma > at) out.push_back(ids.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// Declarations matched by another path than the judge of a replayed case: the equivalence property (a fused op
// against its unfused form) and the finite-difference check of the engine's own gradients.
bool replayable(const Declaration& d) { return d.on != "equivalence" && d.difference != "finite differences"; }

// Declarations without an own case, each with the reason (keep it that way: only those whose library's fault no
// case shows every time).
const std::map<std::string, std::string> kWithoutOwnCase = {
    {"tfjs-wasm-reciprocal-bool-out-of-bounds",
     "tfjs-wasm's Reciprocal has no bool kernel and faults or not depending on what the module's memory holds (a "
     "third of a default run's bool reciprocals): no corpus case faults at every replay, and the corpus holds no "
     "bool reciprocal, so the declaration is never stale here"},
    {"tfjs-wasm-where-mixed-branches-fault",
     "tfjs-wasm's Select with a bool first branch and a float32 second faults or answers depending on what the "
     "module's memory holds (seed 4's case did both in one run): no corpus case faults at every replay, and a case "
     "that faults only sometimes makes a sharded run differ from the whole one (Cli.ShardsMergeIntoTheUnshardedRun)"}};

bool is_outcome_class(const std::string& component) {
  return component == "status" || component == "error kind" || component == "signal";
}

// The part of an outcome a declaration explains in a difference: the outcome's class (status, error kind, signal:
// "this implementation does this instead of the rule's outcome"), and also a shape or dtype difference among
// implementations that all departed from the rule's status (the judge asks their status declarations); else the
// component itself.
std::string what_it_explains(const Difference& d, const Outcomes& outcomes) {
  if (is_outcome_class(d.component)) return "outcome class";
  const Outcome* rule = find_outcome(outcomes, name_with_role(Role::rule));
  if ((d.component == "shape" || d.component == "dtype") && rule && rule->status != Status::ok) return "outcome class";
  return d.component;
}

struct Replay {
  std::vector<Declaration> declarations;
  std::vector<CaseRecord> records;
};

const Replay& replay() {
  static const Replay r = [] {
    Replay out;
    const std::string corpus = bc::test_source_dir() + "/corpus/";
    const fs::path dir = scratch("declarations-replay");
    const CliRun run = broadcheck("replay " + corpus + "seeds.jsonl " + corpus + "findings.jsonl " + corpus +
                                  "declared.jsonl --results all -q --out " + dir.string());
    EXPECT_EQ(run.exit_code, 0) << run.output;
    out.declarations = load_declarations(corpus + "known_divergences.jsonl");
    std::vector<nlohmann::json> parsed;
    for (const std::string& line : lines(dir / "results.jsonl")) {
      nlohmann::json j = nlohmann::json::parse(line);
      if (j.contains("case")) parsed.push_back(std::move(j));
    }
    // External voters (NumPy, through broadcheck.json) vote here as they did in the run, and in its order (the
    // registry's, which reading the records back follows), under the title their handshake gave (summary.json's
    // versions hold "TITLE VERSION"), which a nondeterministic difference's attribution names.
    const nlohmann::json versions = nlohmann::json::parse(slurp(dir / "summary.json")).at("versions");
    auto title = [&](const std::string& name) {
      const std::string v = versions.value(name, name);
      return v.find(' ') == std::string::npos ? v : v.substr(0, v.rfind(' '));
    };
    for (const nlohmann::json& j : parsed)
      for (auto it = j.at("outcomes").begin(); it != j.at("outcomes").end(); ++it)
        if (!find_implementation(it.key()) && it.key().find(" unfused") == std::string::npos)
          register_implementation({it.key(), title(it.key()), Role::voter, {}, "", {}});
    for (const nlohmann::json& j : parsed) out.records.push_back(case_record_from_json(j));
    return out;
  }();
  return r;
}

// What results.jsonl records reads back as the same judgement: the records the tests below judge again are the run's.
TEST(DeclarationsReplay, TheRecordsReadBackJudgeAsTheRunJudged) {
  const Replay& r = replay();
  ASSERT_GT(r.records.size(), 100u);
  for (const CaseRecord& rec : r.records) {
    if (rec.property != "corpus") continue;  // replayed under another property's check (its "property")
    Outcomes outcomes = rec.outcomes;
    const Judgement again = judge_with_nondeterminism(rec.property, rec.c, outcomes, r.declarations);
    EXPECT_EQ(to_json(again).dump(), to_json(rec.judgement).dump()) << rec.c.id;
    EXPECT_EQ(again.verdict, rec.judgement.verdict) << rec.c.id;
  }
}

// Independent of the judge: each declaration's own case (named "declared-<id>" by hand, as a known case) was
// explained by declarations, whatever check its "property" names: known, or agreeing but for a declared difference
// in the sign of zero.
TEST(DeclarationsReplay, EachOwnCaseIsExplainedByDeclarations) {
  const Replay& r = replay();
  long own = 0;
  for (const CaseRecord& rec : r.records) {
    if (rec.c.id.rfind("declared-", 0) != 0) continue;
    const std::string id = rec.c.id.substr(std::string("declared-").size());
    const auto d = std::find_if(r.declarations.begin(), r.declarations.end(), [&](const Declaration& x) { return x.id == id; });
    if (d != r.declarations.end() && !processor_lacks(d->cpu).empty()) continue;  // inactive here (checked below)
    ++own;
    EXPECT_TRUE(rec.judgement.verdict == Verdict::known || rec.judgement.verdict == Verdict::agree) << rec.c.id;
    EXPECT_FALSE(rec.judgement.known_id.empty()) << rec.c.id << " was explained by no declaration";
  }
  EXPECT_GT(own, 100);
}

TEST(DeclarationsReplay, EveryDeclarationHasItsOwnCorpusCase) {
  const Replay& r = replay();
  for (const Declaration& d : r.declarations) {
    if (kWithoutOwnCase.count(d.id)) continue;
    if (!replayable(d)) {
      // Matched by another check than the corpus' own: its own case names that check in "property".
      const bool has_case = std::any_of(r.records.begin(), r.records.end(), [&](const CaseRecord& rec) {
        return rec.property != "corpus" && lists(split_ids(rec.judgement.known_id), d.id);
      });
      EXPECT_TRUE(has_case) << d.id << " (line " << d.line << ") explains no corpus case replayed under its check: "
                            << "add its own case, with \"property\", to corpus/declared.jsonl";
      continue;
    }
    if (!processor_lacks(d.cpu).empty()) {
      // Inactive on this processor (its library takes another kernel here): its own case shows no difference at
      // all, or the declaration's "cpu" is wrong.
      const auto own = std::find_if(r.records.begin(), r.records.end(),
                                    [&](const CaseRecord& rec) { return rec.c.id == "declared-" + d.id; });
      ASSERT_NE(own, r.records.end()) << d.id << " has no case declared-" << d.id << " in corpus/declared.jsonl";
      EXPECT_TRUE(own->judgement.differences.empty()) << d.id << " is inactive on this processor, yet its case differs";
      std::cout << "[ NOTE     ] " << d.id << " needs " << join(processor_lacks(d.cpu), ", ")
                << ", which this processor lacks: its case agrees here\n";
      continue;
    }
    const bool has_case = std::any_of(r.records.begin(), r.records.end(), [&](const CaseRecord& rec) {
      return std::any_of(rec.judgement.differences.begin(), rec.judgement.differences.end(),
                         [&](const Difference& x) { return lists(x.known_ids, d.id); });
    });
    EXPECT_TRUE(has_case) << d.id << " (line " << d.line << ") explains no difference of any corpus case: add its "
                          << "minimal case to corpus/declared.jsonl";
  }
  for (const auto& [id, why] : kWithoutOwnCase)
    EXPECT_TRUE(std::any_of(r.declarations.begin(), r.declarations.end(), [&](const Declaration& d) { return d.id == id; }))
        << id << " is listed without an own case but is not declared any more";
}

TEST(DeclarationsReplay, RemovingADeclarationShowsExactlyWhatItExplained) {
  const Replay& r = replay();
  long checked = 0;
  for (const Declaration& d : r.declarations) {
    if (d.on == "nondeterministic") continue;  // it withholds numbers before the judge (harness/nondeterminism.h)
    std::vector<Declaration> others;
    for (const Declaration& x : r.declarations)
      if (x.id != d.id) others.push_back(x);
    std::set<std::string> components;
    for (const CaseRecord& rec : r.records) {
      if (rec.property != "corpus") continue;  // judged by another check (its "property")
      const std::vector<Difference>& before = rec.judgement.differences;
      if (std::none_of(before.begin(), before.end(), [&](const Difference& x) { return lists(x.known_ids, d.id); }))
        continue;
      ++checked;
      Outcomes outcomes = rec.outcomes;
      const std::vector<Difference> after = judge_with_nondeterminism(rec.property, rec.c, outcomes, others).differences;
      ASSERT_EQ(after.size(), before.size()) << d.id << " on " << rec.c.id;
      for (size_t k = 0; k < before.size(); ++k) {
        EXPECT_EQ(after[k].component, before[k].component) << d.id << " on " << rec.c.id;
        if (!lists(before[k].known_ids, d.id)) {
          EXPECT_EQ(after[k], before[k]) << d.id << " changed a difference it did not explain, on " << rec.c.id;
          continue;
        }
        components.insert(what_it_explains(before[k], rec.outcomes));
        // Its implementation's part is undeclared now, unless another declaration explains that part too.
        // (A reference's declared departure explains a document's expectation: then the document's part shows.)
        // Where the rule stood alone against declared departures, removing one of them makes the libraries a
        // majority against the rule again, and the rule's part shows (docs/notes/judge.md, "Declared departures").
        const std::string part = before[k].component == "expectation" ? "document" : d.oracle;
        const std::string rule = name_with_role(Role::rule);
        const bool rule_alone = before[k].odd_ones == std::vector<std::string>{rule};
        EXPECT_TRUE(lists(after[k].undeclared, part) || (rule_alone && lists(after[k].undeclared, rule)) ||
                    (after[k].declared() && !after[k].known_ids.empty()))
            << d.id << " on " << rec.c.id << ": " << to_json(after[k]).dump();
        // Others may show only where they were undeclared already, or tied with it (no majority).
        for (const std::string& who : after[k].undeclared)
          EXPECT_TRUE(who == part || (rule_alone && who == rule) || lists(before[k].undeclared, who) ||
                      lists(before[k].odd_ones, who))
              << d.id << " on " << rec.c.id << " also hid " << who;
      }
    }
    components.erase("expectation");
    if (!d.difference.empty() && d.on == "outcome")
      for (const std::string& c : components)
        EXPECT_TRUE(c == "outcome class" ? d.explains("status") || d.explains("error kind") : d.explains(c))
            << d.id << " explains " << c;
    else if (!d.difference.empty())
      for (const std::string& c : components) EXPECT_TRUE(d.explains(c)) << d.id << " explains " << c;
    else
      EXPECT_LE(components.size(), 1u) << d.id << " explains several components; state the one it means in "
                                       << "\"difference\" and declare the others apart";
  }
  EXPECT_GT(checked, 50);
}

// A planted engine bug that looks like a library's declared departure (issue 35): in each declaration's own case
// where the library departs from two or more voters that agree with each other, the engine is made to answer what
// the library answered, and the case is judged with that library's and the engine's declarations (the others' own
// declarations, measured from the planted outcome, would set them aside too). Declared departures do not vote, so
// the engine must be named (docs/notes/judge.md), not the libraries that keep the rule; an engine declaration that
// happens to explain the planted outcome is fine too.
TEST(DeclarationsReplay, AnEngineThatSidesWithADeclaredDepartureIsNamed) {
  const Replay& r = replay();
  const std::string rule = name_with_role(Role::rule);
  long planted = 0;
  for (const CaseRecord& rec : r.records) {
    if (rec.property != "corpus" || rec.c.id.rfind("declared-", 0) != 0) continue;
    const std::string id = rec.c.id.substr(std::string("declared-").size());
    const auto d = std::find_if(r.declarations.begin(), r.declarations.end(), [&](const Declaration& x) { return x.id == id; });
    if (d == r.declarations.end() || d->oracle == rule || d->oracle == "document" ||
        (d->on != "outcome" && d->on != "values" && d->on != "grads"))
      continue;
    const Outcome* library = find_outcome(rec.outcomes, d->oracle);
    const Outcome* engine = find_outcome(rec.outcomes, rule);
    if (!library || !engine || *library == *engine) continue;
    // Two or more other voters that agree with each other and not with the library.
    auto alike = [](const Outcome& a, const Outcome& b) {
      return summarize(a) == summarize(b) && a.values == b.values && a.grads == b.grads;
    };
    std::vector<const Outcome*> others;
    for (const auto& [name, o] : rec.outcomes)
      if (name != rule && name != d->oracle && name != "document" && o.status != Status::unsupported) others.push_back(&o);
    // A difference in numbers needs others with the library's shape and dtype, or there is nothing to compare.
    const bool numbers = d->on != "outcome";
    if (others.size() < 2 || alike(*others[0], *library) ||
        (summarize(*others[0]) == summarize(*library)) != numbers ||
        !std::all_of(others.begin(), others.end(), [&](const Outcome* o) { return alike(*o, *others[0]); }) ||
        !d->expected.matches(*others[0]) || !d->actual.matches(*library))  // a departure from what the others do
      continue;
    Outcomes outcomes = rec.outcomes;
    for (auto& [name, o] : outcomes)
      if (name == rule) o = *library;
    std::vector<Declaration> own;
    for (const Declaration& x : r.declarations)
      if (x.oracle == rule || x.oracle == d->oracle) own.push_back(x);
    const Judgement j = judge_with_nondeterminism(rec.property, rec.c, outcomes, own);
    ++planted;
    const bool named = std::any_of(j.differences.begin(), j.differences.end(),
                                   [&](const Difference& x) { return lists(x.undeclared, rule); });
    const std::vector<std::string> known = split_ids(j.known_id);
    const bool engine_declared = std::any_of(known.begin(), known.end(), [&](const std::string& k) {
      return std::any_of(r.declarations.begin(), r.declarations.end(), [&](const Declaration& x) { return x.id == k && x.oracle == rule; });
    });
    EXPECT_TRUE(named || engine_declared) << d->id << ": the engine answering as " << d->oracle
                                          << " does was not named: " << to_json(j).dump();
  }
  std::cout << "[ NOTE     ] " << planted << " declared departures planted in the engine\n";
  EXPECT_GT(planted, 10);
}

// The whole corpus replayed with and without the optional voters (NumPy, through broadcheck.json): every case
// passes or fails alike, and no declaration is stale (each has its own case, replayed under the check that matches it).
TEST(DeclarationsReplay, OptionalVotersChangeNoVerdictAndNoDeclarationIsStale) {
  const std::string corpus = bc::test_source_dir() + "/corpus/";
  const std::string files = corpus + "seeds.jsonl " + corpus + "findings.jsonl " + corpus + "declared.jsonl " + corpus +
                            "dtypes.jsonl " + corpus + "edges.jsonl " + corpus + "probes.jsonl";
  const fs::path none = scratch("declarations-replay-no-config") / "broadcheck.json";
  fs::create_directories(none.parent_path());
  std::ofstream(none) << R"({"oracles": {}})";
  auto verdicts = [&](const std::string& extra, const std::string& name) {
    const fs::path dir = scratch(name);
    const CliRun run = broadcheck("replay " + files + " --results all -q --out " + dir.string() + extra);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> out;
    for (const std::string& line : lines(dir / "results.jsonl")) {
      const nlohmann::json j = nlohmann::json::parse(line);
      if (j.contains("case")) out[j.at("case").value("id", "")] = j.at("verdict").get<std::string>();
    }
    const nlohmann::json summary = nlohmann::json::parse(slurp(dir / "summary.json"));
    for (const nlohmann::json& d : summary.at("declarations"))  // a fault no case shows every time may not show
      if (!kWithoutOwnCase.count(d.at("declaration").at("id").get<std::string>())) {
        EXPECT_FALSE(d.at("stale").get<bool>()) << name << ": " << d.at("declaration").at("id") << " is stale";
      }
    return out;
  };
  const std::map<std::string, std::string> with = verdicts("", "declarations-replay-with");
  const std::map<std::string, std::string> without = verdicts(" --config " + none.string(), "declarations-replay-without");
  // NumPy's own declarations make some cases `known` that agree without it: the same verdict for the run.
  auto fails = [](const std::string& v) { return v == "discrepancy" || v == "expect_failed"; };
  ASSERT_EQ(with.size(), without.size());
  for (const auto& [id, verdict] : with)
    EXPECT_EQ(fails(without.at(id)), fails(verdict)) << id << ": " << verdict << " with NumPy, " << without.at(id)
                                                     << " without";
}

}  // namespace
}  // namespace bc
