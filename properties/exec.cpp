#include "properties/exec.h"

namespace bc::gen {
namespace {

thread_local bool g_values_only = false;

}  // namespace

ValuesOnly::ValuesOnly() : outer_(g_values_only) { g_values_only = true; }
ValuesOnly::~ValuesOnly() { g_values_only = outer_; }

bool values_only() { return g_values_only; }

// As ExecHandler::onGenerate on a recipe with no ingredients yet: a fresh implicit scope, one split per draw.
rc::detail::Any ValueHandler::onGenerate(const rc::Gen<rc::detail::Any>& gen) {
  rc::detail::ImplicitScope scope;
  const rc::Random random = random_.split();
  return gen(random, size_).value();
}

ValueHandler* ValueHandler::current() {
  return dynamic_cast<ValueHandler*>(rc::detail::ImplicitParam<rc::gen::detail::param::CurrentHandler>::value());
}

}  // namespace bc::gen
