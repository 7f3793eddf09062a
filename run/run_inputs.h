// Everything a run reads before it runs a case: the declarations, the corpus files, --case texts and --reproduce
// tokens, each read as a whole.
//
// Contract: every bad line of every input is one "FILE:LINE: reason" error (valid UTF-8, bytes that are not shown
// as \xNN) and every good line is kept: a bad declaration drops only itself, a bad corpus line only itself. --case
// and --reproduce values are named "--case:N" and "--reproduce:N" (N counts from 1). An unreadable file (missing,
// a directory) is "FILE:0: reason".
#pragma once

#include <string>
#include <vector>

#include "run/run_options.h"
#include "harness/corpus.h"
#include "harness/known_divergence.h"

namespace bc {

struct RunInputs {
  std::vector<Declaration> declarations;
  std::vector<CorpusEntry> entries;  // corpus files in order, then --case, then --reproduce
  std::vector<std::string> errors;   // declarations' first, then the corpus', --case's, --reproduce's
};

RunInputs load_run_inputs(const RunOptions& options);

// Drops each entry whose "property" names no property, or one whose check cannot take its op (equivalence needs an
// op with an unfused form), with a "FILE:LINE: reason" error for each.
void check_corpus_properties(std::vector<CorpusEntry>& entries, std::vector<std::string>& errors);

}  // namespace bc
