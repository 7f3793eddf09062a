// Every expected answer below is worked out by hand from the document the comment names (docs/notes/
// document-voter.md), not from the voter's code or any library.
#include "oracles/document_oracle.h"

#include <cmath>

#include <gtest/gtest.h>

#include "oracle_test_util.h"

namespace bc {
namespace {

using testing::make_case;

Outcome ask(const std::string& json) { return make_document_oracle()->run(case_from_json(nlohmann::json::parse(json))); }
Outcome ask(const std::string& op, std::vector<Shape> shapes) {
  return make_document_oracle()->run(make_case(op, std::move(shapes)));
}
ErrorKind kind_of(const Outcome& o) { return o.error ? o.error->kind : ErrorKind::other; }

TEST(DocumentOracle, BroadcastsAsSeed003States) {
  EXPECT_EQ(ask("add", {{5, 1, 4, 1}, {3, 1, 1}}), Outcome::success({5, 3, 4, 1}));
  EXPECT_EQ(ask("add", {{1}, {3, 1, 7}}), Outcome::success({3, 1, 7}));
  EXPECT_EQ(ask("broadcast_shapes", {{5, 7, 3}, {5, 7, 3}}), Outcome::success({5, 7, 3}));
  EXPECT_EQ(kind_of(ask("add", {{5, 2, 4, 1}, {3, 1, 1}})), ErrorKind::broadcast);
  // Seed 002: (2, 5) against (3,) fails; (6, 1, 5) with (3, 5) gives (6, 3, 5).
  EXPECT_EQ(kind_of(ask("broadcast_shapes", {{2, 5}, {3}})), ErrorKind::broadcast);
  EXPECT_EQ(ask("broadcast_shapes", {{6, 1, 5}, {3, 5}}), Outcome::success({6, 3, 5}));
  // Seed 003, addcmul: all three operands broadcast together.
  EXPECT_EQ(ask("addcmul", {{4, 1, 1}, {3, 1}, {2}}), Outcome::success({4, 3, 2}));
  // The messages are the documents' rule, never a library's text.
  EXPECT_EQ(ask("add", {{2}, {3}}).error->message.rfind("the documents: ", 0), 0u);
}

TEST(DocumentOracle, RankZeroIsNotBroadcastableByTheDocuments) {
  // Seeds 003 and 001: each tensor needs at least one dimension; the same shape needs no broadcasting.
  EXPECT_EQ(kind_of(ask("add", {{}, {3}})), ErrorKind::broadcast);
  EXPECT_EQ(kind_of(ask("broadcast_shapes", {{2}, {}})), ErrorKind::broadcast);
  EXPECT_EQ(kind_of(ask("add_", {{3}, {}})), ErrorKind::broadcast);
  EXPECT_EQ(ask("mul", {{}, {}}), Outcome::success({}));
  // A product's batch shape is not a tensor: matmul [3] x [3] is a dot product, 0-d.
  EXPECT_EQ(ask("matmul", {{3}, {3}}), Outcome::success({}));
  EXPECT_EQ(ask("matmul", {{}, {3}}).status, Status::unsupported);
}

TEST(DocumentOracle, SizeZeroTakesTheSizeThatIsNotOne) {
  // Seed 000's infer_size: "if sizeA is 1, sizeB is taken".
  EXPECT_EQ(ask("add", {{0}, {1}}), Outcome::success({0}));
  EXPECT_EQ(ask("sub", {{2, 1}, {1, 0}}), Outcome::success({2, 0}));
  EXPECT_EQ(kind_of(ask("add", {{0}, {2}})), ErrorKind::broadcast);
  EXPECT_EQ(ask("mm", {{2, 0}, {0, 3}}), Outcome::success({2, 3}));
  const Outcome o = ask(R"({"op": "mm", "shapes": [[2, 0], [0, 2]], "values": {"seed": 3}})");
  EXPECT_EQ(o.values, Values({0.0, 0.0, 0.0, 0.0}));  // an empty sum
}

TEST(DocumentOracle, InPlaceKeepsSelfsShape) {
  // Seed 003's in-place examples.
  EXPECT_EQ(ask("add_", {{5, 3, 4, 1}, {3, 1, 1}}), Outcome::success({5, 3, 4, 1}));
  EXPECT_EQ(kind_of(ask("add_", {{1, 3, 1}, {3, 1, 7}})), ErrorKind::inplace_shape);
  EXPECT_EQ(kind_of(ask("addcmul_", {{3}, {2, 3}, {3}})), ErrorKind::inplace_shape);
  EXPECT_EQ(kind_of(ask("addmm_", {{1, 3}, {2, 4}, {4, 3}})), ErrorKind::inplace_shape);
  // No document states the rules for an expanded self.
  EXPECT_EQ(ask(R"({"op": "add_", "shapes": [[2, 3], [3]], "layouts": ["expanded", "contiguous"]})").status,
            Status::unsupported);
  // ... even where the shapes do not broadcast: no document says which rule is checked first.
  EXPECT_EQ(ask(R"({"op": "add_", "shapes": [[2], [3]], "layouts": ["expanded", "contiguous"]})").status,
            Status::unsupported);
}

TEST(DocumentOracle, ExpandAsTorchDocumentsIt) {
  EXPECT_EQ(ask("expand", {{3, 1}, {3, 4}}), Outcome::success({3, 4}));
  EXPECT_EQ(ask("expand", {{3, 1}, {-1, 4}}), Outcome::success({3, 4}));
  EXPECT_EQ(ask("expand", {{3}, {2, 3}}), Outcome::success({2, 3}));
  EXPECT_EQ(kind_of(ask("expand", {{3}, {-1, 3}})), ErrorKind::expand);  // -1 in a new leading dimension
  EXPECT_EQ(kind_of(ask("expand", {{2}, {3}})), ErrorKind::expand);
  EXPECT_EQ(ask("expand", {{1}, {0}}).status, Status::unsupported);  // 0 is not "a larger size"
}

TEST(DocumentOracle, SumToAndTheGradientOfSeed000) {
  EXPECT_EQ(ask("sum_to", {{3}, {1}}), Outcome::success({1}));
  EXPECT_EQ(ask("sum_to", {{2, 3}, {}}), Outcome::success({}));
  EXPECT_EQ(kind_of(ask("sum_to", {{2, 3}, {2}})), ErrorKind::sum_to);
  // A = [1, 2, 3] and B = [1] require grad; C = A + B; C.sum().backward(): A.grad = [1, 1, 1], B.grad = [3].
  const Outcome o =
      ask(R"({"op": "add", "shapes": [[3], [1]], "values": {"data": [[1, 2, 3], [1]]}, "requires_grad": [true, true]})");
  ASSERT_EQ(o.status, Status::ok);
  EXPECT_EQ(o.values, Values({2.0, 3.0, 4.0}));
  ASSERT_EQ(o.grads.size(), 2u);
  EXPECT_EQ(o.grads[0]->values, Values({1.0, 1.0, 1.0}));
  EXPECT_EQ(o.grads[1]->shape, Shape{1});
  EXPECT_EQ(o.grads[1]->values, Values({3.0}));
}

TEST(DocumentOracle, TextbookGradients) {
  // mul: d(a*b)/da = b, d/db = a, b's summed over the two rows.
  const Outcome mul = ask(R"({"op": "mul", "shapes": [[2, 2], [2]], "values": {"data": [[1, 2, 3, 4], [5, 6]]},
                             "requires_grad": [true, true]})");
  EXPECT_EQ(mul.grads[0]->values, Values({5.0, 6.0, 5.0, 6.0}));
  EXPECT_EQ(mul.grads[1]->values, Values({4.0, 6.0}));
  // maximum routes the gradient to the larger operand; a tie is unsupported.
  const Outcome max = ask(R"({"op": "maximum", "shapes": [[2], [2]], "values": {"data": [[1, 5], [3, 2]]},
                             "requires_grad": [true, true]})");
  EXPECT_EQ(max.grads[0]->values, Values({0.0, 1.0}));
  EXPECT_EQ(max.grads[1]->values, Values({1.0, 0.0}));
  EXPECT_EQ(ask(R"({"op": "maximum", "shapes": [[1], [1]], "values": {"data": [[2], [2]]},
                    "requires_grad": [true, false]})").status, Status::unsupported);
  // pow at zero: x^0 is constant (d/dx 0); x^2 at 0 has slope 0; 0^y is 0 for y > 0 (d/dy 0); x^0.5 has none.
  const Outcome pow = ask(R"({"op": "pow", "shapes": [[2], [2]], "values": {"data": [[0, 0], [0, 2]]},
                             "requires_grad": [true, false]})");
  EXPECT_EQ(pow.grads[0]->values, Values({0.0, 0.0}));
  const Outcome base = ask(R"({"op": "pow", "shapes": [[1], [1]], "values": {"data": [[0], [3]]},
                              "requires_grad": [false, true]})");
  EXPECT_EQ(base.grads[1]->values, Values({0.0}));
  EXPECT_EQ(ask(R"({"op": "pow", "shapes": [[1], [1]], "values": {"data": [[0], [0.5]]},
                    "requires_grad": [true, false]})").status, Status::unsupported);
  // div: d(a/b)/db = -a/b^2 = -8/4.
  const Outcome div = ask(R"({"op": "div", "shapes": [[1], [1]], "values": {"data": [[8], [2]]},
                             "requires_grad": [true, true]})");
  EXPECT_EQ(div.grads[0]->values, Values({0.5}));
  EXPECT_EQ(div.grads[1]->values, Values({-2.0}));
}

