// Declarations of known divergences: reading the file (blank lines, "FILE:LINE:" errors), scope by op and by
// case id, outcome patterns, and the JSON written back into summary.json.
#include "harness/known_divergence.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_file.h"
#include "test_paths.h"

namespace bc {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Files named after this test.
struct TempFile : testing::TempFile {
  explicit TempFile(const std::string& content) : testing::TempFile("bc_known_divergence_test", content) {}
};

const std::string kGood =
    R"({"id": "xtensor-inplace-resizes", "oracle": "xtensor", "ops": ["add_", "sub_"], "expected": {"error": "inplace_shape"}, "actual": {"status": "ok"}, "reason": "resizes", "reference": "xsemantic.hpp"})";
const std::string kGoodDocument =
    R"({"id": "document-rank0", "oracle": "document", "case_ids": ["seed003-ex2"], "expected": {"status": "error"}, "actual": {"status": "ok"}, "reason": "old notes", "reference": "seed 003"})";

// The message of the CaseError that loading a file whose third line is `bad` throws.
std::string load_error_on_line_3(const std::string& bad, std::string* path_out) {
  TempFile file(kGood + "\n\n" + bad + "\n" + kGoodDocument + "\n");
  *path_out = file.path();
  try {
    load_declarations(file.path());
  } catch (const CaseError& e) {
    return e.what();
  }
  return "<no CaseError thrown>";
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Case make_case(const char* text) { return case_from_json(json::parse(text)); }

TEST(LoadDeclarations, ReadsGoodLinesSkipsBlankOnesAndRecordsLineNumbers) {
  TempFile file(kGood + "\n\n   \n" + kGoodDocument + "\n");
  const std::vector<Declaration> decls = load_declarations(file.path());
  ASSERT_EQ(decls.size(), 2u);
  EXPECT_EQ(decls[0].id, "xtensor-inplace-resizes");
  EXPECT_EQ(decls[0].oracle, "xtensor");
  EXPECT_EQ(decls[0].ops, (std::vector<std::string>{"add_", "sub_"}));
  EXPECT_TRUE(decls[0].case_ids.empty());
  EXPECT_EQ(decls[0].on, "outcome");
  EXPECT_EQ(decls[0].expected.status, Status::error);
  EXPECT_EQ(decls[0].expected.error, ErrorKind::inplace_shape);
  EXPECT_EQ(decls[0].actual.status, Status::ok);
  EXPECT_FALSE(decls[0].actual.error.has_value());
  EXPECT_EQ(decls[0].reason, "resizes");
  EXPECT_EQ(decls[0].reference, "xsemantic.hpp");
  EXPECT_EQ(decls[0].line, 1);
  EXPECT_EQ(decls[1].id, "document-rank0");
  EXPECT_EQ(decls[1].case_ids, (std::vector<std::string>{"seed003-ex2"}));
  EXPECT_EQ(decls[1].line, 4);
}

TEST(LoadDeclarations, EmptyFileHasNoDeclarations) {
  TempFile file("\n\n");
  EXPECT_EQ(load_declarations(file.path()).size(), 0u);
}

TEST(LoadDeclarations, MissingFileThrowsWithThePath) {
  const std::string path = (fs::temp_directory_path() / "bc_known_divergence_test_no_such_file.jsonl").string();
  try {
    load_declarations(path);
    FAIL() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_TRUE(starts_with(e.what(), path + ":")) << e.what();
  }
}

TEST(LoadDeclarations, UnknownOracleNamesFileAndLine) {
  std::string path;
  const std::string msg = load_error_on_line_3(
      R"({"id": "x", "oracle": "Num Py", "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(msg, path + ":3:")) << msg;
  EXPECT_TRUE(contains(msg, "got \"Num Py\"")) << msg;
  EXPECT_TRUE(contains(msg, "engine, torch, xtensor or document")) << msg;
}

TEST(LoadDeclarations, UnknownFieldNamesFileAndLine) {
  std::string path;
  const std::string msg = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "reason": "r", "reference": "f", "reasn": "typo"})", &path);
  EXPECT_TRUE(starts_with(msg, path + ":3:")) << msg;
  EXPECT_TRUE(contains(msg, "unknown field \"reasn\"")) << msg;
}

TEST(LoadDeclarations, BadJsonNamesFileAndLine) {
  std::string path;
  const std::string msg = load_error_on_line_3(R"({"id": "x", "oracle": "torch",)", &path);
  EXPECT_TRUE(starts_with(msg, path + ":3:")) << msg;
  EXPECT_GT(msg.size(), (path + ":3: ").size());
}

