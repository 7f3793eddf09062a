#include "properties/shape_set.h"

#include <algorithm>

namespace bc {

const std::vector<std::pair<uint64_t, int64_t>>& size_weights() {
  static const std::vector<std::pair<uint64_t, int64_t>> weights = {{30, 1}, {20, 2}, {15, 3},
                                                                    {12, 0}, {12, 4}, {11, 5}};
  return weights;
}

std::vector<std::pair<uint64_t, int64_t>> conflict_weights(int64_t other) {
  std::vector<std::pair<uint64_t, int64_t>> out;
  for (const auto& [weight, size] : size_weights())
    if (size != 1 && size != other) out.push_back({weight, size});
  return out;
}

std::vector<std::pair<uint64_t, int64_t>> rank_weights(int min_rank, int max_rank) {
  static const uint64_t weights[] = {8, 20, 25, 20, 12, 8, 7};
  std::vector<std::pair<uint64_t, int64_t>> out;
  for (int r = min_rank; r <= max_rank; ++r) out.push_back({weights[std::min(r, 6)], r});
  return out;
}

std::vector<Shape> ShapeSet::shapes() const {
  std::vector<Shape> out(roles.size());
  for (size_t o = 0; o < roles.size(); ++o)
    for (size_t p = 0; p < full.size(); ++p) {
      if (roles[o][p] == 'a') continue;
      int64_t size = roles[o][p] == '1' ? 1 : full[p];
      if (static_cast<int>(p) == at) size = static_cast<int>(o) == i ? a : static_cast<int>(o) == k ? b : 1;
      if (static_cast<int>(p) == at2) size = static_cast<int>(o) == i ? a2 : static_cast<int>(o) == k ? b2 : 1;
      out[o].push_back(size);
    }
  return out;
}

namespace {

// Sizes preferred over `size` (those before it in the shrink order), optionally skipping some.
std::vector<int64_t> smaller_sizes(int64_t size, std::vector<int64_t> skip = {}) {
  std::vector<int64_t> out;
  for (const auto& [weight, s] : size_weights()) {
    if (s == size) break;
    if (std::find(skip.begin(), skip.end(), s) == skip.end()) out.push_back(s);
  }
  return out;
}

int first_present(const std::vector<char>& role) {
  for (size_t p = 0; p < role.size(); ++p)
    if (role[p] != 'a') return static_cast<int>(p);
  return static_cast<int>(role.size());
}

// Each smaller size for one side `x` of a conflict, kept different from the other side `y` and never 1.
void lower_conflict(const ShapeSet& s, int64_t ShapeSet::*x, int64_t ShapeSet::*y, std::vector<ShapeSet>& out) {
  for (int64_t smaller : smaller_sizes(s.*x, {1, s.*y})) {
    ShapeSet t = s;
    t.*x = smaller;
    out.push_back(t);
  }
}

}  // namespace

std::vector<ShapeSet> shrink_candidates(const ShapeSet& s) {
  std::vector<ShapeSet> out;
  const int rank = static_cast<int>(s.full.size());
  if (s.at2 >= 0) {  // 0. drop the second conflict
    ShapeSet t = s;
    t.at2 = -1;
    out.push_back(t);
  }
  for (int p = 0; p < rank && rank > s.min_rank; ++p) {  // 1. drop a position
    if (s.conflict_at(p)) continue;
    ShapeSet t = s;
    t.full.erase(t.full.begin() + p);
    for (auto& role : t.roles) role.erase(role.begin() + p);
    if (t.at > p) --t.at;
    if (t.at2 > p) --t.at2;
    out.push_back(t);
  }
  for (size_t o = 0; o < s.roles.size(); ++o) {  // 2. lower an operand's rank
    const int p = first_present(s.roles[o]);
    const bool conflicted = s.conflict_at(p) && (static_cast<int>(o) == s.i || static_cast<int>(o) == s.k);
    if (p >= rank || conflicted) continue;
    ShapeSet t = s;
    t.roles[o][p] = 'a';
    out.push_back(t);
  }
  for (int p = 0; p < rank; ++p) {  // 3. lower a scaffold size
    if (s.conflict_at(p)) continue;
    for (int64_t smaller : smaller_sizes(s.full[p])) {
      ShapeSet t = s;
      t.full[p] = smaller;
      out.push_back(t);
    }
  }
  for (size_t o = 0; o < s.roles.size(); ++o)  // 4. a scaffold-sized dim becomes 1
    for (int p = 0; p < rank; ++p)
      if (s.roles[o][p] == 'f' && !s.conflict_at(p) && s.full[p] != 1) {
        ShapeSet t = s;
        t.roles[o][p] = '1';
        out.push_back(t);
      }
  if (s.near_miss()) {  // 5. lower the conflicting sizes
    lower_conflict(s, &ShapeSet::a, &ShapeSet::b, out);
    lower_conflict(s, &ShapeSet::b, &ShapeSet::a, out);
  }
  if (s.at2 >= 0) {
    lower_conflict(s, &ShapeSet::a2, &ShapeSet::b2, out);
    lower_conflict(s, &ShapeSet::b2, &ShapeSet::a2, out);
  }
  return out;
}

namespace gen {
namespace {

// Weighted draws straight from RapidCheck's random source; shrinking is shrink_candidates' job, not theirs.
class Draw {
 public:
  explicit Draw(const rc::Random& random) : random_(random) {}
  uint64_t below(uint64_t n) { return random_.next() % n; }
  int64_t size() { return pick(size_weights()); }
  int64_t conflict_size(int64_t other) { return pick(conflict_weights(other)); }
  int rank(int min_rank, int max_rank) { return static_cast<int>(pick(rank_weights(min_rank, max_rank))); }

