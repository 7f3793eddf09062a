#include "harness/adapter_fault.h"

#include "harness/run_record.h"
#include "harness/signature.h"

namespace bc {

Finding fault_finding(const AdapterFault& f) {
  Outcome o;
  o.status = f.status;
  o.detail = f.detail;
  Finding out;
  out.signature = make_signature({"adapter_fault", f.oracle, to_string(f.status)});
  out.key = out.signature;
  out.property = "adapter";
  out.family = "adapter";
  out.verdict = Verdict::discrepancy;
  out.original = f.c;
  out.hits = 1;
  out.minimal.property = "adapter";
  out.minimal.c = f.c;
  out.minimal.outcomes = {{f.oracle, o}};
  Judgement& j = out.minimal.judgement;
  j.verdict = Verdict::discrepancy;
  j.difference = "adapter_fault";
  j.odd_ones = {f.oracle};
  j.attribution = "the " + f.oracle + " adapter failed at request " + std::to_string(f.request) +
                  " of its process, and not on any case alone: " + f.detail;
  j.signature = out.signature;
  j.differences.push_back(Difference{"adapter_fault", FindingClass::outcome, -1, {f.oracle}, j.attribution, {}, {f.oracle},
                                     Verdict::discrepancy});
  if (!f.reproduction.empty()) out.adapter_commands[f.oracle] = f.reproduction;
  out.regression_draft = f.reproduction.empty()
                             ? "// The requests before the fault are too long to repeat here: the run that found it shows it again.\n"
                             : "// The requests before the fault, sent again: the finding's adapter command (a shell command).\n";
  return out;
}

}  // namespace bc
