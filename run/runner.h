// The run loop: corpus cases first, then every chosen property's generated cases round robin (so that a time budget
// is shared fairly), in windows. A window's cases go to every oracle first, then are run and judged in order; the
// first case of each new signature (and verdict) opens a finding, which is shrunk after its window (--shrink) and,
// when new, run again in fresh oracles (run/rerun.h); then the window's results.jsonl lines go out. SIGINT and
// SIGTERM (run/stop_signal.h) and the time budget stop it between cases.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/adapter_fault.h"
#include "harness/corpus.h"
#include "harness/run_record.h"
#include "oracles/oracle.h"
#include "properties/registry.h"
#include "reports/jsonl_writer.h"
#include "run/progress_line.h"
#include "run/rerun.h"
#include "run/run_options.h"
#include "run/tally.h"

namespace bc {

class Runner {
 public:
  Runner(const RunOptions& options, RunSummary& summary, JsonlWriter& out, const OracleFactory& make_oracles);
  void use_declarations(std::vector<Declaration> declarations);
  // Corpus cases take seq 0..n-1, whatever the shard, so that every shard numbers the search alike.
  void replay(const std::vector<CorpusEntry>& entries);
  // Round robin over the properties, case index by case index, until each has its --cases or the time is spent.
  // Under --op a property counts only the cases of those ops, so it draws on until it has --cases of them, or
  // gives up (and says so) after kDrawsPerCase draws per case asked for; every shard draws every index to count
  // alike, and runs its own.
  void search(const std::vector<const Property*>& chosen);
  void finish() { progress_.finish(); }

 private:
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
  struct ShrinkLater {
    size_t finding;
    long index;
  };
  struct Pending {
    CaseRecord record;
    std::string key;  // its finding's key; "" for an agreement
  };

  bool stopped() const;
  Case draw_value(const Property& p, long index) const;
  rc::Shrinkable<Case> shrink_tree(const std::string& property, long index) const;
  void run_window(std::vector<Item>& window);
  void run_and_judge(std::vector<Item>& window);
  void shrink_queued();
  void shrink_finding(Finding& f, long index);
  void rerun_queued();
  void write_pending();
  void add_faults(const std::vector<AdapterFault>& faults);
  bool shrinks(Verdict v) const;
  void record(CaseRecord&& record, long index);
  void open_finding(const CaseRecord& r, const std::string& key, long index);

  const RunOptions& options_;
  RunSummary& summary_;
  JsonlWriter& out_;
  std::vector<std::unique_ptr<Oracle>> oracles_;
  ProgressLine progress_;
  RunTally tally_;
  Rerunner rerunner_;
  std::vector<Declaration> declarations_;
  std::map<std::string, size_t> index_;  // a finding's key -> its place in summary_.findings
  std::vector<ShrinkLater> shrink_later_;
  std::vector<CaseRecord> records_;      // the window's cases with their outcomes, waiting to be judged
  std::vector<size_t> rerun_later_;      // findings opened in this window
  std::vector<Pending> pending_;
  long seq_base_ = 0, cases_ = 0, fresh_ = 0, known_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace bc