TEST(DocumentOracle, DocumentedFormulas) {
  const auto values = [](const std::string& json) { return ask(json).values; };
  // torch.remainder has the divisor's sign, torch.fmod the dividend's.
  EXPECT_EQ(values(R"({"op": "remainder", "shapes": [[3], [3]], "values": {"data": [[-3, 3, 1], [2, -2, -1.5]]}})"),
            Values({1.0, -1.0, -0.5}));
  EXPECT_EQ(values(R"({"op": "fmod", "shapes": [[2], [2]], "values": {"data": [[-3, 3], [2, -2]]}})"),
            Values({-1.0, 1.0}));
  // add with alpha: input + alpha * other; true division.
  EXPECT_EQ(values(R"({"op": "add", "shapes": [[1], [1]], "scalars": {"alpha": 3}, "values": {"data": [[1], [2]]}})"),
            Values({7.0}));
  EXPECT_EQ(values(R"({"op": "div", "shapes": [[1], [1]], "values": {"data": [[1], [4]]}})"), Values({0.25}));
  // lerp: start + weight * (end - start); addcmul: input + value * t1 * t2; addcdiv: input + value * t1 / t2.
  EXPECT_EQ(values(R"({"op": "lerp", "shapes": [[1], [1], [1]], "values": {"data": [[1], [3], [0.25]]}})"),
            Values({1.5}));
  EXPECT_EQ(values(R"({"op": "addcmul", "shapes": [[1], [1], [1]], "scalars": {"value": 2},
                       "values": {"data": [[1], [2], [3]]}})"), Values({13.0}));
  EXPECT_EQ(values(R"({"op": "addcdiv", "shapes": [[1], [1], [1]], "scalars": {"value": 2},
                       "values": {"data": [[1], [3], [4]]}})"), Values({2.5}));
  // maximum and minimum propagate NaN; comparisons give bool.
  const Values max = values(R"({"op": "maximum", "shapes": [[2], [2]], "values": {"data": [["nan", 1], [0, 2]]}})");
  EXPECT_TRUE(std::isnan(max.floats()[0]));
  EXPECT_EQ(max.floats()[1], 2.0);
  const Outcome lt = ask(R"({"op": "lt", "shapes": [[2], [1]], "values": {"data": [[1, 3], [2]]}})");
  EXPECT_EQ(lt.dtype, "bool");
  EXPECT_EQ(lt.values, Values(std::vector<int64_t>{1, 0}));
  // where(cond, x, y); dist is the 2-norm of the broadcast difference: |(3, 4) - 0|.
  EXPECT_EQ(values(R"({"op": "where", "shapes": [[2], [2], [1]], "dtypes": ["bool", "float32", "float32"],
                       "values": {"data": [[1, 0], [5, 6], [7]]}})"), Values({5.0, 7.0}));
  EXPECT_EQ(values(R"({"op": "dist", "shapes": [[2], [1]], "values": {"data": [[3, 4], [0]]}})"), Values({5.0}));
}

