// Shapes whose dimensions may be symbolic ("batch", "seq") or unknown, as declared by a model.
// Concrete tensors use std::vector<int64_t>; Shape describes what a model expects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trinity {

struct Dim {
  int64_t value = -1;  // >= 0 when known
  std::string symbol;  // name of a symbolic dimension, empty otherwise

  static Dim Known(int64_t v) { return {v, {}}; }
  static Dim Symbolic(std::string s) { return {-1, std::move(s)}; }
  static Dim Unknown() { return {}; }
  bool known() const { return value >= 0; }
  bool operator==(const Dim&) const = default;
};

struct Shape {
  std::vector<Dim> dims;
  bool rank_known = true;  // false when even the rank is unknown

  static Shape FromConcrete(const std::vector<int64_t>& d);
  size_t rank() const { return dims.size(); }
  bool fully_known() const;
  // True when a concrete shape is compatible (same rank, equal known dims).
  bool Matches(const std::vector<int64_t>& concrete) const;
  // "[1,3,batch,?]"; "[*]" when the rank is unknown.
  std::string ToString() const;
};

// "[1,3,224,224]".
std::string shape_to_string(const std::vector<int64_t>& shape);
// Product of dims; -1 on overflow or a negative dim.
int64_t shape_numel(const std::vector<int64_t>& shape);

}  // namespace trinity
