// The documents as a voter: the rules the seed documents and the PyTorch/NumPy documentation state, written out
// on their own (not from the engine's code), answering `unsupported` wherever no document states the rule. Every
// rule it applies has a row in docs/notes/document-voter.md, and its answers name that row ("[D3] ...").
#pragma once

#include "oracles/binding_table.h"
#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_document_oracle();
// The problems of the documents' binding table (oracles/binding_table.h): none when every op has its cell.
const BindingProblems& document_binding_problems();
}
