#include "run/corpus_writer.h"

#include <fstream>
#include <set>
#include <stdexcept>

#include "harness/corpus.h"
#include "properties/registry.h"
#include "reports/html_text.h"
#include "run/replay_commands.h"

namespace bc {

long save_findings(const RunSummary& summary, const std::string& path) {
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

}  // namespace bc
