#include "run/run_options.h"

namespace bc {

const char* to_string(Shrinking s) {
  switch (s) {
    case Shrinking::new_findings: return "new";
    case Shrinking::all: return "all";
    case Shrinking::none: return "none";
  }
  return "new";
}

std::optional<Shrinking> shrinking_from_string(const std::string& text) {
  for (Shrinking s : {Shrinking::new_findings, Shrinking::all, Shrinking::none})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

}  // namespace bc
