#include "reports/jsonl_writer.h"

#include <stdexcept>

namespace bc {

JsonlWriter::JsonlWriter(const std::string& path) : out_(path, std::ios::trunc) {
  if (!out_) throw std::runtime_error(path + ": cannot open for writing");
}

void JsonlWriter::write(const CaseRecord& record) {
  out_ << to_json(record).dump() << '\n';
  out_.flush();
  ++lines_;
}

}  // namespace bc