TEST(LoadDeclarations, MissingReasonNamesFileAndLine) {
  std::string path;
  const std::string msg = load_error_on_line_3(R"({"id": "x", "oracle": "torch", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(msg, path + ":3:")) << msg;
  EXPECT_TRUE(contains(msg, "missing \"reason\"")) << msg;
}

TEST(LoadDeclarations, BadPatternsAndOpsNameFileAndLine) {
  std::string path;
  const std::string kind = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "actual": {"error": "brodcast"}, "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(kind, path + ":3:")) << kind;
  EXPECT_TRUE(contains(kind, "unknown error kind \"brodcast\"")) << kind;
  const std::string op = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "ops": ["plus"], "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(op, path + ":3:")) << op;
  EXPECT_TRUE(contains(op, "unknown op \"plus\"")) << op;
  const std::string on = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "on": "text", "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(on, path + ":3:")) << on;
  EXPECT_TRUE(contains(on, "\"on\"")) << on;
}

TEST(LoadDeclarations, ADifferenceNamesComponentsTheJudgeKnows) {
  std::string path;
  const std::string colour = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "difference": "colour", "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(starts_with(colour, path + ":3: unknown component \"colour\" in \"difference\"; valid")) << colour;
  const std::string second = load_error_on_line_3(
      R"({"id": "x", "oracle": "torch", "difference": "status|shapes", "reason": "r", "reference": "f"})", &path);
  EXPECT_TRUE(contains(second, "unknown component \"shapes\"")) << second;
  EXPECT_EQ(declaration_from_json(json::parse(
                R"({"id": "x", "oracle": "torch", "difference": "status|error kind", "reason": "r", "reference": "f"})"))
                .difference,
            "status|error kind");
}

// A declaration line nested without end is refused before it is parsed, and the others still load.
TEST(ReadDeclarations, ADeepLineIsRefusedAlone) {
  const std::string deep = R"({"id": "x", "ops": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  TempFile file(kGood + "\n" + deep + "\n" + kGoodDocument + "\n");
  const DeclarationLoad load = read_declarations(file.path());
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_TRUE(starts_with(load.errors[0], file.path() + ":2: arrays and objects nest deeper than the limit of 64"))
      << load.errors[0];
  EXPECT_EQ(load.declarations.size(), 2u);
}

TEST(ReadDeclarations, EveryBadLineIsReportedAndEveryGoodLineKept) {
  const std::string other = R"({"id": "other", "oracle": "torch", "reason": "r", "reference": "f"})";
  TempFile file(kGood + "\n" + R"({"id": "x", "oracle": "torch",)" + "\n" + other + "\n" +
                R"({"id": "y", "oracle": "torch", "reason": "r"})" + "\n" + kGoodDocument + "\n" +
                R"({"id": "other", "oracle": "xtensor", "reason": "r", "reference": "f"})" + "\n" +
                "{\"id\": \"z\xFF\", \"oracle\": \"torch\", \"reason\": \"r\", \"reference\": \"f\"}\n");
  const DeclarationLoad load = read_declarations(file.path());
  ASSERT_EQ(load.declarations.size(), 3u);
  EXPECT_EQ(load.declarations[0].id, "xtensor-inplace-resizes");
  EXPECT_EQ(load.declarations[1].id, "other");
  EXPECT_EQ(load.declarations[1].line, 3);
  EXPECT_EQ(load.declarations[2].id, "document-rank0");
  ASSERT_EQ(load.errors.size(), 4u);
  EXPECT_TRUE(starts_with(load.errors[0], file.path() + ":2: ")) << load.errors[0];
  EXPECT_EQ(load.errors[1], file.path() + ":4: missing \"reference\"");
  EXPECT_EQ(load.errors[2], file.path() + ":6: duplicate id \"other\"");
  EXPECT_EQ(load.errors[3], file.path() + ":7: not valid UTF-8: byte 10 is \\xFF");
}

TEST(ReadDeclarations, ADirectoryIsAnError) {
  const std::string dir = fs::temp_directory_path().string();
  const DeclarationLoad load = read_declarations(dir);
  EXPECT_TRUE(load.declarations.empty());
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0], dir + ":0: cannot read it: a directory, not a file");
}

TEST(LoadDeclarations, TheProjectsOwnFileLoads) {
  const std::vector<Declaration> decls = load_declarations(bc::test_source_dir() + "/corpus/known_divergences.jsonl");
  ASSERT_GE(decls.size(), 1u);
  for (size_t i = 0; i < decls.size(); ++i) {
    EXPECT_FALSE(decls[i].id.empty());
    EXPECT_FALSE(decls[i].reason.empty()) << decls[i].id;
    EXPECT_GE(decls[i].line, static_cast<int>(i) + 1);
  }
}

