#include "cli/lint.h"

#include <filesystem>
#include <iostream>

#include "run/exit_codes.h"
#include "run/run_inputs.h"
#include "harness/corpus.h"
#include "harness/known_divergence.h"

namespace bc {

int lint_command(const std::vector<std::string>& files, const std::vector<std::string>& declaration_files, bool quiet) {
  std::vector<std::string> corpus_files, declarations = declaration_files;
  for (const std::string& f : files)
    (std::filesystem::path(f).filename() == "known_divergences.jsonl" ? declarations : corpus_files).push_back(f);
  std::vector<std::string> errors;
  long good_declarations = 0;
  for (const std::string& f : declarations) {
    const DeclarationLoad load = read_declarations(f);
    good_declarations += static_cast<long>(load.declarations.size());
    errors.insert(errors.end(), load.errors.begin(), load.errors.end());
  }
  CorpusLoad corpus = load_corpus(corpus_files);
  errors.insert(errors.end(), corpus.errors.begin(), corpus.errors.end());
  check_corpus_properties(corpus.entries, errors);
  for (const std::string& e : errors) std::cerr << e << "\n";
  if (!quiet || !errors.empty())
    std::cerr << "lint: " << corpus_files.size() + declarations.size() << " file(s), " << corpus.entries.size()
              << " good case(s), " << good_declarations << " good declaration(s), " << errors.size() << " error(s)\n";
  return errors.empty() ? kExitOk : kExitBadInput;
}

}  // namespace bc
