#include "geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ocr {
namespace {

double Cross(const PointF& o, const PointF& a, const PointF& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

}  // namespace

Quad RotatedRect::Corners() const {
  const PointF u = {axis.x * width / 2, axis.y * width / 2};
  const PointF v = {-axis.y * height / 2, axis.x * height / 2};
  return {{{center.x - u.x - v.x, center.y - u.y - v.y},
           {center.x + u.x - v.x, center.y + u.y - v.y},
           {center.x + u.x + v.x, center.y + u.y + v.y},
           {center.x - u.x + v.x, center.y - u.y + v.y}}};
}

std::vector<PointF> ConvexHull(std::vector<PointF> p) {
  std::sort(p.begin(), p.end(), [](const PointF& a, const PointF& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(std::unique(p.begin(), p.end(),
                      [](const PointF& a, const PointF& b) { return a.x == b.x && a.y == b.y; }),
          p.end());
  if (p.size() < 3) return p;
  std::vector<PointF> hull(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {  // lower chain
    while (k >= 2 && Cross(hull[k - 2], hull[k - 1], p[i]) <= 0) --k;
    hull[k++] = p[i];
  }
  for (size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && Cross(hull[k - 2], hull[k - 1], p[i]) <= 0) --k;
    hull[k++] = p[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

RotatedRect MinAreaRect(const std::vector<PointF>& points) {
  const std::vector<PointF> hull = ConvexHull(points);
  RotatedRect best;
  if (hull.empty()) return best;
  if (hull.size() == 1) {
    best.center = hull[0];
    return best;
  }
  double best_area = std::numeric_limits<double>::infinity();
  const size_t n = hull.size() == 2 ? 1 : hull.size();
  for (size_t i = 0; i < n; ++i) {
    const PointF& a = hull[i];
    const PointF& b = hull[(i + 1) % hull.size()];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    const PointF u = {(b.x - a.x) / len, (b.y - a.y) / len};
    double u_lo = std::numeric_limits<double>::infinity(), u_hi = -u_lo;
    double v_lo = u_lo, v_hi = -u_lo;
    for (const PointF& p : hull) {
      const double pu = p.x * u.x + p.y * u.y, pv = -p.x * u.y + p.y * u.x;
      u_lo = std::min(u_lo, pu), u_hi = std::max(u_hi, pu);
      v_lo = std::min(v_lo, pv), v_hi = std::max(v_hi, pv);
    }
    const double area = (u_hi - u_lo) * (v_hi - v_lo);
    if (area < best_area) {
      best_area = area;
      const double cu = (u_lo + u_hi) / 2, cv = (v_lo + v_hi) / 2;
      best.center = {cu * u.x - cv * u.y, cu * u.y + cv * u.x};
      best.width = u_hi - u_lo;
      best.height = v_hi - v_lo;
      best.axis = u;
    }
  }
  return best;
}

RotatedRect UnclipRect(const RotatedRect& rect, double ratio) {
  const double area = rect.width * rect.height;
  const double perimeter = 2 * (rect.width + rect.height);
  const double distance = perimeter > 0 ? area * ratio / perimeter : 0;
  RotatedRect out = rect;
  out.width += 2 * distance;
  out.height += 2 * distance;
  return out;
}

Quad OrderMiniBox(const Quad& corners) {
  Quad p = corners;
  std::stable_sort(p.begin(), p.end(), [](const PointF& a, const PointF& b) { return a.x < b.x; });
  const bool left_upper_first = p[1].y > p[0].y;
  const bool right_upper_first = p[3].y > p[2].y;
  return {left_upper_first ? p[0] : p[1], right_upper_first ? p[2] : p[3],
          right_upper_first ? p[3] : p[2], left_upper_first ? p[1] : p[0]};
}

Quad OrderClockwise(const Quad& q) {
  // np.argmin / np.argmax: the first index on ties.
  size_t smin = 0, smax = 0;
  for (size_t i = 1; i < 4; ++i) {
    if (q[i].x + q[i].y < q[smin].x + q[smin].y) smin = i;
    if (q[i].x + q[i].y > q[smax].x + q[smax].y) smax = i;
  }
  std::vector<PointF> rest;
  for (size_t i = 0; i < 4; ++i) {
    if (i != smin && i != smax) rest.push_back(q[i]);
  }
  while (rest.size() < 2) rest.push_back(q[smin]);  // degenerate: all sums equal
  const bool first_is_top_right = rest[0].y - rest[0].x <= rest[1].y - rest[1].x;
  return {q[smin], first_is_top_right ? rest[0] : rest[1], q[smax],
          first_is_top_right ? rest[1] : rest[0]};
}

}  // namespace ocr