TEST(DocumentOracle, ProductsAsTorchMatmulDocumentsThem) {
  // Seed 002's examples.
  EXPECT_EQ(ask("matmul", {{3, 4}, {2, 5, 4, 6}}), Outcome::success({2, 5, 3, 6}));
  EXPECT_EQ(ask("matmul", {{4, 3, 5, 3, 8}, {8, 6}}), Outcome::success({4, 3, 5, 3, 6}));
  EXPECT_EQ(kind_of(ask("matmul", {{4, 2, 3, 5}, {3, 2, 5, 6}})), ErrorKind::broadcast);
  EXPECT_EQ(kind_of(ask("matmul", {{1, 1, 3, 4}, {2, 3, 5, 3}})), ErrorKind::matmul_shape);
  // torch.matmul: a 1-D first operand is prepended a 1, then removed; a 1-D second operand is a vector.
  EXPECT_EQ(ask("matmul", {{3}, {2, 3, 4}}), Outcome::success({2, 4}));
  EXPECT_EQ(ask("matmul", {{2, 5, 3}, {3}}), Outcome::success({2, 5}));
  // The strict products do not broadcast.
  EXPECT_EQ(kind_of(ask("bmm", {{2, 3, 4}, {1, 4, 5}})), ErrorKind::matmul_shape);
  EXPECT_EQ(kind_of(ask("mm", {{2, 3}, {4, 2}})), ErrorKind::matmul_shape);
  EXPECT_EQ(ask("mv", {{2, 3}, {3}}), Outcome::success({2}));
  EXPECT_EQ(ask("outer", {{2}, {3}}), Outcome::success({2, 3}));
  EXPECT_EQ(kind_of(ask("dot", {{2}, {3}})), ErrorKind::matmul_shape);
  // [[1, 2], [3, 4]] @ [5, 6] = [17, 39].
  EXPECT_EQ(ask(R"({"op": "matmul", "shapes": [[2, 2], [2]], "values": {"data": [[1, 2, 3, 4], [5, 6]]}})").values,
            Values({17.0, 39.0}));
}

