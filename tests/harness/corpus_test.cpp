// Loading corpus files: good lines keep their file and line, each bad line is one "FILE:LINE: reason" error and
// the rest still loads; resource caps; one-line cases from the command line.
#include "harness/corpus.h"

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
  explicit TempFile(const std::string& content) : testing::TempFile("bc_corpus_test", content) {}
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Case make_case(const char* text) { return case_from_json(json::parse(text)); }

const std::string kLine1 = R"({"id": "a1", "op": "add", "shapes": [[2,3],[3]], "expect": {"shape": [2,3]}})";
const std::string kLine2 = R"({"id": "a2", "op": "expand", "shapes": [[3,1],[-1,4]]})";
const std::string kLine3 = R"({"op": "matmul", "shapes": [[2,3],[3]]})";

// Loads a file of three good lines with `bad` inserted as line 2; expects exactly one error, for line 2.
void expect_one_error_on_line_2(const std::string& bad, const std::string& reason_part) {
  TempFile file(kLine1 + "\n" + bad + "\n" + kLine2 + "\n" + kLine3 + "\n");
  const CorpusLoad load = load_corpus({file.path()});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_TRUE(starts_with(load.errors[0], file.path() + ":2: ")) << load.errors[0];
  EXPECT_TRUE(contains(load.errors[0], reason_part)) << load.errors[0];
  ASSERT_EQ(load.entries.size(), 3u);
  EXPECT_EQ(load.entries[0].line, 1);
  EXPECT_EQ(load.entries[1].line, 3);
  EXPECT_EQ(load.entries[1].c.id, "a2");
  EXPECT_EQ(load.entries[2].line, 4);
  EXPECT_EQ(load.entries[2].c.op, Op::matmul);
}

TEST(LoadCorpus, GoodLinesLoadWithFileAndLine) {
  TempFile file(kLine1 + "\n\n" + kLine2 + "\r\n   \n" + kLine3);  // blank lines, a CRLF, no final newline
  const CorpusLoad load = load_corpus({file.path()});
  EXPECT_TRUE(load.errors.empty()) << load.errors.front();
  ASSERT_EQ(load.entries.size(), 3u);
  EXPECT_EQ(load.entries[0].file, file.path());
  EXPECT_EQ(load.entries[0].line, 1);
  EXPECT_EQ(load.entries[0].c.id, "a1");
  EXPECT_EQ(load.entries[0].c.shapes, (std::vector<Shape>{{2, 3}, {3}}));
  ASSERT_TRUE(load.entries[0].c.expect.has_value());
  EXPECT_EQ(load.entries[0].c.expect->shape, (Shape{2, 3}));
  EXPECT_EQ(load.entries[1].line, 3);
  EXPECT_EQ(load.entries[1].c.op, Op::expand);
  EXPECT_EQ(load.entries[2].line, 5);
  EXPECT_EQ(load.entries[2].c.id, "");
}

TEST(LoadCorpus, FilesLoadInOrder) {
  TempFile first(kLine1 + "\n");
  TempFile second(kLine2 + "\n" + kLine3 + "\n");
  const CorpusLoad load = load_corpus({first.path(), second.path()});
  EXPECT_TRUE(load.errors.empty());
  ASSERT_EQ(load.entries.size(), 3u);
  EXPECT_EQ(load.entries[0].file, first.path());
  EXPECT_EQ(load.entries[1].file, second.path());
  EXPECT_EQ(load.entries[1].line, 1);
  EXPECT_EQ(load.entries[2].file, second.path());
  EXPECT_EQ(load.entries[2].line, 2);
}

TEST(LoadCorpus, MalformedJsonLineIsOneError) {
  expect_one_error_on_line_2(R"({"id": "b", "op": "add", "shapes": [[2],[2]])", "not valid JSON");
}

// nlohmann reads a number beyond double as out_of_range, not parse_error: still one error of that line (found by
// ParserFuzz.MutatedCorpusLinesParseOrAreRefused, which turned 1e308 into 11e308).
TEST(LoadCorpus, ANumberBeyondDoubleIsOneError) {
  expect_one_error_on_line_2(R"({"id": "b", "op": "add", "shapes": [[2],[2]], "scalars": {"alpha": 11e308}})",
                             "not valid JSON");
}

