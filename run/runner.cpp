#include "run/runner.h"

#include <algorithm>
#include <iostream>

#include "harness/known_divergence.h"
#include "harness/signature.h"
#include "properties/case_shrinks.h"
#include "properties/exec.h"
#include "run/evaluate.h"
#include "run/replay_commands.h"
#include "run/reproduce_token.h"
#include "run/shrink.h"
#include "run/stop_signal.h"

namespace bc {

namespace {

bool interrupted() { return stop_signal() != 0; }  // SIGINT or SIGTERM

}  // namespace

Runner::Runner(const RunOptions& options, RunSummary& summary, JsonlWriter& out, const OracleFactory& make_oracles)
    : options_(options), summary_(summary), out_(out), oracles_(make_oracles()),
      progress_(options.progress, options.time_budget), tally_(summary), rerunner_(make_oracles) {
  for (auto& o : oracles_) summary_.versions[o->name()] = o->version();
}

void Runner::use_declarations(std::vector<Declaration> declarations) {
  declarations_ = std::move(declarations);
  tally_.use_declarations(declarations_);
  for (const std::string& name : inactive_oracles(declarations_))
    if (options_.progress != Progress::quiet)
      std::cerr << "broadcheck: " << name << " does not take part in this run; its declarations are inactive\n";
  for (const std::string& which : inactive_on_this_processor(declarations_))
    if (options_.progress != Progress::quiet)
      std::cerr << "broadcheck: this processor lacks what declaration " << which << " needs; it is inactive\n";
}

void Runner::replay(const std::vector<CorpusEntry>& entries) {
  std::vector<Item> window;
  for (size_t k = 0; k < entries.size() && !stopped(); ++k) {
    if (!options_.shard.takes(static_cast<long>(k)) || !options_.takes_op(entries[k].c.op)) continue;
    window.push_back({entries[k].property, entries[k].c, static_cast<long>(k), -1});
    if (window.size() == kWindow) run_window(window);
  }
  run_window(window);
  seq_base_ = static_cast<long>(entries.size());
}

void Runner::search(const std::vector<const Property*>& chosen) {
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

// The time budget stops the run once it has checked something: on a loaded machine the oracles' start (LibTorch's
// workers, Node's adapters) can take longer than a short --time, and a run that checked nothing has not passed.
bool Runner::stopped() const {
  if (interrupted()) return true;
  return options_.time_budget > 0 && cases_ > 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >= options_.time_budget;
}

// The generated case `index` of `p`, drawn without the shrink tree that only a finding to shrink needs
// (docs/notes/generation.md); shrink_tree() draws the same case with it.
Case Runner::draw_value(const Property& p, long index) const {
  gen::ValuesOnly values_only;
  return p.gen(case_random(options_.seed, p.name, index), rc::kNominalSize).value();
}

rc::Shrinkable<Case> Runner::shrink_tree(const std::string& property, long index) const {
  return find_property(property)->gen(case_random(options_.seed, property, index), rc::kNominalSize);
}

// The findings a window opened are shrunk after it, when no oracle has cases of the window queued; new ones are
// run again (run/rerun.h); the window's records go out once their findings are classified.
void Runner::run_window(std::vector<Item>& window) {
  run_and_judge(window);
  shrink_queued();
  rerun_queued();
  for (auto& o : oracles_) add_faults(o->take_faults());
  add_faults(rerunner_.take_faults());
  write_pending();
}

// The window's oracle calls back to back, then the judging: the libraries' code and data stay in the caches from
// one case to the next (bench/README.md, "Calls first, then the judge").
void Runner::run_and_judge(std::vector<Item>& window) {
  for (const Item& item : window) submit_requests(item.property, item.c, oracles_);
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
}

void Runner::shrink_queued() {
  for (const ShrinkLater& s : shrink_later_) {
    Finding& f = summary_.findings[s.finding];
    if (interrupted()) {  // a stopping run shrinks nothing more: the finding keeps its first case
      if (s.index >= 0) f.reproduce = reproduce_token(options_.seed, f.property, s.index, {});
      describe_reproduction(f, options_.replay_prefix);
      continue;
    }
    shrink_finding(f, s.index);
  }
  shrink_later_.clear();
}

// A generated finding shrinks through its generator's tree, then through the shrinks of any case; a corpus case's
// (index -1) through the latter alone, from the case without its expectation (which was written for its shapes),
// when that still fails the same way. The corpus case itself stays as it is: it is the finding's `original`.
void Runner::shrink_finding(Finding& f, long index) {
  auto evaluate_case = [&](const Case& c) {  // under --op, a case of another op never counts as failing the same way
    if (!options_.takes_op(c.op) || interrupted()) return CaseRecord{};
    CaseRecord r = evaluate(f.property, c, oracles_, declarations_, options_.strict_zeros);
    return interrupted() ? CaseRecord{} : r;  // cut short by the signal: not a shrink step
  };
  const int budget = options_.max_shrink_evaluations;
  Shrunk shrunk;
  if (index >= 0) {
    shrunk = shrink_fully(shrink_tree(f.property, index), f.minimal, evaluate_case, budget);
  } else {
    Case start = f.original;
    start.expect.reset();
    start.id.clear();
    start.note = "shrunk from corpus case " + (f.original.id.empty() ? describe(f.original) : f.original.id);
    const CaseRecord first = f.original.expect ? evaluate_case(start) : CaseRecord{f.minimal.property, start, f.minimal.outcomes, f.minimal.judgement};
    const bool fails_alike = first.judgement.signature == f.minimal.judgement.signature &&
                             first.judgement.verdict == f.minimal.judgement.verdict;
    if (fails_alike) shrunk = shrink(shrinkable_case(start), first, evaluate_case, budget);
    if (shrunk.steps == 0) {  // nothing smaller fails alike: the corpus case is its own minimal case
      describe_reproduction(f, options_.replay_prefix);
      return;
    }
  }
  const long seq = f.minimal.seq;
  f.minimal = shrunk.minimal;
  f.minimal.seq = seq;
  f.shrink_steps = shrunk.steps;
  f.shrunk = true;
  f.verdict = f.minimal.judgement.verdict;
  f.known_id = f.minimal.judgement.known_id;
  if (index >= 0) f.reproduce = reproduce_token(options_.seed, f.property, index, shrunk.path, shrunk.case_path);
  describe_reproduction(f, options_.replay_prefix);
}

// Before a finding is reported as new, its minimal case runs again in fresh workers (run/rerun.h).
void Runner::rerun_queued() {
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
}

void Runner::write_pending() {
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
void Runner::add_faults(const std::vector<AdapterFault>& faults) {
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

// Whether a new finding of this verdict is shrunk (--shrink), generated or met in a corpus case.
bool Runner::shrinks(Verdict v) const {
  switch (options_.shrinking) {
    case Shrinking::all: return true;
    case Shrinking::none: return false;
    case Shrinking::new_findings: return v != Verdict::known;
  }
  return true;
}

// Counts the case and opens or adds to its finding; its results line waits for the end of the window.
// `index` is a generated case's index in its property, -1 for a corpus case.
void Runner::record(CaseRecord&& record, long index) {
  ++cases_;
  pending_.push_back({std::move(record), ""});
  const CaseRecord& r = pending_.back().record;
  tally_.count(r);
  if (r.judgement.verdict == Verdict::agree) return;
  // Generated cases group by signature and verdict (a declared case must not absorb undeclared ones of the same
  // signature); a corpus case is a finding of its own.
  const std::string key = index >= 0 ? r.judgement.signature + " | " + to_string(r.judgement.verdict)
                                     : "corpus:" + r.c.id + ":" + canonical_form(r.c);
  pending_.back().key = key;
  auto it = index_.find(key);
  if (it != index_.end()) {
    ++summary_.findings[it->second].hits;
    return;
  }
  open_finding(r, key, index);
}

void Runner::open_finding(const CaseRecord& r, const std::string& key, long index) {
  const bool generated = index >= 0;
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
  if (shrinks(f.verdict)) {
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

}  // namespace bc
