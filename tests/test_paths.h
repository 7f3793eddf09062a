// Where this build's sources and built programs are, for the tests that read the corpus or run broadcheck. Only
// tests/test_paths.cpp is compiled with the paths, so that no other test's compile command names the clone and
// ccache serves them in every clone (docs/notes/build-time.md).
#pragma once

#include <string>

namespace bc {

const std::string& test_source_dir();  // the clone's root
const std::string& test_binary_dir();  // the build folder: broadcheck, engine_adapter

}  // namespace bc
