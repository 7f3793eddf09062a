// The input parsers under garbage and under mutations of real lines: a corpus line, a declaration line and a
// reproduce token always give a value or a CaseError (which the loaders turn into FILE:LINE: reason); never
// another exception, a crash or a hang. A case that parses writes back as valid JSON that parses again.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "run/reproduce_token.h"
#include "harness/corpus.h"
#include "harness/known_divergence.h"
#include "harness/utf8.h"

#include "cli_util.h"

namespace bc {
namespace {

const std::vector<std::string>& corpus_lines() {
  static const auto all = lines(bc::test_source_dir() + "/corpus/seeds.jsonl");
  return all;
}
const std::vector<std::string>& declaration_lines() {
  static const auto all = lines(bc::test_source_dir() + "/corpus/known_divergences.jsonl");
  return all;
}

// Bytes a JSON parser cares about, and any byte at all.
rc::Gen<char> interesting_char() {
  return rc::gen::oneOf(rc::gen::elementOf(std::string("{}[]\",:0123456789-.eE \\nutfal\x80\xC3\xFF")),
                        rc::gen::arbitrary<char>());
}

// Deletes, inserts, replaces or duplicates a stretch of the text, or swaps a number for an extreme one.
std::string mutate(std::string text) {
  const int edits = *rc::gen::inRange(1, 6);
  for (int e = 0; e < edits; ++e) {
    const size_t at = text.empty() ? 0 : *rc::gen::inRange<size_t>(0, text.size());
    const size_t len = std::min<size_t>(text.size() - at, *rc::gen::inRange<size_t>(0, 8));
    switch (*rc::gen::inRange(0, 5)) {
      case 0: text.erase(at, len); break;
      case 1: text.insert(at, *rc::gen::container<std::string>(interesting_char())); break;
      case 2: if (len > 0) text[at] = *interesting_char(); break;
      case 3: text.insert(at, text.substr(at, len)); break;
      default:
        text.insert(at, *rc::gen::element<std::string>("99999999999999999999", "-1", "1e308", "0", "-9223372036854775808",
                                                       "[[]]", "null", "true", "\"\"", "[1,2,3,4,5,6,7,8]"));
    }
  }
  return text;
}

template <typename Parse>
void parses_or_refuses(const std::string& text, Parse parse) {
  try {
    parse(text);
  } catch (const CaseError& e) {
    RC_ASSERT(std::string(e.what()).size() > 0);
  }
}

RC_GTEST_PROP(ParserFuzz, GarbageCorpusLinesParseOrAreRefused, ()) {
  const std::string text = *rc::gen::container<std::string>(interesting_char());
  parses_or_refuses(text, parse_case_text);
}

RC_GTEST_PROP(ParserFuzz, MutatedCorpusLinesParseOrAreRefused, ()) {
  const std::string text = mutate(*rc::gen::elementOf(corpus_lines()));
  try {
    const Case c = parse_case_text(text);
    // What parsed writes back as valid UTF-8 JSON that reads as the same case.
    const std::string back = to_json(c).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    RC_ASSERT(!first_invalid_utf8(back).has_value());
    RC_ASSERT(canonical_form(parse_case_text(back)) == canonical_form(c));
  } catch (const CaseError&) {
  }
}

RC_GTEST_PROP(ParserFuzz, GarbageAndMutatedDeclarationsParseOrAreRefused, ()) {
  const std::string text = *rc::gen::arbitrary<bool>() ? *rc::gen::container<std::string>(interesting_char())
                                                        : mutate(*rc::gen::elementOf(declaration_lines()));
  parses_or_refuses(text, parse_declaration_text);
}

RC_GTEST_PROP(ParserFuzz, ReproduceTokensParseOrAreRefused, ()) {
  const std::string valid = "bc1/" + std::to_string(*rc::gen::inRange<uint64_t>(0, 1000)) + "/" +
                            *rc::gen::element<std::string>("inplace_agree", "values_agree", "matmul_agree") + "/" +
                            std::to_string(*rc::gen::inRange(0, 50)) + "/" +
                            *rc::gen::element<std::string>("-", "0", "0.1", "1.0.2");
  const std::string text = *rc::gen::arbitrary<bool>() ? valid : mutate(valid);
  parses_or_refuses(text, case_from_reproduce_token);
}

// Arrays and objects nested to any depth in an unknown field: a case up to the limit of 64 levels (the line's own
// object included) parses and writes back; one level more is refused with the limit, before anything recurses into
// it. Brackets inside strings are text, not nesting.
RC_GTEST_PROP(ParserFuzz, NestingParsesUpToTheLimitAndIsRefusedBeyond, ()) {
  const int depth = *rc::gen::oneOf(rc::gen::inRange(1, 70), rc::gen::inRange(70, 20000));
  std::string open, close;
  for (int k = 0; k < depth; ++k) {
    const bool object = *rc::gen::arbitrary<bool>();
    open += object ? "{\"k[\": " : "[";
    close = (object ? "}" : "]") + close;
  }
  const std::string text = R"({"op": "add", "shapes": [[1], [1]], "note": "[[[[{{", "x": )" + open + "0" + close + "}";
  if (depth + 1 <= 64) {
    const Case c = parse_case_text(text);
    RC_ASSERT(canonical_form(parse_case_text(to_json(c).dump())) == canonical_form(c));
  } else {
    try {
      parse_case_text(text);
      RC_FAIL("accepted a line nested " + std::to_string(depth + 1) + " levels deep");
    } catch (const CaseError& e) {
      RC_ASSERT(std::string(e.what()).rfind("arrays and objects nest deeper than the limit of 64 levels", 0) == 0);
    }
  }
}

TEST(ParserFuzz, KnownNastyLinesAreRefusedWithAReason) {
  for (const std::string& text : std::vector<std::string>{std::string(R"({"op": "add", "shapes": [[1], [1]], "dtypes": [1, 2]})"),
                                 std::string(R"({"op": "add", "shapes": [[1], [1]], "layouts": "x"})"),
                                 std::string(R"({"op": "add", "shapes": [[1], [1]], "values": {"data": [["a"]]}})"),
                                 std::string(R"({"op": "add", "shapes": [[1], [1]], "expect": {"shape": "x"}})"),
                                 std::string(R"({"op": 7})"), std::string("[]"), std::string("\"x\""),
                                 std::string("{\"op\": \"add\xFF\"}")}) {
    try {
      parse_case_text(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const CaseError& e) {
      EXPECT_FALSE(first_invalid_utf8(e.what()).has_value()) << e.what();
    }
  }
  for (const char* token : {"bc1/-1/inplace_agree/0/-", "bc1/1/inplace_agree/0x1/-", "bc1/1/inplace_agree/0/1..2",
                                  "bc1/99999999999999999999/inplace_agree/0/-", "bc1/1/inplace_agree/0/-/"}) {
    EXPECT_THROW(case_from_reproduce_token(token), CaseError) << token;
  }
}

}  // namespace
}  // namespace bc
