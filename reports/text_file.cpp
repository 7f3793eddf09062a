#include "reports/text_file.h"

#include <fstream>
#include <stdexcept>

namespace bc {

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  out << text;
  out.flush();
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace bc