TEST(DeclarationJson, DefaultsAndRoundTrip) {
  const Declaration d = declaration_from_json(json::parse(kGood));
  const Declaration again = declaration_from_json(to_json(d));
  EXPECT_EQ(to_json(again), to_json(d));
  EXPECT_EQ(to_json(d).at("on"), "outcome");
  EXPECT_EQ(to_json(d).at("expected"), json::parse(R"({"status": "error", "error": "inplace_shape"})"));
  EXPECT_FALSE(to_json(d).contains("case_ids"));

  const Declaration bare = declaration_from_json(json::parse(R"({"id": "b", "oracle": "engine", "reason": "r", "reference": "f"})"));
  EXPECT_TRUE(bare.ops.empty());
  EXPECT_FALSE(bare.expected.status.has_value());
  EXPECT_FALSE(bare.actual.error.has_value());
  EXPECT_THROW(declaration_from_json(json::parse("[1]")), CaseError);
}

TEST(Covers, ByOp) {
  const Declaration d = declaration_from_json(json::parse(kGood));
  EXPECT_TRUE(d.covers(make_case(R"({"op": "add_", "shapes": [[1],[3]]})")));
  EXPECT_TRUE(d.covers(make_case(R"({"op": "sub_", "shapes": [[1],[3]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"op": "mul_", "shapes": [[1],[3]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"op": "add", "shapes": [[1],[3]]})")));
}

TEST(Covers, ByCaseId) {
  const Declaration d = declaration_from_json(json::parse(kGoodDocument));
  EXPECT_TRUE(d.covers(make_case(R"({"id": "seed003-ex2", "op": "add", "shapes": [[],[2,2]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"id": "seed003-ex3", "op": "add", "shapes": [[],[2,2]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"op": "add", "shapes": [[],[2,2]]})")));
}

TEST(Covers, ByOpAndCaseIdTogether) {
  const Declaration d = declaration_from_json(json::parse(
      R"({"id": "d", "oracle": "document", "ops": ["add"], "case_ids": ["c1"], "reason": "r", "reference": "f"})"));
  EXPECT_TRUE(d.covers(make_case(R"({"id": "c1", "op": "add", "shapes": [[1],[1]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"id": "c1", "op": "sub", "shapes": [[1],[1]]})")));
  EXPECT_FALSE(d.covers(make_case(R"({"id": "c2", "op": "add", "shapes": [[1],[1]]})")));
}

TEST(Covers, NoScopeCoversEverything) {
  const Declaration d = declaration_from_json(json::parse(R"({"id": "a", "oracle": "torch", "reason": "r", "reference": "f"})"));
  EXPECT_TRUE(d.covers(make_case(R"({"op": "matmul", "shapes": [[2,3],[3]]})")));
  EXPECT_TRUE(d.covers(make_case(R"({"id": "q", "op": "expand", "shapes": [[3],[-1]]})")));
}

TEST(OutcomePattern, EmptyPatternMatchesAnything) {
  const OutcomePattern any;
  EXPECT_TRUE(any.matches(Outcome::success({2})));
  EXPECT_TRUE(any.matches(Outcome::failure(ErrorKind::broadcast, "m")));
  EXPECT_TRUE(any.matches(Outcome::unsupported_because("x")));
}

TEST(OutcomePattern, StatusOnly) {
  OutcomePattern ok;
  ok.status = Status::ok;
  EXPECT_TRUE(ok.matches(Outcome::success({2, 3})));
  EXPECT_FALSE(ok.matches(Outcome::failure(ErrorKind::broadcast, "m")));
  OutcomePattern error;
  error.status = Status::error;
  EXPECT_TRUE(error.matches(Outcome::failure(ErrorKind::broadcast, "m")));
  EXPECT_TRUE(error.matches(Outcome::failure(ErrorKind::other, "")));
  EXPECT_FALSE(error.matches(Outcome::success({})));
}

TEST(OutcomePattern, ErrorKindFromJsonImpliesErrorStatus) {
  const Declaration d = declaration_from_json(json::parse(
      R"({"id": "a", "oracle": "torch", "actual": {"error": "expand"}, "reason": "r", "reference": "f"})"));
  EXPECT_EQ(d.actual.status, Status::error);
  EXPECT_EQ(d.actual.error, ErrorKind::expand);
  EXPECT_TRUE(d.actual.matches(Outcome::failure(ErrorKind::expand, "anything")));
  EXPECT_FALSE(d.actual.matches(Outcome::failure(ErrorKind::broadcast, "anything")));
  EXPECT_FALSE(d.actual.matches(Outcome::success({3})));
  Outcome kindless;
  kindless.status = Status::error;
  EXPECT_FALSE(d.actual.matches(kindless));
}

}  // namespace
}  // namespace bc

