#include "run/replay_commands.h"

#include <cstdio>

#include "harness/implementations.h"
#include "harness/shell_quote.h"
#include "properties/registry.h"
#include "reports/html_text.h"
#include "reports/regression_draft.h"

namespace bc {

std::string finding_id(const Case& c) {
  char id[32];
  std::snprintf(id, sizeof id, "finding-%012llx",
                static_cast<unsigned long long>(stable_hash(canonical_form(c)) & 0xffffffffffffull));
  return id;
}

void describe_reproduction(Finding& f, const std::string& prefix) {
  Case bare = f.minimal.c;
  bare.tags.clear();
  const std::string start = prefix + " --out broadcheck-" + finding_id(f.minimal.c);
  // A generated case is judged by its property's check (an equivalence, finite differences, algebra), not as a
  // corpus case on every oracle; a reproduce token names its property itself.
  const std::string check = find_property(f.property) ? " --property " + shell_word(f.property) : "";
  f.replay_command = start + check + " --case " + shell_quote(json_text(to_json(bare)));
  f.reproduce_command = f.reproduce.empty() ? "" : start + " --reproduce " + shell_word(f.reproduce);
  f.adapter_commands.clear();
  for (const std::string& who : f.minimal.judgement.odd_ones)
    if (const Implementation* i = find_implementation(who); i && i->shell_reproduction)
      f.adapter_commands[who] = i->shell_reproduction(f.minimal.c);
  f.regression_draft = regression_draft(f.minimal);
}

}  // namespace bc
