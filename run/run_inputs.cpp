#include "run/run_inputs.h"

#include <functional>

#include "harness/utf8.h"
#include "properties/equivalence.h"
#include "properties/registry.h"
#include "run/reproduce_token.h"

namespace bc {

RunInputs load_run_inputs(const RunOptions& options) {
  RunInputs in;
  if (!options.declarations.empty()) {
    DeclarationLoad d = read_declarations(options.declarations);
    in.declarations = std::move(d.declarations);
    in.errors = std::move(d.errors);
  }
  CorpusLoad corpus = load_corpus(options.corpus_files);
  in.entries = std::move(corpus.entries);
  in.errors.insert(in.errors.end(), corpus.errors.begin(), corpus.errors.end());
  // Each text's case and the property whose check judges it.
  auto add = [&](const std::string& label, const std::vector<std::string>& texts,
                 const std::function<std::pair<Case, std::string>(const std::string&)>& make) {
    for (size_t i = 0; i < texts.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      try {
        auto [c, property] = make(texts[i]);
        in.entries.push_back({std::move(c), label, n, property});
      } catch (const CaseError& e) {
        in.errors.push_back(visible_utf8(label + ":" + std::to_string(n) + ": " + e.what()));
      }
    }
  };
  std::string case_property = "corpus";
  if (!options.case_property.empty() && find_property(options.case_property))
    case_property = options.case_property;
  else if (!options.case_property.empty())
    in.errors.push_back("--property: unknown property \"" + visible_utf8(options.case_property) + "\"; valid: " +
                        property_names());
  add("--case", options.inline_cases, [&](const std::string& text) { return std::make_pair(parse_case_text(text), case_property); });
  add("--reproduce", options.reproduce, [](const std::string& token) {
    Case c = case_from_reproduce_token(token);  // bc1/SEED/PROPERTY/INDEX/PATH, checked
    const size_t from = token.find('/', token.find('/') + 1) + 1;
    return std::make_pair(std::move(c), token.substr(from, token.find('/', from) - from));
  });
  check_corpus_properties(in.entries, in.errors);
  return in;
}

void check_corpus_properties(std::vector<CorpusEntry>& entries, std::vector<std::string>& errors) {
  std::vector<CorpusEntry> kept;
  for (CorpusEntry& e : entries) {
    std::string why;
    const Property* p = e.c.property.empty() ? nullptr : find_property(e.c.property);
    if (!e.c.property.empty() && !p)
      why = "\"property\": unknown property \"" + e.c.property + "\"; valid: " + property_names();
    else if (p && p->check == Check::equivalence && !unfused_twin(e.c))
      why = "\"property\": " + p->name + " checks a fused op against its unfused form, and " + to_string(e.c.op) + " has none";
    if (p) e.property = p->name;  // a line's own "property" is the check it names
    if (why.empty()) kept.push_back(std::move(e));
    else errors.push_back(visible_utf8(e.file + ":" + std::to_string(e.line) + ": " + why));
  }
  entries = std::move(kept);
}

}  // namespace bc
