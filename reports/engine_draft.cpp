#include "reports/engine_draft.h"

#include "reports/html_text.h"

#include <fmt/format.h>

namespace bc {

std::string engine_draft(const Case& c, const Outcome& want, const std::string& name) {
  std::string out = fmt::format(
      "#include <gtest/gtest.h>\n\n"
      "#include \"harness/case.h\"\n#include \"oracles/engine_oracle.h\"\n\n"
      "TEST(EngineRegression, {}) {{\n"
      "  const bc::Case c = bc::case_from_json(nlohmann::json::parse(R\"({})\"));\n"
      "  const bc::Outcome o = bc::make_engine_oracle()->run(c);\n"
      "  EXPECT_EQ(bc::summarize(o), \"{}\");\n",
      name, json_text(to_json(c)), summarize(want));
  if (want.error) out += fmt::format("  EXPECT_EQ(o.error->message, R\"({})\");\n", want.error->message);
  return out + "}\n";
}

}  // namespace bc
