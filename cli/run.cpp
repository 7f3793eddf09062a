#include "cli/run.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "harness/corpus.h"
#include "oracles/engine_oracle.h"
#include "oracles/torch_oracle.h"
#include "oracles/xtensor_oracle.h"
#include "properties/check.h"
#include "properties/registry.h"
#include "reports/html_report.h"
#include "reports/jsonl_writer.h"
#include "reports/junit_writer.h"

#ifndef BC_GIT_COMMIT
#define BC_GIT_COMMIT "unknown"
#endif

namespace bc {

std::vector<std::unique_ptr<Oracle>> make_all_oracles() {
  std::vector<std::unique_ptr<Oracle>> all;
  all.push_back(make_engine_oracle());
  all.push_back(make_torch_oracle());
  all.push_back(make_xtensor_oracle());
  return all;
}

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// A 256-bit RapidCheck key per (seed, property, case index): each case is generated independently of the others,
// so a case can be regenerated from those three numbers alone.
rc::Random case_random(uint64_t seed, const std::string& property, long index) {
  return rc::Random(rc::Random::Key{seed, std::hash<std::string>{}(property), static_cast<uint64_t>(index), 0x6263});
}

class Runner {
 public:
  Runner(const RunOptions& options, RunSummary& summary, JsonlWriter& out)
      : options_(options), summary_(summary), out_(out), oracles_(make_all_oracles()) {
    for (auto& o : oracles_) summary_.versions[o->name()] = o->version();
    summary_.versions["broadcheck"] = BC_GIT_COMMIT;
  }

  void load_declarations() {
    if (options_.declarations.empty()) return;
    try {
      declarations_ = bc::load_declarations(options_.declarations);
    } catch (const CaseError& e) {
      summary_.input_errors.push_back(e.what());
    }
    for (const Declaration& d : declarations_) summary_.declarations.push_back({d, 0, 0});
  }

  void replay(const std::vector<CorpusEntry>& entries) {
    for (const CorpusEntry& e : entries) record(evaluate("corpus", e.c, oracles_, declarations_), nullptr);
  }

  void search(const Property& p) {
    summary_.coverage.required[p.name] = p.required;
    for (long i = 0; i < options_.cases; ++i) {
      const rc::Shrinkable<Case> generated = p.gen(case_random(options_.seed, p.name, i), rc::kNominalSize);
      record(evaluate(p.name, generated.value(), oracles_, declarations_), &generated);
    }
    if (!options_.quiet) progress(p.name);
  }

 private:
  void record(const CaseRecord& r, const rc::Shrinkable<Case>* generated) {
    out_.write(r);
    ++summary_.verdicts[to_string(r.judgement.verdict)];
    ++summary_.cases_per_property[r.property];
    summary_.coverage.add(r.property, r.c);
    if (!r.outcomes.empty()) summary_.coverage.add_outcome(r.property, r.outcomes.front());
    for (const auto& [name, o] : r.outcomes)
      if (o.status != Status::ok && o.status != Status::error) ++summary_.statuses[name + ":" + to_string(o.status)];
    for (DeclarationUse& u : summary_.declarations) {
      if (u.declaration.covers(r.c)) ++u.covered;
      if (("," + r.judgement.known_id + ",").find("," + u.declaration.id + ",") != std::string::npos) ++u.matched;
    }
    if (r.judgement.verdict == Verdict::agree) return;
    // Corpus cases are findings of their own (keyed by id); generated ones group by signature.
    const std::string key = generated ? r.judgement.signature : "corpus:" + r.c.id + ":" + canonical_form(r.c);
    auto it = index_.find(key);
    if (it != index_.end()) {
      ++summary_.findings[it->second].hits;
      return;
    }
    Finding f;
    f.signature = r.judgement.signature;
    f.property = r.property;
    const OpInfo* op = find_op(r.c.op);
    f.family = op ? op->family : r.c.op;
    f.original = r.c;
    f.hits = 1;
    f.minimal = r;
    if (generated) {
      const Shrunk shrunk = shrink(*generated, r, [&](const Case& c) { return evaluate(f.property, c, oracles_, declarations_); },
                                   options_.max_shrink_evaluations);
      f.minimal = shrunk.minimal;
      f.shrink_steps = shrunk.steps;
    }
    f.verdict = f.minimal.judgement.verdict;
    f.known_id = f.minimal.judgement.known_id;
    index_[key] = summary_.findings.size();
    summary_.findings.push_back(f);
  }