TEST(LoadCorpus, UnknownOpLineIsOneError) {
  expect_one_error_on_line_2(R"({"id": "b", "op": "powr", "shapes": [[2],[2]]})", "unknown op \"powr\"; valid ops: ");
}

TEST(LoadCorpus, DuplicateIdLineIsOneError) {
  expect_one_error_on_line_2(R"({"id": "a1", "op": "sub", "shapes": [[2],[2]]})", "duplicate id \"a1\"");
}

TEST(LoadCorpus, OversizedCaseLineIsOneError) {
  expect_one_error_on_line_2(R"({"id": "big", "op": "add", "shapes": [[2048,2048],[1]]})",
                             "over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor");
}

TEST(LoadCorpus, DuplicateIdsAcrossFilesAreRefused) {
  TempFile first(kLine1 + "\n");
  TempFile second(kLine3 + "\n" + kLine1 + "\n");
  const CorpusLoad load = load_corpus({first.path(), second.path()});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0], second.path() + ":2: duplicate id \"a1\"");
  ASSERT_EQ(load.entries.size(), 2u);
  EXPECT_EQ(load.entries[0].file, first.path());
  EXPECT_EQ(load.entries[1].line, 1);
}

TEST(LoadCorpus, ARefusedLineDoesNotReserveItsId) {
  TempFile file(R"({"id": "x", "op": "nope", "shapes": [[1],[1]]})" "\n" R"({"id": "x", "op": "add", "shapes": [[1],[1]]})" "\n");
  const CorpusLoad load = load_corpus({file.path()});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_TRUE(starts_with(load.errors[0], file.path() + ":1: ")) << load.errors[0];
  ASSERT_EQ(load.entries.size(), 1u);
  EXPECT_EQ(load.entries[0].line, 2);
}

TEST(LoadCorpus, MissingFileIsOneErrorAndOtherFilesStillLoad) {
  const std::string missing = (fs::temp_directory_path() / "bc_corpus_test_no_such_file.jsonl").string();
  TempFile good(kLine1 + "\n");
  const CorpusLoad load = load_corpus({missing, good.path()});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_TRUE(starts_with(load.errors[0], missing + ":")) << load.errors[0];
  EXPECT_TRUE(contains(load.errors[0], "cannot open")) << load.errors[0];
  ASSERT_EQ(load.entries.size(), 1u);
  EXPECT_EQ(load.entries[0].c.id, "a1");
}

TEST(LoadCorpus, ALineThatIsNotUtf8IsOneErrorWithTheByteShown) {
  // nlohmann's own parse error quotes the raw byte; the error text must stay valid UTF-8 all the same.
  expect_one_error_on_line_2("{\"id\": \"bad\xFF\", \"op\": \"add\", \"shapes\": [[1], [1]]}",
                             "not valid UTF-8: byte 12 is \\xFF");
}

TEST(LoadCorpus, ADirectoryIsAnErrorNotAnEmptyFile) {
  const std::string dir = fs::temp_directory_path().string();
  TempFile good(kLine1 + "\n");
  const CorpusLoad load = load_corpus({dir, good.path()});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0], dir + ":0: cannot read it: a directory, not a file");
  EXPECT_EQ(load.entries.size(), 1u);
}

TEST(LoadCorpus, TheProjectsSeedsLoadCleanly) {
  const CorpusLoad load = load_corpus({bc::test_source_dir() + "/corpus/seeds.jsonl"});
  EXPECT_TRUE(load.errors.empty()) << load.errors.front();
  EXPECT_GT(load.entries.size(), 10u);
}

TEST(CheckLimits, SmallCasesPass) {
  EXPECT_EQ(check_limits(make_case(R"({"op": "add", "shapes": [[2,3],[3]]})")), "");
  EXPECT_EQ(check_limits(make_case(R"({"op": "broadcast_shapes", "shapes": [[], [0], [5,1,5]]})")), "");
  EXPECT_EQ(check_limits(make_case(R"({"op": "expand", "shapes": [[3,1],[-1,4]]})")), "");
  EXPECT_EQ(check_limits(make_case(R"({"op": "add", "shapes": [[1024,1024],[1024]]})")), "");  // exactly the cap
}

