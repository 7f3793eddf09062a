#include "test_paths.h"

namespace bc {

const std::string& test_source_dir() {
  static const std::string dir = BC_SOURCE_DIR;
  return dir;
}

const std::string& test_binary_dir() {
  static const std::string dir = BC_BINARY_DIR;
  return dir;
}

}  // namespace bc
