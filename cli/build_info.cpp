#include "cli/build_info.h"

#ifndef BC_GIT_COMMIT
#define BC_GIT_COMMIT "unknown"
#endif
#ifndef BC_DEFAULT_CORPUS_DIR
#define BC_DEFAULT_CORPUS_DIR "corpus"
#endif
#ifndef BC_DEFAULT_CONFIG
#define BC_DEFAULT_CONFIG "broadcheck.json"
#endif

namespace bc {

const char* broadcheck_commit() { return BC_GIT_COMMIT; }
const char* default_corpus_dir() { return BC_DEFAULT_CORPUS_DIR; }
const char* default_config() { return BC_DEFAULT_CONFIG; }

}  // namespace bc
