// Connected components of binary maps.
#include "ocr/components.h"

#include <gtest/gtest.h>

#include <string>

namespace ocr {
namespace {

// A map from rows of '#' (set) and '.' (clear).
std::vector<uint8_t> Map(const std::vector<std::string>& rows) {
  std::vector<uint8_t> m;
  for (const auto& r : rows)
    for (char c : r) m.push_back(c == '#');
  return m;
}

TEST(OcrComponents, SeparatesRegionsAndJoinsDiagonalNeighbours) {
  const auto m = Map({
      "##.....#",
      "..#....#",
      "........",
      "...###..",
      "...#.#..",
  });
  const auto c = FindComponents(m, 8, 5);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].pixels, 3);  // (0,0) (1,0) and (2,1) diagonally below
  EXPECT_EQ(c[1].pixels, 2);  // the right column
  EXPECT_EQ(c[2].pixels, 5);  // the arch, in raster order of first pixels
}

TEST(OcrComponents, ExtremesAreLeftmostAndRightmostPerRow) {
  const auto m = Map({
      ".####.",
      ".#..#.",
      "..##..",
  });
  const auto c = FindComponents(m, 6, 3);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pixels, 8);
  std::vector<std::pair<double, double>> got;
  for (const PointF& p : c[0].extremes) got.push_back({p.x, p.y});
  const std::vector<std::pair<double, double>> want = {{1, 0}, {4, 0}, {1, 1},
                                                       {4, 1}, {2, 2}, {3, 2}};
  EXPECT_EQ(got, want);
}

TEST(OcrComponents, EmptyAndFullMaps) {
  EXPECT_TRUE(FindComponents(std::vector<uint8_t>(12, 0), 4, 3).empty());
  const auto full = FindComponents(std::vector<uint8_t>(12, 1), 4, 3);
  ASSERT_EQ(full.size(), 1u);
  EXPECT_EQ(full[0].pixels, 12);
  EXPECT_EQ(full[0].extremes.size(), 6u);
}

}  // namespace
}  // namespace ocr