 private:
  int64_t pick(const std::vector<std::pair<uint64_t, int64_t>>& choices) {
    uint64_t total = 0;
    for (const auto& c : choices) total += c.first;
    uint64_t x = below(total);
    for (const auto& c : choices) {
      if (x < c.first) return c.second;
      x -= c.first;
    }
    return choices.back().second;
  }
  rc::Random random_;
};

ShapeSet draw_set(Draw& d, int count, int min_rank, int max_rank, bool conflict) {
  ShapeSet s;
  s.min_rank = std::max(min_rank, conflict ? 1 : 0);
  const int rank = d.rank(s.min_rank, max_rank);
  for (int p = 0; p < rank; ++p) s.full.push_back(d.size());
  for (int o = 0; o < count; ++o) {
    const int present = static_cast<int>(d.below(rank + 1));
    std::vector<char> role(rank, 'a');
    for (int p = rank - present; p < rank; ++p) role[p] = d.below(4) == 0 ? '1' : 'f';
    s.roles.push_back(role);
  }
  if (conflict) {
    s.at = static_cast<int>(d.below(rank));
    s.i = static_cast<int>(d.below(count));
    s.k = static_cast<int>((s.i + 1 + d.below(count - 1)) % count);
    s.a = d.conflict_size(1);
    s.b = d.conflict_size(s.a);
    if (rank >= 2 && d.below(3) == 0) {  // a second conflict between the same two, elsewhere
      s.at2 = static_cast<int>((s.at + 1 + d.below(rank - 1)) % rank);
      s.a2 = d.conflict_size(1);
      s.b2 = d.conflict_size(s.a2);
    }
    const int outermost = s.at2 >= 0 ? std::min(s.at, s.at2) : s.at;
    for (int o : {s.i, s.k})  // both conflicting operands reach the positions (their outer dims stay absent)
      for (int p = outermost; p < rank && s.roles[o][p] == 'a'; ++p) s.roles[o][p] = '1';
  }
  return s;
}

}  // namespace

rc::Gen<ShapeSet> shape_set(int count, int min_rank, int max_rank, bool conflict) {
  return rc::Gen<ShapeSet>([=](const rc::Random& random, int) {
    Draw d(random);
    return rc::shrinkable::shrinkRecur(draw_set(d, count, min_rank, max_rank, conflict),
                                       [](const ShapeSet& s) { return rc::seq::fromContainer(shrink_candidates(s)); });
  });
}

}  // namespace gen
}  // namespace bc
