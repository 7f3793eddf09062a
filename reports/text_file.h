// Writing a whole report file at once, with an error that names the path and the system's reason (strerror: "No
// space left on device") when it cannot be written.
#pragma once

#include <stdexcept>
#include <string>

namespace bc {

// An output that could not be written: the disk is full, the folder is gone. what() is "PATH: reason".
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "PATH: cannot write: <strerror(error)>"; "PATH: cannot write" when `error` is 0 (no reason known).
std::string write_failure(const std::string& path, int error);

void write_text_file(const std::string& path, const std::string& text);  // throws WriteError

}  // namespace bc