TEST(CheckLimits, OversizedOperandIsRefused) {
  const std::string why = check_limits(make_case(R"({"op": "add", "shapes": [[2048,2048],[1]]})"));
  EXPECT_TRUE(starts_with(why, "shapes[0] [2048, 2048]")) << why;
  EXPECT_TRUE(contains(why, "per tensor")) << why;
  const std::string second = check_limits(make_case(R"({"op": "add", "shapes": [[1],[1025,1024]]})"));
  EXPECT_TRUE(starts_with(second, "shapes[1] [1025, 1024]")) << second;
}

TEST(CheckLimits, HugeBroadcastResultIsRefused) {
  const std::string why = check_limits(make_case(R"({"op": "add", "shapes": [[1,4096],[4096,1]]})"));
  EXPECT_TRUE(contains(why, "broadcast result would have up to 16777216 elements")) << why;
  const std::string three = check_limits(make_case(R"({"op": "addcmul", "shapes": [[128,1,1],[128,1],[128]]})"));
  EXPECT_TRUE(contains(three, "broadcast result")) << three;
}

TEST(CheckLimits, OnlyWhatIsAllocatedCounts) {
  // broadcast_shapes answers with views and sum_to with a smaller tensor: their result is not allocated.
  EXPECT_EQ(check_limits(make_case(R"({"op": "broadcast_shapes", "shapes": [[1,4096],[4096,1]]})")), "");
  EXPECT_EQ(check_limits(make_case(R"({"op": "sum_to", "shapes": [[1024,1024],[1]]})")), "");
  // A product of a row and a column is [1, 1]: the contraction holds 4096 elements, not 4096 x 4096.
  EXPECT_EQ(check_limits(make_case(R"({"op": "matmul", "shapes": [[1,4096],[4096,1]]})")), "");
  EXPECT_EQ(check_limits(make_case(R"({"op": "addmm", "shapes": [[1],[1,4096],[4096,1]]})")), "");
  // NumPy's own test: the result holds 1,000,000 elements, the 10,000,000 terms of the contraction are no tensor
  // every implementation holds (xtensor's oracle, which would hold them, refuses the case alone).
  EXPECT_EQ(check_limits(make_case(R"({"op": "matmul", "shapes": [[10000,10,10],[1,10,10]]})")), "");
  // A square product takes batch * n * k * m multiply-adds, with a cap of its own.
  const std::string square = check_limits(make_case(R"({"op": "mm", "shapes": [[512,512],[512,512]]})"));
  EXPECT_EQ(square, "the product would take 134217728 multiply-adds (batch x n x k x m), over the cap of 16777216")
      << square;
  const std::string outer = check_limits(make_case(R"({"op": "outer", "shapes": [[2048],[2048]]})"));
  EXPECT_TRUE(starts_with(outer, "the product would have up to 4194304 elements")) << outer;
  // xtensor materialises expand's target.
  const std::string expand = check_limits(make_case(R"({"op": "expand", "shapes": [[1],[2048,2048]]})"));
  EXPECT_TRUE(starts_with(expand, "the expanded result would have up to 4194304")) << expand;
}

TEST(CheckLimits, RankAndOperandCountAreCapped) {
  Case deep = make_case(R"({"op": "broadcast_shapes", "shapes": [[1], [1]]})");
  deep.shapes[1] = Shape(kMaxRank, 1);
  EXPECT_EQ(check_limits(deep), "");
  deep.shapes[1] = Shape(1000000, 1);
  EXPECT_EQ(check_limits(deep), "shapes[1] has rank 1000000, over the cap of 64 dims");
  Case wide = make_case(R"({"op": "broadcast_shapes", "shapes": [[1], [1]]})");
  wide.shapes.assign(kMaxOperands + 1, Shape{1});
  EXPECT_EQ(check_limits(wide), "the case has 65 operands, over the cap of 64");
}

TEST(CheckLimits, TooManyElementsInAllIsRefused) {
  const std::string why = check_limits(
      make_case(R"({"op": "broadcast_shapes", "shapes": [[1024,1024],[1024,1024],[1024,1024],[1024,1024],[1024,1024]]})"));
  EXPECT_EQ(why, "the case would hold over " + std::to_string(kMaxElementsPerCase) + " elements in all");
}