TEST(DocumentOracle, ProductGradientsAreTheTextbooks) {
  // A = [[1, 2], [3, 4]], B = [[5], [6]], G = ones: dA = G B^T = [[5, 6], [5, 6]], dB = A^T G = [[4], [6]].
  const Outcome mm = ask(R"({"op": "mm", "shapes": [[2, 2], [2, 1]], "values": {"data": [[1, 2, 3, 4], [5, 6]]},
                            "requires_grad": [true, true]})");
  ASSERT_EQ(mm.grads.size(), 2u);
  EXPECT_EQ(mm.grads[0]->values, Values({5.0, 6.0, 5.0, 6.0}));
  EXPECT_EQ(mm.grads[1]->values, Values({4.0, 6.0}));
  // addmv, beta 0.5, alpha 2: dC = 0.5 G summed to C's [1] = 1; dv = 2 A^T G = 2 [1 + 3, 2 + 4].
  const Outcome addmv = ask(R"({"op": "addmv", "shapes": [[1], [2, 2], [2]], "scalars": {"beta": 0.5, "alpha": 2},
                               "values": {"data": [[7], [1, 2, 3, 4], [1, 1]]}, "requires_grad": [true, false, true]})");
  ASSERT_EQ(addmv.grads.size(), 3u);
  EXPECT_EQ(addmv.grads[0]->values, Values({1.0}));
  EXPECT_FALSE(addmv.grads[1]);
  EXPECT_EQ(addmv.grads[2]->values, Values({8.0, 12.0}));
  // matmul [2, 1, 1, 2] x [3, 2, 1] broadcasts the batches [2, 1] and [3] to [2, 3]: A's rows each meet all three of B's.
  const Outcome matmul = ask(R"({"op": "matmul", "shapes": [[2, 1, 1, 2], [3, 2, 1]],
                                "values": {"data": [[1, 1, 1, 1], [1, 2, 3, 4, 5, 6]]}, "requires_grad": [true, false]})");
  EXPECT_EQ(matmul.shape, (Shape{2, 3, 1, 1}));
  EXPECT_EQ(matmul.grads[0]->values, Values({9.0, 12.0, 9.0, 12.0}));  // 1 + 3 + 5, 2 + 4 + 6
}

