#include "cli/shrink_command.h"

#include <iostream>

#include "cli/builtin_implementations.h"
#include "harness/corpus.h"
#include "harness/utf8.h"
#include "properties/case_shrinks.h"
#include "run/evaluate.h"
#include "run/exit_codes.h"
#include "run/rerun.h"
#include "run/shrink.h"

namespace bc {

int shrink_command(const std::string& case_text, const std::string& declarations_path, int budget, bool quiet) {
  Case c;
  std::vector<Declaration> declarations;
  try {
    c = parse_case_text(case_text);
    if (!declarations_path.empty()) declarations = load_declarations(declarations_path);
  } catch (const CaseError& e) {
    std::cerr << "broadcheck shrink: " << e.what() << "\n";
    return kExitBadInput;
  }
  // An expectation belongs to the shapes it was written for; a smaller case would fail it for another reason.
  if (c.expect) {
    c.expect.reset();
    if (!quiet) std::cerr << "broadcheck shrink: the case's \"expect\" is set aside while shrinking\n";
  }
  auto oracles = make_all_oracles();
  auto evaluate_case = [&](const Case& x) { return evaluate("corpus", x, oracles, declarations); };
  const CaseRecord first = evaluate_case(c);
  if (first.judgement.verdict == Verdict::agree) {
    if (!quiet) std::cerr << "every implementation agrees on " << describe(c) << ": nothing to shrink\n";
    std::cout << to_json(c).dump() << "\n";
    return kExitOk;
  }
  const Shrunk s = shrink(shrinkable_case(c), first, evaluate_case, budget);
  const CaseRecord& m = s.minimal;
  if (!quiet) {
    std::cerr << "signature: " << first.judgement.signature << "\n"
              << describe(c) << " shrank to " << describe(m.c) << " in " << s.steps << " step(s), "
              << s.evaluations << " case(s) tried\n";
    for (const auto& [name, o] : m.outcomes)
      std::cerr << "  " << name << ": " << summarize(o) << (o.error ? " \"" + o.error->message + "\"" : "") << "\n";
    std::cerr << "verdict: " << to_string(m.judgement.verdict)
              << (m.judgement.known_id.empty() ? "" : " (" + m.judgement.known_id + ")") << "\n";
  }
  // An adapter's fault met while shrinking is no case's (harness/adapter_fault.h): it fails the command, as a run.
  long faults = 0;
  for (auto& o : oracles)
    for (const AdapterFault& f : o->take_faults()) {
      ++faults;
      std::cerr << "broadcheck shrink: a fault of the " << f.oracle << " adapter, no case's: " << visible_utf8(f.detail) << "\n";
    }
  if (m.judgement.verdict == Verdict::known) {
    std::cout << to_json(m.c).dump() << "\n";
    return faults ? kExitFindings : kExitOk;
  }
  // As in a run: a new finding whose minimal case does not come out alike in fresh workers is not reported as new.
  const Reproduction again = Rerunner([] { return make_all_oracles(true, 10000); }).rerun(m, declarations);
  if (!quiet) std::cerr << describe(again) << "\n";
  std::cout << to_json(m.c).dump() << "\n";
  return again.stable() || faults ? kExitFindings : kExitOk;
}

}  // namespace bc
