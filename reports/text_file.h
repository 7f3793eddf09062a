// Writing a whole report file at once, with an error that names the path when it cannot be written.
#pragma once

#include <string>

namespace bc {
void write_text_file(const std::string& path, const std::string& text);  // throws std::runtime_error
}
