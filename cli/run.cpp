#include "cli/run.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/build_info.h"
#include "cli/declaration_scope.h"
#include "cli/builtin_implementations.h"
#include "cli/number_text.h"
#include "cli/outputs.h"
#include "cli/replay_commands.h"
#include "cli/rerun.h"
#include "cli/run_fingerprint.h"
#include "cli/run_inputs.h"
#include "harness/adapter_fault.h"
#include "harness/console.h"
#include "harness/corpus.h"
#include "harness/signature.h"
#include "harness/utf8.h"
#include "oracles/child_process.h"
#include "properties/check.h"
#include "properties/exec.h"
#include "properties/registry.h"
#include "reports/html_report.h"
#include "reports/jsonl_writer.h"
#include "reports/junit_writer.h"
#include "reports/html_text.h"
#include "reports/markdown_summary.h"
#include "reports/text_file.h"
#include "reports/verdict.h"

namespace bc {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  request_stop(true);  // waits on workers and adapters give up at once (oracles/child_process.h)
}

using Clock = std::chrono::steady_clock;

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Progress on stderr (harness/console.h): a line rewritten in place on a terminal, a plain line every 10 s otherwise.
class ProgressLine {
 public:
  ProgressLine(Progress mode, double budget) : on_(mode != Progress::quiet), tty_(isatty(2)), budget_(budget) {}
  void update(const std::string& where, long cases, long fresh, long known) {
    if (!on_) return;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (since < (tty_ ? 0.2 : 10.0)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::ostringstream line;
    line << where << ": " << cases << " cases, " << static_cast<long>(cases / std::max(elapsed, 1e-9))
         << " cases/s, " << fresh << " new, " << known << " known";
    if (budget_ > 0) line << ", " << static_cast<long>(std::max(0.0, budget_ - elapsed)) << " s left";
    console_progress(line.str());  // on a terminal, cut to its width and redrawn in place
  }
  void finish() { console_end_progress(); }

 private:
  bool on_, tty_;
  double budget_;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

class Runner {
 public:
  Runner(const RunOptions& options, RunSummary& summary, JsonlWriter& out)
      : options_(options), summary_(summary), out_(out), oracles_(make_all_oracles(options.isolate, options.timeout_ms)),
        progress_(options.progress, options.time_budget) {
    for (auto& o : oracles_) summary_.versions[o->name()] = o->version();
    summary_.versions["broadcheck"] = broadcheck_commit();
  }

  void use_declarations(std::vector<Declaration> declarations) {
    declarations_ = std::move(declarations);
    for (const Declaration& d : declarations_) {
      summary_.declarations.push_back({d, 0, 0});
      auto at = std::find(named_.begin(), named_.end(), d.oracle);
      if (at == named_.end()) at = named_.insert(at, d.oracle);
      names_.push_back(static_cast<size_t>(at - named_.begin()));
    }
    for (const std::string& name : inactive_oracles(declarations_))
      if (options_.progress != Progress::quiet)
        std::cerr << "broadcheck: " << name << " does not take part in this run; its declarations are inactive\n";
    for (const std::string& which : inactive_on_this_processor(declarations_))
      if (options_.progress != Progress::quiet)
        std::cerr << "broadcheck: this processor lacks what declaration " << which << " needs; it is inactive\n";
  }

  // Corpus cases take seq 0..n-1, whatever the shard, so that every shard numbers the search alike.
  void replay(const std::vector<CorpusEntry>& entries) {
    std::vector<Item> window;
    for (size_t k = 0; k < entries.size() && !stopped(); ++k) {
      if (!options_.shard.takes(static_cast<long>(k)) || !options_.takes_op(entries[k].c.op)) continue;
      window.push_back({entries[k].property, entries[k].c, static_cast<long>(k), -1});
      if (window.size() == kWindow) run_window(window);
    }
    run_window(window);
    seq_base_ = static_cast<long>(entries.size());
  }

  // Round robin over the properties, case index by case index, until each has its --cases or the time is spent.
  // Under --op a property counts only the cases of those ops, so it draws on until it has --cases of them, or
  // gives up (and says so) after kDrawsPerCase draws per case asked for; every shard draws every index to count
  // alike, and runs its own.
  void search(const std::vector<const Property*>& chosen) {
    const long per_round = static_cast<long>(chosen.size());
    const bool filtered = !options_.ops.empty();
    std::vector<long> taken(chosen.size(), 0);
    auto wants_more = [&](long k, long i) {
      return !options_.cases || (taken[k] < *options_.cases && (!filtered || i < kDrawsPerCase * *options_.cases));
    };
    std::vector<Item> window;
    long i = 0;
    for (bool drawing = true; drawing && !stopped(); ++i) {
      drawing = false;
      for (long k = 0; k < per_round; ++k) {
        if (!wants_more(k, i)) continue;
        drawing = true;
        const long seq = seq_base_ + i * per_round + k;
        const bool mine = options_.shard.takes(seq);
        if (!mine && !filtered) {
          ++taken[k];
          continue;
        }
        const Property& p = *chosen[k];
        // Required once the property runs here (--op: other ops never run, so nothing is required).
        if (!filtered && !summary_.coverage.required.count(p.name))
          summary_.coverage.required[p.name] = required_classes(p);
        Case c = draw_value(p, i);
        if (!options_.takes_op(c.op)) continue;
        ++taken[k];
        if (!mine) continue;
        // A window holds no case twice: an oracle queues a case once (Oracle::submit), so the second copy would be
        // sent alone behind the rest of the window, whose queued answers would then be read and dropped.
        if (std::any_of(window.begin(), window.end(), [&](const Item& queued) { return same_case(queued.c, c); }))
          run_window(window);
        window.push_back({p.name, std::move(c), seq, i});
        if (window.size() == kWindow) run_window(window);
      }
    }
    run_window(window);
    if (filtered && options_.cases && options_.progress != Progress::quiet && !stopped())
      for (long k = 0; k < per_round; ++k)
        if (taken[k] < *options_.cases)
          std::cerr << "broadcheck: --op: " << chosen[k]->name << " drew " << taken[k] << " case(s) of these ops in "
                    << kDrawsPerCase * *options_.cases << " draws, fewer than --cases " << *options_.cases << "\n";
  }

  void finish() { progress_.finish(); }

 private:
  static bool interrupted() { return g_signal.load() != 0; }  // SIGINT or SIGTERM
  bool stopped() const {
    if (g_signal.load() != 0) return true;
    return options_.time_budget > 0 &&
           std::chrono::duration<double>(Clock::now() - start_).count() >= options_.time_budget;
  }

  // Cases are run in windows of this many: every oracle is handed the whole window first (an isolated oracle's
  // worker then computes ahead, in parallel with this process), then the window's cases are run in order, then
  // each is judged and recorded in order.
  // bench_run's isolated full run against the in-process one: 0.79x with 16, 0.85x with 32, 0.79x with 64, 0.42x
  // with 256 (not explained yet; perhaps the cases then overflow the pipe and the worker waits for the parent).
  static constexpr size_t kWindow = 32;
  // Under --op, how many draws per case asked for a property may take to find cases of those ops.
  static constexpr long kDrawsPerCase = 100;

  // A case to run: its property ("corpus" for a replayed one), its place in the run, and for a generated case its
  // index (for the reproduce token and its shrink tree; -1 for a corpus case).
  struct Item {
    std::string property;
    Case c;
    long seq;
    long index;
  };

  // The generated case `index` of `p`, drawn without the shrink tree that only a finding to shrink needs
  // (docs/notes/generation.md); shrink_tree() draws the same case with it.
  Case draw_value(const Property& p, long index) const {
    gen::ValuesOnly values_only;
    return p.gen(case_random(options_.seed, p.name, index), rc::kNominalSize).value();
  }

  rc::Shrinkable<Case> shrink_tree(const std::string& property, long index) const {
    return find_property(property)->gen(case_random(options_.seed, property, index), rc::kNominalSize);
  }

  // The findings a window opened are shrunk after it, when no oracle has cases of the window queued.
  void run_window(std::vector<Item>& window) {
    for (const Item& item : window) submit_requests(item.property, item.c, oracles_);
    // The window's oracle calls back to back, then the judging: the libraries' code and data stay in the caches
    // from one case to the next (bench/README.md, "Calls first, then the judge").
    records_.clear();
    for (Item& item : window) {
      if (stopped()) break;
      CaseRecord r = run_case(item.property, std::move(item.c), oracles_);
      if (interrupted()) break;  // a wait the signal cut short gave it outcomes that are not its own: not reported
      records_.push_back(std::move(r));
      records_.back().seq = item.seq;
    }
    for (size_t k = 0; k < records_.size(); ++k) {
      judge_case(records_[k], oracles_, declarations_, options_.strict_zeros);
      record(std::move(records_[k]), window[k].index);
      progress_.update(window[k].property, cases_, fresh_, known_);
    }
    window.clear();
    for (const ShrinkLater& s : shrink_later_) {
      Finding& f = summary_.findings[s.finding];
      if (interrupted()) {  // a stopping run shrinks nothing more: the finding keeps its first case
        f.reproduce = reproduce_token(options_.seed, f.property, s.index, {});
        describe_reproduction(f, options_.replay_prefix);
        continue;
      }
      const Shrunk shrunk = shrink(
          shrink_tree(f.property, s.index), f.minimal,
          [&](const Case& c) {  // under --op, a case of another op never counts as failing the same way
            if (!options_.takes_op(c.op) || interrupted()) return CaseRecord{};
            CaseRecord r = evaluate(f.property, c, oracles_, declarations_, options_.strict_zeros);
            return interrupted() ? CaseRecord{} : r;  // cut short by the signal: not a shrink step
          },
          options_.max_shrink_evaluations);
      const long seq = f.minimal.seq;
      f.minimal = shrunk.minimal;
      f.minimal.seq = seq;
      f.shrink_steps = shrunk.steps;
      f.shrunk = true;
      f.verdict = f.minimal.judgement.verdict;
      f.known_id = f.minimal.judgement.known_id;
      f.reproduce = reproduce_token(options_.seed, f.property, s.index, shrunk.path);
      describe_reproduction(f, options_.replay_prefix);
    }
    shrink_later_.clear();
    // Before a finding is reported as new, its minimal case runs again in fresh workers (cli/rerun.h).
    for (const size_t k : rerun_later_) {
      Finding& f = summary_.findings[k];
      if (!f.is_new() || stopped()) continue;
      f.reproduction = rerunner_.rerun(f.minimal, declarations_);
      if (interrupted()) f.reproduction = Reproduction{};  // cut short by the signal: never re-run, as said
      if (!f.reproduction.stable()) {
        f.minimal.stability = f.reproduction.kind;
        --fresh_;
      }
    }
    rerun_later_.clear();
    for (auto& o : oracles_) add_faults(o->take_faults());
    add_faults(rerunner_.take_faults());
    // The window's records go out once their findings are classified.
    for (Pending& p : pending_) {
      if (!p.key.empty()) p.record.stability = summary_.findings[index_.at(p.key)].reproduction.kind;
      out_.write(p.record);
      ++summary_.verdicts[p.record.stability.empty() ? to_string(p.record.judgement.verdict) : p.record.stability];
      count_difference_classes(p.record.judgement, summary_.difference_classes);
      summary_.messages.add(p.record.c.op, p.record.outcomes);
    }
    out_.end_batch();
    pending_.clear();
  }

  // An adapter's faults that are no case's (harness/adapter_fault.h) are its findings, new, one per adapter and kind.
  void add_faults(const std::vector<AdapterFault>& faults) {
    for (const AdapterFault& fault : faults) {
      Finding f = fault_finding(fault);
      f.first_seq = seq_base_ + cases_;
      auto it = index_.find(f.key);
      if (it != index_.end()) {
        ++summary_.findings[it->second].hits;
        continue;
      }
      ++fresh_;
      index_[f.key] = summary_.findings.size();
      summary_.findings.push_back(std::move(f));
    }
  }

  // The declarations whose op list admits `op` (indices into summary_.declarations): only those can cover or
  // match its cases, so the others are not looked at for every case.
  const std::vector<size_t>& declarations_for(const std::string& op) {
    auto it = declarations_for_op_.find(op);
    if (it != declarations_for_op_.end()) return it->second;
    std::vector<size_t>& mine = declarations_for_op_[op];
    for (size_t k = 0; k < summary_.declarations.size(); ++k)
      if (summary_.declarations[k].declaration.covers_op(op)) mine.push_back(k);
    return mine;
  }

  // Whether `id` is one of the comma-separated ids in `ids` (a judgement's known_id).
  static bool lists_id(const std::string& ids, const std::string& id) {
    if (id.empty() || ids.empty()) return false;  // most cases have no known id: nothing to search
    for (size_t at = ids.find(id); at != std::string::npos; at = ids.find(id, at + 1))
      if ((at == 0 || ids[at - 1] == ',') && (at + id.size() == ids.size() || ids[at + id.size()] == ',')) return true;
    return false;
  }

  // Whether a new generated finding of this verdict is shrunk (--shrink).
  bool shrinks(Verdict v) const {
    switch (options_.shrinking) {
      case Shrinking::all: return true;
      case Shrinking::none: return false;
      case Shrinking::new_findings: return v != Verdict::known;
    }
    return true;
  }

  // Counts an outcome that neither succeeded nor failed ("torch:unsupported"), the `k`th of its case. The outcomes
  // come in the same order case after case, so the count the kth outcome went to last time is tried first.
  void count_status(size_t k, const std::pair<std::string, Outcome>& named) {
    const Status status = named.second.status;
    if (status == Status::ok || status == Status::error) return;
    if (k >= status_slots_.size()) status_slots_.resize(k + 1);
    StatusSlot& slot = status_slots_[k];
    if (!slot.count || slot.status != status || slot.name != named.first)
      slot = {named.first, status, &summary_.statuses[named.first + ":" + to_string(status)]};
    ++*slot.count;
  }

  // Counts the case and opens or adds to its finding; its results line waits for the end of the window.
  // `index` is a generated case's index in its property, -1 for a corpus case.
  void record(CaseRecord&& record, long index) {
    const bool generated = index >= 0;
    ++cases_;
    pending_.push_back({std::move(record), ""});
    const CaseRecord& r = pending_.back().record;
    ++summary_.cases_per_property[r.property];
    ++summary_.cases_per_op[r.property][r.c.op];
    add_to_scoreboard(summary_.scoreboard, r);
    summary_.coverage.add(r.property, r.c);
    if (!r.outcomes.empty()) summary_.coverage.add_outcome(r.property, r.outcomes.front());
    // A variant (another path through a voter's library) does not vote: its answers show that the path ran; so do
    // an implementation's answers in the dtypes it must be seen to answer.
    for (const auto& named : r.outcomes) {
      const Implementation* i = find_implementation(named.first);
      if (!i || named.second.status == Status::unsupported) continue;
      if (i->role == Role::variant) summary_.coverage.add_outcome(r.property, named);
      for (DType t : i->answers)
        if (std::find(r.c.dtypes.begin(), r.c.dtypes.end(), t) != r.c.dtypes.end())
          summary_.coverage.add_class(r.property, named.first + " answers " + to_string(t));
    }
    for (size_t k = 0; k < r.outcomes.size(); ++k) count_status(k, r.outcomes[k]);
    // A declaration is in scope when the case ran on the implementation it names (an absent adapter's declarations
    // never are): the cheaper test, so it comes first, asked once per name and case.
    ran_.assign(named_.size(), -1);
    const Property* checked = find_property(r.property);
    const Check check = checked ? checked->check : Check::oracles;
    for (const size_t k : declarations_for(r.c.op)) {
      DeclarationUse& u = summary_.declarations[k];
      signed char& ran = ran_[names_[k]];
      if (ran < 0) ran = named_[names_[k]] == "document" || find_outcome(r.outcomes, named_[names_[k]]);
      if (ran && u.declaration.covers_beyond_op(r.c) && could_explain(u.declaration, check, r)) ++u.covered;
      if (lists_id(r.judgement.known_id, u.declaration.id)) ++u.matched;
    }
    if (r.judgement.verdict == Verdict::agree) return;
    // Generated cases group by signature and verdict (a declared case must not absorb undeclared ones of the same
    // signature); a corpus case is a finding of its own.
    const std::string key = generated ? r.judgement.signature + " | " + to_string(r.judgement.verdict)
                                      : "corpus:" + r.c.id + ":" + canonical_form(r.c);
    pending_.back().key = key;
    auto it = index_.find(key);
    if (it != index_.end()) {
      ++summary_.findings[it->second].hits;
      return;
    }
    Finding f;
    f.key = key;
    f.signature = r.judgement.signature;
    f.property = r.property;
    f.family = family_of(r.c);
    f.original = r.c;
    f.first_seq = r.seq;
    f.hits = 1;
    f.minimal = r;
    f.verdict = r.judgement.verdict;  // shrinking keeps it
    f.known_id = r.judgement.known_id;
    if (generated && shrinks(f.verdict)) {
      shrink_later_.push_back({summary_.findings.size(), index});
    } else {
      if (generated) f.reproduce = reproduce_token(options_.seed, f.property, index, {});
      describe_reproduction(f, options_.replay_prefix);
    }
    (f.is_new() ? fresh_ : known_) += 1;
    rerun_later_.push_back(summary_.findings.size());
    index_[key] = summary_.findings.size();
    summary_.findings.push_back(f);
  }

  const RunOptions& options_;
  RunSummary& summary_;
  JsonlWriter& out_;
  std::vector<std::unique_ptr<Oracle>> oracles_;
  ProgressLine progress_;
  std::vector<Declaration> declarations_;
  std::map<std::string, size_t> index_;
  struct ShrinkLater {
    size_t finding;
    long index;
  };
  std::vector<ShrinkLater> shrink_later_;
  std::vector<CaseRecord> records_;  // the window's cases with their outcomes, waiting to be judged
  std::vector<size_t> rerun_later_;  // findings opened in this window
  Rerunner rerunner_{options_.isolate, options_.timeout_ms};
  struct Pending {
    CaseRecord record;
    std::string key;  // its finding's key; "" for an agreement
  };
  std::vector<Pending> pending_;
  std::map<std::string, std::vector<size_t>> declarations_for_op_;
  std::vector<std::string> named_;  // the implementations the declarations name, each once
  std::vector<size_t> names_;       // per declaration, its implementation's place in named_
  std::vector<signed char> ran_;    // per name in named_, for the case being counted: ran it, not, -1 not asked yet
  struct StatusSlot {
    std::string name;
    Status status = Status::ok;
    long* count = nullptr;  // into summary_.statuses (a map's values stay put)
  };
  std::vector<StatusSlot> status_slots_;
  long seq_base_ = 0, cases_ = 0, fresh_ = 0, known_ = 0;
  Clock::time_point start_ = Clock::now();
};

}  // namespace

// Appends each new finding's minimal case to `path` in corpus form, skipping cases already there (by canonical
// form). Returns how many were added; throws std::runtime_error when the file cannot be written.
static long save_findings(const RunSummary& summary, const std::string& path) {
  std::set<std::string> have;
  for (const CorpusEntry& e : load_corpus({path}).entries) have.insert(canonical_form(e.c));
  std::ofstream out(path, std::ios::app);
  if (!out) throw std::runtime_error(path + ": cannot open for appending");
  long added = 0;
  for (const Finding& f : summary.findings) {
    if (!f.is_new() || f.key.rfind("corpus:", 0) == 0) continue;
    Case c = f.minimal.c;
    const std::string id = finding_id(c);  // the id its replay command's --out names
    // A finding of another check than the corpus' own replays under its property's check.
    const Property* p = find_property(f.property);
    if (p && p->check != Check::oracles) c.property = f.property;
    if (!have.insert(canonical_form(c)).second) continue;
    c.id = id;
    c.tags = {"finding"};
    c.source = "broadcheck run --seed " + std::to_string(summary.seed) + " (" + f.property + ")";
    c.note = f.minimal.judgement.attribution + " [" + f.signature + "]";
    out << json_text(to_json(c)) << "\n";
    ++added;
  }
  return added;
}

const char* to_string(Shrinking s) {
  switch (s) {
    case Shrinking::new_findings: return "new";
    case Shrinking::all: return "all";
    case Shrinking::none: return "none";
  }
  return "new";
}

std::optional<Shrinking> shrinking_from_string(const std::string& text) {
  for (Shrinking s : {Shrinking::new_findings, Shrinking::all, Shrinking::none})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

rc::Random case_random(uint64_t seed, const std::string& property, long index) {
  return rc::Random(rc::Random::Key{seed, stable_hash(property), static_cast<uint64_t>(index), 0x6263});
}

std::string reproduce_token(uint64_t seed, const std::string& property, long index,
                            const std::vector<std::size_t>& path) {
  std::string p;
  for (std::size_t step : path) p += (p.empty() ? "" : ".") + std::to_string(step);
  return "bc1/" + std::to_string(seed) + "/" + property + "/" + std::to_string(index) + "/" + (p.empty() ? "-" : p);
}

Case case_from_reproduce_token(const std::string& token) {
  std::vector<std::string> parts;
  std::stringstream in(token);
  for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
  if (parts.size() != 5 || parts[0] != "bc1" || token.back() == '/')
    throw CaseError("a reproduce token looks like bc1/SEED/PROPERTY/INDEX/PATH, got \"" + visible_utf8(token) + "\"");
  const Property* p = find_property(parts[2]);
  if (!p) throw CaseError("unknown property \"" + visible_utf8(parts[2]) + "\" in the token; valid: " + property_names());
  const std::optional<uint64_t> seed = parse_uint64(parts[1]);
  const std::optional<long> index = parse_count(parts[3]);
  std::vector<std::size_t> path;
  bool steps_ok = true;
  if (parts[4] != "-") {
    std::stringstream steps(parts[4] + ".");  // a trailing '.' keeps an empty last step visible
    for (std::string step; std::getline(steps, step, '.');) {
      const std::optional<long> k = parse_count(step);
      steps_ok = steps_ok && k.has_value();
      if (k) path.push_back(static_cast<std::size_t>(*k));
    }
  }
  if (!seed || !index || !steps_ok)
    throw CaseError("the numbers in \"" + visible_utf8(token) + "\" do not parse: SEED and INDEX are whole numbers, "
                    "PATH is \"-\" or whole numbers joined by '.'");
  std::optional<Case> c = follow_shrink_path(p->gen(case_random(*seed, p->name, *index), rc::kNominalSize), path);
  if (!c) throw CaseError("the shrink path in \"" + visible_utf8(token) + "\" does not exist for this generator");
  return *c;
}

int exit_code_for(const RunSummary& summary, int signal_number) {
  if (!summary.internal_error.empty()) return kExitInternal;
  if (!summary.input_errors.empty()) return kExitBadInput;
  for (const Finding& f : summary.findings)
    if (f.is_new()) return kExitFindings;
  if (summary.fail_on_stale && stale_declarations(summary) > 0) return kExitFindings;
  if (signal_number != 0) return 128 + signal_number;
  return kExitOk;
}

void write_reports(const RunSummary& summary, const std::string& dir, const std::string& out) {
  write_text_file(dir + "/summary.json", json_text(to_json(summary), 1) + "\n");
  write_junit(summary, dir + "/junit.xml");
  write_html_report(summary, dir + "/report.html");
  write_markdown_summary(summary, dir, out + "/report.html");
}

// The end of a run on stderr: unless quiet, the counts, each new finding with its minimal case, stale
// declarations, missing coverage and the files written; always the verdict line (reports/verdict.h) and where
// the report is (`out`; "" when the reports could not be written).
static void print_verdict(const RunSummary& summary, const std::string& out, bool quiet) {
  if (!quiet) {
    long fresh = 0, unstable = 0;
    const long stale = stale_declarations(summary);
    for (const Finding& f : summary.findings) fresh += f.is_new(), unstable += !f.reproduction.stable();
    if (summary.interrupted) std::cerr << "interrupted by signal " << summary.signal << "; reporting what ran\n";
    for (const std::string& death : summary.job_deaths) std::cerr << "  JOB DIED: " << death << "\n";
    const long agree = summary.verdicts.count("agree") ? summary.verdicts.at("agree") : 0;
    std::cerr << fmt::format("done in {:.1f} s: ", summary.seconds) << agree << " agree, " << fresh << " new finding(s), "
              << (summary.findings.size() - fresh - unstable) << " known, " << unstable
              << " flaky or nondeterministic, " << stale << " stale declaration(s), "
              << summary.input_errors.size() << " input error(s)\n";
    for (const Finding& f : summary.findings)
      if (f.is_new()) std::cerr << "  NEW " << f.signature << "\n      minimal: " << describe(f.minimal.c) << "\n";
    for (const Finding& f : summary.findings)
      if (!f.reproduction.stable())
        std::cerr << "  " << (f.reproduction.kind == "flaky" ? "FLAKY " : "NONDETERMINISTIC ") << f.signature
                  << "\n      " << describe(f.reproduction) << "; minimal: " << describe(f.minimal.c) << "\n";
    for (const DeclarationUse& u : summary.declarations)
      if (u.stale()) std::cerr << "  STALE declaration " << u.declaration.id << "\n";
    for (const std::string& m : summary.coverage.missing()) std::cerr << "  coverage MISSING: " << m << "\n";
    if (const size_t n = summary.messages.inconsistencies().size())
      std::cerr << "  " << n << " message finding(s): an implementation words one error kind differently across ops "
                << "(informational; the report lists them)\n";
    for (const auto& [kind, n] : summary.difference_classes)
      std::cerr << "  " << n << " case(s) also differ in " << kind << (kind == "zeros" ? " (the sign of zero)" : "")
                << " behind their verdict\n";
    if (!out.empty()) std::cerr << "wrote " << out << "/{results.jsonl, summary.json, summary.md, junit.xml, report.html}\n";
  }
  std::cerr << verdict_text(summary) << "\n";
  if (!out.empty()) std::cerr << "report: " << out << "/report.html\n";
}

int publish_run(const RunSummary& summary, OutputFolder& outputs, const RunOptions& options,
                const std::string& results_unwritten) {
  const bool quiet = options.progress == Progress::quiet;
  std::string unwritten = results_unwritten;
  if (unwritten.empty()) {
    try {
      write_reports(summary, outputs.staging(), options.out);
    } catch (const std::exception& e) {
      unwritten = visible_utf8(e.what());
    }
  }
  if (unwritten.empty()) unwritten = outputs.commit();
  if (!unwritten.empty()) {  // an --out that cannot be written is an input error (exit 2), said on the console
    outputs.abandon();        // nothing half-written stays behind to fill the disk
    RunSummary told = summary;
    told.input_errors.push_back("cannot write the reports: " + unwritten + "; " + options.out +
                                " holds no report of this run nor of an earlier one");
    told.exit_code = exit_code_for(told, told.signal);
    std::cerr << "broadcheck: " << told.input_errors.back() << "\n";
    if (options.unwritten_fd >= 0 && ::write(options.unwritten_fd, unwritten.data(), unwritten.size()) < 0)
      std::cerr << "broadcheck: the reason did not reach the parent\n";  // it says the job wrote nothing anyway
    if (!options.job) print_verdict(told, "", quiet);
    return told.exit_code;
  }
  // A GitHub Actions job page gets one section per run: the whole run's, never a job's (cli/jobs.h).
  const char* step_summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (step_summary && *step_summary && !options.job) {
    const std::string problem = append_step_summary(markdown_summary(summary, options.out + "/report.html"), step_summary);
    if (!problem.empty()) std::cerr << "broadcheck: warning: " << visible_utf8(problem) << "\n";
  }
  if (!options.save.empty()) {
    try {
      const long added = save_findings(summary, options.save);
      if (!quiet) std::cerr << "saved " << added << " new minimal case(s) to " << options.save << "\n";
    } catch (const std::exception& e) {
      std::cerr << "broadcheck: " << visible_utf8(e.what()) << "\n";
      return summary.exit_code == kExitOk ? kExitBadInput : summary.exit_code;
    }
  }
  if (!options.job) print_verdict(summary, options.out, quiet);
  return summary.exit_code;
}

RunSummary summary_of_no_case(const RunOptions& options) {
  RunSummary summary;
  summary.command = options.command;
  summary.arguments = options.arguments;
  summary.seed = options.seed;
  summary.cases_requested = options.random && options.cases ? *options.cases : 0;
  summary.shard = options.shard.text();
  summary.results = to_string(options.results);
  summary.fail_on_stale = options.fail_on_stale;
  summary.started_at = utc_now();
  return summary;
}

int run_conformance(const RunOptions& options) {
  const auto t0 = Clock::now();
  RunSummary summary = summary_of_no_case(options);
  const bool quiet = options.progress == Progress::quiet;

  OutputFolder outputs;
  const std::string unwritable = outputs.open(options.out);
  if (!unwritable.empty()) {
    std::cerr << "broadcheck: " << unwritable << "\n";
    return kExitBadInput;
  }
  summary.input_errors = options.input_errors;
  std::vector<const Property*> chosen;
  for (const std::string& name : options.properties) {
    const Property* p = find_property(name);
    if (p && std::find(chosen.begin(), chosen.end(), p) != chosen.end())
      summary.input_errors.push_back("--property " + name + " is given twice");
    else if (p) chosen.push_back(p);
    else summary.input_errors.push_back("--property: unknown property \"" + visible_utf8(name) + "\"; valid: " + property_names());
  }
  if (chosen.empty())
    for (const Property& p : properties()) chosen.push_back(&p);
  const bool usable = summary.input_errors.empty();  // a bad command line runs nothing; bad lines drop only themselves

  std::string unwritten;  // why results.jsonl could not be written, if it could not
  g_signal.store(0);
  request_stop(false);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  try {
    JsonlWriter out(outputs.path("results.jsonl"), options.results);
    Runner runner(options, summary, out);
    RunInputs inputs = usable ? load_run_inputs(options) : RunInputs{};
    runner.use_declarations(std::move(inputs.declarations));
    summary.input_errors.insert(summary.input_errors.end(), inputs.errors.begin(), inputs.errors.end());
    if (!options.job)  // the jobs' parent prints them once for the whole run
      for (const std::string& e : summary.input_errors) std::cerr << "broadcheck: " << e << "\n";
    if (!quiet && !inputs.entries.empty()) console_message(fmt::format("replaying {} corpus case(s)\n", inputs.entries.size()));
    runner.replay(inputs.entries);
    // For tests of the internal-error path (nothing else reaches it on purpose): fail after the replay.
    if (std::getenv("BROADCHECK_INJECT_INTERNAL_ERROR"))
      throw std::runtime_error("failure injected by BROADCHECK_INJECT_INTERNAL_ERROR");
    if (options.random && usable) {
      // A job's shard is its parent's business: the parent names the run's own (cli/jobs.cpp).
      if (!quiet)
        console_message(fmt::format(
            "checking {} properties, {}{}, seed {}{}\n", chosen.size(),
            options.cases ? std::to_string(*options.cases) + " cases each" : std::string("cases until the time is up"),
            options.time_budget > 0 ? fmt::format(", at most {:g} s", options.time_budget) : "", options.seed,
            summary.shard.empty() || options.job ? "" : ", shard " + summary.shard));
      runner.search(chosen);
    }
    runner.finish();
    out.finish();
  } catch (const WriteError& e) {  // results.jsonl is incomplete: no report of this run can be published
    unwritten = visible_utf8(e.what());
  } catch (const std::exception& e) {
    summary.internal_error = visible_utf8(e.what());
    console_message("broadcheck: internal error: " + summary.internal_error + "; reporting what ran\n");
  }
  const int sig = g_signal.load();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  request_stop(false);
  summary.interrupted = sig != 0;
  summary.signal = sig;
  // One shard of several may hold no case at all; the merged run is where that would count.
  if (cases_checked(summary) == 0 && !summary.interrupted && summary.internal_error.empty() && options.shard.count == 1) {
    summary.input_errors.push_back(kNothingChecked);
    std::cerr << "broadcheck: " << kNothingChecked << "\n";
  }

  // New findings first, then known; discovery order otherwise.
  std::stable_sort(summary.findings.begin(), summary.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.is_new() && !b.is_new(); });
  summary.exit_code = exit_code_for(summary, sig);
  summary.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  summary.fingerprint = run_fingerprint(options, summary.versions);
  return publish_run(summary, outputs, options, unwritten);
}

}  // namespace bc
