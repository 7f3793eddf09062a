#include "reports/text_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bc {

std::string write_failure(const std::string& path, int error) {
  return path + ": cannot write" + (error != 0 ? ": " + std::string(std::strerror(error)) : std::string());
}

// Plain write(2) rather than a stream, so that the reason of a failure (ENOSPC) is the one the system gave.
void write_text_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError(write_failure(path, errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;  // a write of nothing: no room for a byte
      ::close(fd);
      throw WriteError(write_failure(path, error));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && errno != EINTR) throw WriteError(write_failure(path, errno));
}

}  // namespace bc