TEST(CheckLimits, AbsurdSizesDoNotOverflow) {
  const std::string why =
      check_limits(make_case(R"({"op": "add", "shapes": [[9223372036854775807, 9223372036854775807],[1]]})"));
  EXPECT_EQ(why, "shapes[0] [9223372036854775807, 9223372036854775807] has more than 9223372036854775807 elements, "
                 "over the cap of 1048576 per tensor");
  // Each operand within the cap, their broadcast far beyond any 64-bit count.
  const std::string broadcast = check_limits(make_case(
      R"({"op": "add", "shapes": [[1048576,1,1,1],[1048576,1,1]]})"));
  EXPECT_EQ(broadcast, "the broadcast result would have up to 1099511627776 elements, over the cap of 1048576 per tensor");
  const std::string beyond = check_limits(make_case(
      R"({"op": "broadcast_shapes", "shapes": [[9223372036854775807],[9223372036854775807]]})"));
  EXPECT_TRUE(starts_with(beyond, "shapes[0] [9223372036854775807] has 9223372036854775807 elements")) << beyond;
  Case eight = make_case(R"({"op": "expand", "shapes": [[1], [1]]})");
  eight.shapes[1] = Shape(8, int64_t{1} << 20);  // 2^160 elements
  EXPECT_EQ(check_limits(eight), "the expanded result would have up to more than 9223372036854775807 elements, over "
                                 "the cap of 1048576 per tensor");
}

// Lines a hostile file may hold: nested without end, or longer than any case needs. Each is refused alone with a
// reason, before any parser or copy recurses into it, and the lines around it still load.
TEST(LoadCorpus, DeepAndLongLinesAreRefusedAlone) {
  for (const int depth : {65, 1000, 30000, 100000}) {
    const std::string deep = R"({"op": "add", "shapes": [[1],[1]], "x": )" + std::string(depth, '[') +
                             std::string(depth, ']') + "}";
    expect_one_error_on_line_2(deep, "arrays and objects nest deeper than the limit of 64 levels (at byte 104)");
  }
  const std::string long_note = R"({"op": "add", "shapes": [[1],[1]], "note": ")" + std::string(2000000, 'x') + "\"}";
  expect_one_error_on_line_2(long_note, "too long: 2000046 bytes, over the limit of 1048576 bytes");
  const std::string at_the_limit = R"({"op": "add", "shapes": [[1],[1]], "x": )" + std::string(63, '[') +
                                   std::string(63, ']') + "}";
  EXPECT_NO_THROW(parse_case_text(at_the_limit));  // the object and 63 arrays: 64 levels
}

TEST(LoadCorpus, AFileThatCannotBeOpenedSaysWhy) {
  const fs::path dir = fs::temp_directory_path() / ("bc_corpus_test_socket_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string socket = (dir / "corpus.jsonl").string();
  // A Unix socket exists and is no directory, and open(2) refuses it (ENXIO).
  ASSERT_EQ(std::system(("/usr/bin/python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"" + socket + "\")'").c_str()), 0);
  const CorpusLoad load = load_corpus({socket});
  fs::remove_all(dir);
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0], socket + ":0: cannot open the file: No such device or address");
}

TEST(ParseCaseText, ParsesOneLine) {
  const Case c = parse_case_text(R"({"op": "sum_to", "shapes": [[2,3],[3]], "id": "cli"})");
  EXPECT_EQ(c.op, Op::sum_to);
  EXPECT_EQ(c.id, "cli");
  EXPECT_EQ(c.shapes, (std::vector<Shape>{{2, 3}, {3}}));
}

TEST(ParseCaseText, RejectsInvalidJsonWithAClearMessage) {
  try {
    parse_case_text("{op: add}");
    FAIL() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_TRUE(starts_with(e.what(), "not valid JSON: ")) << e.what();
  }
  try {
    parse_case_text("");
    FAIL() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_TRUE(starts_with(e.what(), "not valid JSON: ")) << e.what();
  }
}

TEST(ParseCaseText, RejectsBadCasesAndOversizedOnes) {
  try {
    parse_case_text(R"({"op": "add", "shapes": [[2]]})");
    FAIL() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()), "op \"add\" takes 2 shapes, got 1");
  }
  try {
    parse_case_text(R"({"op": "add", "shapes": [[1,4096],[4096,1]]})");
    FAIL() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_TRUE(contains(e.what(), "broadcast result")) << e.what();
  }
}

}  // namespace
}  // namespace bc