  void progress(const std::string& property) {
    long fresh = 0, known = 0;
    for (const Finding& f : summary_.findings)
      if (f.property == property) (f.is_new() ? fresh : known) += 1;
    std::cerr << "  " << property << ": " << summary_.cases_per_property[property] << " cases, " << fresh
              << " new signature(s), " << known << " known\n";
  }

  const RunOptions& options_;
  RunSummary& summary_;
  JsonlWriter& out_;
  std::vector<std::unique_ptr<Oracle>> oracles_;
  std::vector<Declaration> declarations_;
  std::map<std::string, size_t> index_;
};

}  // namespace

int run_conformance(const RunOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.command = options.command;
  summary.arguments = options.arguments;
  summary.seed = options.seed;
  summary.cases_requested = options.random ? options.cases : 0;
  summary.started_at = utc_now();

  std::vector<const Property*> chosen;
  for (const std::string& name : options.properties) {
    const Property* p = find_property(name);
    if (!p) {
      std::cerr << "broadcheck: unknown property \"" << name << "\"; valid: " << property_names() << "\n";
      return kExitBadInput;
    }
    chosen.push_back(p);
  }
  if (chosen.empty())
    for (const Property& p : properties()) chosen.push_back(&p);

  std::error_code ec;
  std::filesystem::create_directories(options.out, ec);
  if (ec) {
    std::cerr << "broadcheck: " << options.out << ": cannot create the output folder: " << ec.message() << "\n";
    return kExitBadInput;
  }
  const std::string dir = options.out + "/";
  try {
    JsonlWriter out(dir + "results.jsonl");
    Runner runner(options, summary, out);
    runner.load_declarations();

    CorpusLoad corpus = load_corpus(options.corpus_files);
    for (size_t i = 0; i < options.inline_cases.size(); ++i) {
      try {
        corpus.entries.push_back({parse_case_text(options.inline_cases[i]), "--case", static_cast<int>(i + 1)});
      } catch (const CaseError& e) {
        corpus.errors.push_back("--case " + std::to_string(i + 1) + ": " + e.what());
      }
    }
    summary.input_errors.insert(summary.input_errors.end(), corpus.errors.begin(), corpus.errors.end());
    for (const std::string& e : corpus.errors) std::cerr << "broadcheck: " << e << "\n";
    if (!options.quiet && !corpus.entries.empty())
      std::cerr << "replaying " << corpus.entries.size() << " corpus case(s)\n";
    runner.replay(corpus.entries);
    if (options.random) {
      if (!options.quiet) std::cerr << "checking " << chosen.size() << " properties, " << options.cases << " cases each, seed " << options.seed << "\n";
      for (const Property* p : chosen) runner.search(*p);
    }
  } catch (const std::exception& e) {
    std::cerr << "broadcheck: internal error: " << e.what() << "\n";
    return kExitInternal;
  }

  // New findings first, then known; stable otherwise (discovery order).
  std::stable_sort(summary.findings.begin(), summary.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.is_new() && !b.is_new(); });
  long fresh = 0;
  for (const Finding& f : summary.findings) fresh += f.is_new();
  summary.exit_code = !summary.input_errors.empty() ? kExitBadInput : fresh > 0 ? kExitFindings : kExitOk;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  try {
    std::ofstream(dir + "summary.json") << to_json(summary).dump(1) << "\n";
    write_junit(summary, dir + "junit.xml");
    write_html_report(summary, dir + "report.html");
  } catch (const std::exception& e) {
    std::cerr << "broadcheck: internal error while writing reports: " << e.what() << "\n";
    return kExitInternal;
  }
  if (!options.quiet) {
    long stale = 0;
    for (const DeclarationUse& u : summary.declarations) stale += u.stale();
    std::cerr << "done in " << summary.seconds << " s: " << summary.verdicts["agree"] << " agree, " << fresh
              << " new finding(s), " << (summary.findings.size() - fresh) << " known, " << stale
              << " stale declaration(s), " << summary.input_errors.size() << " input error(s)\n";
    for (const std::string& m : summary.coverage.missing()) std::cerr << "coverage MISSING: " << m << "\n";
    std::cerr << "wrote " << dir << "results.jsonl, summary.json, junit.xml, report.html\n";
  }
  return summary.exit_code;
}

}  // namespace bc
