#include "engine/overlap.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace bc {

// The views below are the ones probed on libtorch-dev 1.13.1; the comments say what LibTorch did with each as
// self (or input) of add_. The engine's answers are exact (docs/notes/overlap-rule.md).
TEST(Overlap, ExpandedSelfOverlapsItself) {
  EXPECT_TRUE(has_internal_overlap({0, {2, 3}, {0, 1}}));  // LibTorch: internal overlap error
  EXPECT_FALSE(has_internal_overlap({0, {1, 3}, {0, 1}}));  // stride 0 on a size-1 dim moves nothing
  EXPECT_FALSE(has_internal_overlap({0, {2, 3}, {3, 1}}));
}

TEST(Overlap, AsStridedFoldIsFoundWithoutAZeroStride) {
  EXPECT_TRUE(has_internal_overlap({0, {2, 2}, {1, 1}}));  // LibTorch: allowed ("too hard")
  EXPECT_FALSE(has_internal_overlap({0, {2, 2}, {1, 2}}));   // a transpose: no fold
  EXPECT_FALSE(has_internal_overlap({1, {3}, {2}}));         // a strided slice
  EXPECT_FALSE(has_internal_overlap({0, {3, 2}, {2, 3}}));   // 0,3,2,5,4,7: not nested, yet no repeat
  EXPECT_TRUE(has_internal_overlap({0, {3, 2}, {1, 2}}));    // 0,2,1,3,2,4: 2 twice
}

TEST(Overlap, BetweenSelfAndInput) {
  const View a{0, {3, 3}, {3, 1}};
  EXPECT_EQ(overlap(a, a), Overlap::full);                                  // a.add_(a): allowed
  EXPECT_EQ(overlap(a, View{0, {3, 3}, {1, 3}}), Overlap::partial);         // a.add_(a.t()): LibTorch error
  EXPECT_EQ(overlap(View{0, {2, 3}, {3, 1}}, View{0, {3}, {1}}), Overlap::partial);  // a.add_(a[0]): error
  EXPECT_EQ(overlap(View{0, {3}, {1}}, View{3, {3}, {1}}), Overlap::none);  // a[0].add_(a[1])
  EXPECT_EQ(overlap(View{0, {3}, {2}}, View{1, {3}, {2}}), Overlap::none);  // interleaved slices share nothing
  EXPECT_EQ(overlap(View{0, {3}, {2}}, View{0, {3}, {1}}), Overlap::partial);  // LibTorch: allowed ("too hard")
  EXPECT_EQ(overlap(View{0, {1, 3}, {7, 1}}, View{0, {1, 3}, {3, 1}}), Overlap::full);  // size-1 stride is moot
  EXPECT_EQ(overlap(View{0, {0}, {1}}, View{0, {3}, {1}}), Overlap::none);
}

namespace {

rc::Gen<View> small_view() {
  return rc::gen::exec([] {
    View v;
    v.offset = *rc::gen::inRange<int64_t>(0, 4);
    const int rank = *rc::gen::inRange(0, 4);
    for (int d = 0; d < rank; ++d) {
      v.sizes.push_back(*rc::gen::inRange<int64_t>(0, 4));
      v.strides.push_back(*rc::gen::inRange<int64_t>(0, 5));
    }
    return v;
  });
}

}  // namespace

RC_GTEST_PROP(OverlapProperty, InternalOverlapIsExactlyARepeatedLocation, ()) {
  const View v = *small_view();
  const std::vector<int64_t> offsets = element_offsets(v);
  const bool repeated = std::set<int64_t>(offsets.begin(), offsets.end()).size() != offsets.size();
  RC_ASSERT(has_internal_overlap(v) == repeated);
}

RC_GTEST_PROP(OverlapProperty, OverlapIsSymmetricAndMatchesSharedLocations, ()) {
  const View a = *small_view(), b = *small_view();
  RC_ASSERT(overlap(a, b) == overlap(b, a));
  const auto x = element_offsets(a), y = element_offsets(b);
  const bool shared = std::any_of(x.begin(), x.end(), [&](int64_t o) { return std::count(y.begin(), y.end(), o) > 0; });
  RC_ASSERT((overlap(a, b) != Overlap::none) == shared);
  if (overlap(a, b) == Overlap::full) RC_ASSERT(x == y);
}

}  // namespace bc
