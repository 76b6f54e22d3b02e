#include "trinity/shape.h"

#include <limits>

namespace trinity {

Shape Shape::FromConcrete(const std::vector<int64_t>& d) {
  Shape s;
  for (int64_t v : d) s.dims.push_back(Dim::Known(v));
  return s;
}

bool Shape::fully_known() const {
  if (!rank_known) return false;
  for (const Dim& d : dims)
    if (!d.known()) return false;
  return true;
}

bool Shape::Matches(const std::vector<int64_t>& concrete) const {
  if (!rank_known) return true;
  if (concrete.size() != dims.size()) return false;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].known() && dims[i].value != concrete[i]) return false;
  return true;
}

std::string Shape::ToString() const {
  if (!rank_known) return "[*]";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    if (dims[i].known()) s += std::to_string(dims[i].value);
    else if (!dims[i].symbol.empty()) s += dims[i].symbol;
    else s += "?";
  }
  return s + "]";
}

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

int64_t shape_numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

}  // namespace trinity
