// An implementation's binding table (docs/ARCHITECTURE.md, "Where an implementation binds an op"): one cell per op of
// the op table that has no out-of-place form of its own (add stands for add and add_), holding either the
// implementation's row for it (its forward, in-place and out= forms, backward and dtype facts, in a Row type of the
// implementation's own) or an explicit unsupported(reason). An op without a cell, a cell named twice, or a cell
// named by an in-place op is a problem: problems() names each, the oracle refuses to start with any, and
// tests/oracles/binding_table_test.cpp requires none for every implementation.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "engine/op_table.h"

namespace bc {

// Why an implementation does not run an op (a row's form may hold one too: an in-place form it lacks).
struct Unsupported {
  std::string reason;
};
inline Unsupported unsupported(std::string reason) { return Unsupported{std::move(reason)}; }

// The problems of one table, which the implementations' tables report through a function of their own.
using BindingProblems = std::vector<std::string>;

template <class Row>
class BindingTable {
 public:
  struct Cell {
    Op op;
    std::variant<Row, Unsupported> binding;
  };

  // `where` names the table in problems ("oracles/torch_bindings.cpp").
  BindingTable(std::string where, std::vector<Cell> cells) : where_(std::move(where)) {
    cells_.resize(static_cast<size_t>(kOpCount));
    for (Cell& cell : cells) {
      const std::string name = to_string(cell.op);
      if (entry(cell.op).base) {
        problems_.push_back(where_ + ": " + name + " is an in-place form; its cell is " + to_string(*entry(cell.op).base) + "'s");
        continue;
      }
      std::optional<Cell>& slot = cells_[static_cast<size_t>(cell.op)];
      if (slot) problems_.push_back(where_ + ": two cells for " + name);
      slot = std::move(cell);
    }
    for (const OpEntry& e : op_table())
      if (!e.base && !cells_[static_cast<size_t>(e.op)])
        problems_.push_back(where_ + ": no cell for " + e.name + " (bind it, or say why it is unsupported)");
  }

  const BindingProblems& problems() const { return problems_; }
  // Throws the problems as one logic_error: an oracle calls it where it is made.
  void check() const {
    if (problems_.empty()) return;
    std::string text;
    for (const std::string& p : problems_) text += (text.empty() ? "" : "; ") + p;
    throw std::logic_error(text);
  }

  // The row of an op's out-of-place form (add_ reads add's), or nullptr when the implementation refuses it.
  const Row* row(Op op) const {
    const std::optional<Cell>& cell = cells_[static_cast<size_t>(out_of_place(op))];
    return cell ? std::get_if<Row>(&cell->binding) : nullptr;
  }
  // Why the op's out-of-place form is refused ("" when it is bound).
  std::string reason(Op op) const {
    const std::optional<Cell>& cell = cells_[static_cast<size_t>(out_of_place(op))];
    if (!cell) return where_ + " has no cell for " + to_string(op);
    const Unsupported* u = std::get_if<Unsupported>(&cell->binding);
    return u ? u->reason : std::string();
  }

 private:
  std::string where_;
  std::vector<std::optional<Cell>> cells_;
  BindingProblems problems_;
};

}  // namespace bc