namespace bc {
namespace {

const char* kNondeterministic = R"({"id": "nd", "oracle": "torch", "on": "nondeterministic", "ops": ["baddbmm"],
                                    "scalars": {"beta": 0}, "reason": "r", "reference": "f"})";

Declaration nd_with(const std::string& extra) {
  json j = json::parse(kNondeterministic);
  j.merge_patch(json::parse(extra));
  return declaration_from_json(j);
}

TEST(DeclarationScalars, CoverOnlyCasesWithThatScalarValue) {
  const Declaration d = declaration_from_json(json::parse(kNondeterministic));
  EXPECT_EQ(d.on, "nondeterministic");
  const auto with_beta = [](const std::string& beta) {
    return case_from_json(json::parse(R"({"op": "baddbmm", "shapes": [[1, 1, 1], [1, 1, 1], [1, 1, 1]])" +
                                      (beta.empty() ? std::string() : ", \"scalars\": {\"beta\": " + beta + "}") + "}"));
  };
  EXPECT_TRUE(d.covers(with_beta("0")));
  EXPECT_TRUE(d.covers(with_beta("0.0")));
  EXPECT_TRUE(d.covers(with_beta("-0.0")));
  EXPECT_FALSE(d.covers(with_beta("1")));
  EXPECT_FALSE(d.covers(with_beta("0.5")));
  EXPECT_FALSE(d.covers(with_beta(""))) << "an absent beta is 1";
  EXPECT_TRUE(nd_with(R"({"scalars": {"beta": 1}})").covers(with_beta(""))) << "and 1 is what it defaults to";
}

TEST(DeclarationScalars, RoundTripAndRefusals) {
  const Declaration d = declaration_from_json(json::parse(kNondeterministic));
  EXPECT_EQ(to_json(d).at("scalars"), json::parse(R"({"beta": 0})"));
  EXPECT_EQ(to_json(declaration_from_json(to_json(d))), to_json(d));
  EXPECT_EQ(to_json(nd_with(R"({"scalars": {"alpha": 0.5}})")).at("scalars").at("alpha"), 0.5);
  const auto refused = [](const std::string& extra, const std::string& why) {
    try {
      nd_with(extra);
      ADD_FAILURE() << extra << " was accepted";
    } catch (const CaseError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused(R"({"scalars": {"gamma": 0}})", "unknown scalar \"gamma\"");
  refused(R"({"scalars": {"beta": "0"}})", "\"scalars.beta\" must be a number");
  refused(R"({"scalars": [0]})", "\"scalars\" must be an object");
  refused(R"({"expected": {"status": "ok"}})", "\"expected\" has no meaning");
  refused(R"({"actual": {"status": "ok"}})", "\"actual\" has no meaning");
  refused(R"({"difference": "dtype"})", "\"difference\" has no meaning");
  refused(R"({"oracle": "document"})", "names an implementation");
  refused(R"({"on": "sometimes"})", "\"nondeterministic\"");
}

// A feature this machine's processor certainly lacks (the other architecture's), for the declarations' "cpu".
#if defined(__x86_64__) || defined(__i386__)
const char* const kLacking = "asimd";  // ARM's
#else
const char* const kLacking = "avx2";  // x86's
#endif

Declaration needing(const std::string& features) {
  return declaration_from_json(json::parse(R"({"id": "c", "oracle": "numpy", "ops": ["add"], "cpu": )" + features +
                                           R"(, "reason": "r", "reference": "f"})"));
}

TEST(DeclarationCpu, ADeclarationForAnotherProcessorCoversNothingHere) {
  const Case add = make_case(R"({"op": "add", "shapes": [[1],[3]]})");
  EXPECT_TRUE(needing("[]").covers(add));
  const Declaration elsewhere = needing(std::string("[\"") + kLacking + "\"]");
  EXPECT_FALSE(elsewhere.covers(add));
  EXPECT_FALSE(elsewhere.covers_op(Op::add));
  const std::vector<std::string> inactive = inactive_on_this_processor({needing("[]"), elsewhere});
  EXPECT_EQ(inactive, std::vector<std::string>{std::string("c (needs ") + kLacking + ")"});
}

TEST(DeclarationCpu, RoundTripAndUnknownFeaturesRefused) {
  const Declaration d = needing(R"(["avx512f", "avx512bw"])");
  EXPECT_EQ(to_json(d).at("cpu"), json::parse(R"(["avx512f", "avx512bw"])"));
  EXPECT_EQ(to_json(declaration_from_json(to_json(d))), to_json(d));
  EXPECT_FALSE(to_json(needing("[]")).contains("cpu"));
  try {
    needing(R"(["avx512"])");
    ADD_FAILURE() << "an unknown feature was accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown processor feature \"avx512\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(needing(R"("avx2")"), CaseError);
}

}  // namespace
}  // namespace bc