TEST(DocumentOracle, FusedProductsFollowSeed003sTable) {
  // Only C broadcasts, to the product's shape.
  EXPECT_EQ(ask("addmm", {{3}, {2, 4}, {4, 3}}), Outcome::success({2, 3}));
  EXPECT_EQ(ask("addbmm", {{1}, {5, 2, 4}, {5, 4, 3}}), Outcome::success({2, 3}));
  EXPECT_EQ(ask("baddbmm", {{2, 3}, {5, 2, 4}, {5, 4, 3}}), Outcome::success({5, 2, 3}));
  EXPECT_EQ(kind_of(ask("addmm", {{4, 2, 3}, {2, 4}, {4, 3}})), ErrorKind::expand);
  // C of ones broadcasts to any product, so only the product's sizes can fail.
  EXPECT_EQ(kind_of(ask("addmm", {{1, 1}, {2, 4}, {5, 3}})), ErrorKind::matmul_shape);
  EXPECT_EQ(ask("addmm", {{2, 2}, {2, 4}, {5, 3}}).status, Status::unsupported);  // which check comes first?
  // beta * C + alpha * A @ B: 0.5 * [2, 4] + 2 * ([[1, 2], [3, 4]] @ [1, 1]) = [1 + 6, 2 + 14].
  EXPECT_EQ(ask(R"({"op": "addmv", "shapes": [[2], [2, 2], [2]], "scalars": {"beta": 0.5, "alpha": 2},
                    "values": {"data": [[2, 4], [1, 2, 3, 4], [1, 1]]}})").values, Values({7.0, 16.0}));
  // beta = 0: C is ignored, its NaN and inf do not propagate.
  EXPECT_EQ(ask(R"({"op": "addmm", "shapes": [[2, 2], [2, 2], [2, 2]], "scalars": {"beta": 0},
                    "values": {"data": [["nan", "inf", "-inf", "nan"], [1, 2, 3, 4], [1, 0, 0, 1]]}})").values,
            Values({1.0, 2.0, 3.0, 4.0}));
}

TEST(DocumentOracle, UnsupportedWhereNoDocumentSpeaks) {
  const Outcome mixed = ask(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["float32", "float64"]})");
  EXPECT_EQ(mixed.status, Status::unsupported);
  EXPECT_EQ(mixed.detail.rfind("no document states ", 0), 0u);
  EXPECT_EQ(ask(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["int64", "int64"]})").status, Status::unsupported);
  EXPECT_EQ(ask(R"({"op": "remainder", "shapes": [[1], [1]], "values": {"data": [[-1], ["inf"]]}})").status,
            Status::unsupported);
  EXPECT_EQ(ask(R"({"op": "maximum", "shapes": [[1], [1]], "values": {"data": [[-0.0], [0.0]]}})").status,
            Status::unsupported);
  EXPECT_EQ(ask(R"({"op": "addmm_", "shapes": [[1, 1], [1, 1], [1, 1]], "values": {"seed": 1},
                    "requires_grad": [false, true, false]})").status, Status::unsupported);  // autograd in place
}

}  // namespace
}  // namespace bc
