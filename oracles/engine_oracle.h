// The engine oracle: our reference engine's answer for a case.
#pragma once

#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_engine_oracle();
}
