// What the build knows about itself: the commit it was built from and where this clone's corpus and broadcheck.json
// are. They live in one small file compiled with those -D flags (cli/build_info.cpp), so that a new commit or
// another clone recompiles only that file (docs/notes/build-time.md).
#pragma once

namespace bc {

const char* broadcheck_commit();   // `git rev-parse --short HEAD` at configure time, or "unknown"
const char* default_corpus_dir();  // this clone's corpus/
const char* default_config();      // this clone's broadcheck.json

}  // namespace bc
