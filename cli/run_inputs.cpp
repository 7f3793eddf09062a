#include "cli/run_inputs.h"

#include <functional>

#include "harness/utf8.h"

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
  auto add = [&](const std::string& label, const std::vector<std::string>& texts,
                 const std::function<Case(const std::string&)>& make) {
    for (size_t i = 0; i < texts.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      try {
        in.entries.push_back({make(texts[i]), label, n});
      } catch (const CaseError& e) {
        in.errors.push_back(visible_utf8(label + ":" + std::to_string(n) + ": " + e.what()));
      }
    }
  };
  add("--case", options.inline_cases, parse_case_text);
  add("--reproduce", options.reproduce, case_from_reproduce_token);
  return in;
}

}  // namespace bc
