// Einsum (general equations: implicit or explicit output, ellipsis broadcasting, repeated
// labels as diagonals) and Det.
//
// Einsum is evaluated directly: every label gets one size; each input gets, per label, the sum
// of its strides on the dims carrying that label (so "ii" walks the diagonal) and 0 where the
// label is absent or broadcast. Each output element then sums, over a precomputed table of the
// contracted labels' offsets, the product of the inputs. This is exact for every equation; it is
// not a tuned GEMM.
#include <algorithm>
#include <cmath>

#include "backends/cpu/ops_reduction_internal.h"

namespace trinity::reduction {
namespace {

constexpr int kNumLetters = 52;  // a-z then A-Z; ellipsis dims take ids from 52 up

int LetterId(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + (ch - 'A');
  return -1;
}

// A term as label ids; -2 marks the position of "...".
Result<std::vector<int>> ParseTerm(const KernelContext& ctx, const std::string& term) {
  std::vector<int> out;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term[i] == '.') {
      if (ellipsis || term.compare(i, 3, "...") != 0) {
        return ctx.Error("bad ellipsis in einsum term '" + term + "'");
      }
      ellipsis = true;
      out.push_back(-2);
      i += 2;
      continue;
    }
    const int id = LetterId(term[i]);
    if (id < 0) return ctx.Error(std::string("bad character '") + term[i] + "' in einsum equation");
    out.push_back(id);
  }
  return out;
}

struct EinsumPlan {
  std::vector<int64_t> out_shape;
  std::vector<int64_t> out_sizes;                 // per output label
  std::vector<std::vector<int64_t>> out_strides;  // [input][output label]
  std::vector<std::vector<int64_t>> sum_table;    // [input][contracted position] offsets
};

Result<EinsumPlan> PlanEinsum(const KernelContext& ctx, const std::vector<const Tensor*>& in) {
  std::string eq;
  for (char ch : ctx.node().attr_string("equation", "")) {
    if (ch != ' ') eq += ch;
  }
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::vector<int>> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    TRY_ASSIGN(auto t, ParseTerm(ctx, lhs.substr(start, comma - start)));
    terms.push_back(std::move(t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != in.size()) {
    return ctx.Error("equation '" + eq + "' has " + std::to_string(terms.size()) +
                     " terms but there are " + std::to_string(in.size()) + " inputs");
  }
  // Expand "..." into per-input label lists, right-aligned ellipsis dims.
  int64_t ell_rank = 0;
  std::vector<std::vector<int>> labels(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t letters =
        std::count_if(terms[i].begin(), terms[i].end(), [](int v) { return v >= 0; });
    const bool has_ell = letters != static_cast<int64_t>(terms[i].size());
    const int64_t rank = static_cast<int64_t>(in[i]->rank());
    const int64_t ell = rank - letters;
    if (ell < 0 || (!has_ell && ell != 0)) {
      return ctx.Error("einsum term " + std::to_string(i) + " does not match input shape " +
                       shape_to_string(in[i]->shape()));
    }
    ell_rank = std::max(ell_rank, ell);
    for (int v : terms[i]) {
      if (v >= 0)
        labels[i].push_back(v);
      else
        for (int64_t k = 0; k < ell; ++k) labels[i].push_back(-3 - static_cast<int>(ell - k));
    }
  }
  // Ellipsis dim k of an input with `ell` of them is global ellipsis dim ell_rank - ell + k.
  const int num_ids = kNumLetters + static_cast<int>(ell_rank);
  auto to_id = [&](int v) {
    return v >= 0 ? v : kNumLetters + static_cast<int>(ell_rank) + (v + 3);
  };
  std::vector<int64_t> size(static_cast<size_t>(num_ids), -1);
  std::vector<int> count(static_cast<size_t>(num_ids), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t p = 0; p < labels[i].size(); ++p) {
      const int id = to_id(labels[i][p]);
      const int64_t d = in[i]->dim(p);
      int64_t& s = size[static_cast<size_t>(id)];
      ++count[static_cast<size_t>(id)];
      const bool is_ell = id >= kNumLetters;
      if (s < 0 || (is_ell && s == 1))
        s = d;
      else if (d != s && !(is_ell && d == 1)) {
        return ctx.Error("einsum label size mismatch: " + std::to_string(d) + " vs " +
                         std::to_string(s) + " in input " + std::to_string(i));
      }
    }
  }
  // Output labels.
  std::vector<int> out_ids;
  if (arrow != std::string::npos) {
    TRY_ASSIGN(auto rhs, ParseTerm(ctx, eq.substr(arrow + 2)));
    for (int v : rhs) {
      if (v == -2) {
        for (int64_t k = 0; k < ell_rank; ++k) out_ids.push_back(kNumLetters + static_cast<int>(k));
        continue;
      }
      if (count[static_cast<size_t>(v)] == 0 ||
          std::find(out_ids.begin(), out_ids.end(), v) != out_ids.end()) {
        return ctx.Error("einsum output label repeated or not in the inputs: '" + eq + "'");
      }
      out_ids.push_back(v);
    }
  } else {
    for (int64_t k = 0; k < ell_rank; ++k) out_ids.push_back(kNumLetters + static_cast<int>(k));
    // Letters used once, in ASCII order (uppercase sorts before lowercase).
    for (int ch = 'A'; ch <= 'z'; ++ch) {
      const int id = LetterId(static_cast<char>(ch));
      if (id >= 0 && count[static_cast<size_t>(id)] == 1) out_ids.push_back(id);
    }
  }
  std::vector<int> sum_ids;
  for (int id = 0; id < num_ids; ++id) {
    if (count[static_cast<size_t>(id)] > 0 &&
        std::find(out_ids.begin(), out_ids.end(), id) == out_ids.end()) {
      sum_ids.push_back(id);
    }
  }
  // Per-input strides per label id (0 where absent or broadcast).
  std::vector<std::vector<int64_t>> strides(in.size(),
                                            std::vector<int64_t>(static_cast<size_t>(num_ids), 0));
  for (size_t i = 0; i < in.size(); ++i) {
    const std::vector<int64_t> cs = ContiguousStrides(in[i]->shape());
    for (size_t p = 0; p < labels[i].size(); ++p) {
      if (in[i]->dim(p) == 1) continue;
      strides[i][static_cast<size_t>(to_id(labels[i][p]))] += cs[p];
    }
  }
  EinsumPlan plan;
  for (int id : out_ids) plan.out_sizes.push_back(size[static_cast<size_t>(id)]);
  plan.out_shape = plan.out_sizes;
  plan.out_strides.resize(in.size());
  plan.sum_table.resize(in.size());
  int64_t total = 1;
  for (int id : sum_ids) total *= size[static_cast<size_t>(id)];
  for (size_t i = 0; i < in.size(); ++i) {
    for (int id : out_ids) plan.out_strides[i].push_back(strides[i][static_cast<size_t>(id)]);
    auto& tab = plan.sum_table[i];
    tab.resize(static_cast<size_t>(total));
    std::vector<int64_t> idx(sum_ids.size(), 0);
    int64_t off = 0;
    for (int64_t s = 0; s < total; ++s) {
      tab[static_cast<size_t>(s)] = off;
      for (size_t d = sum_ids.size(); d-- > 0;) {
        const size_t id = static_cast<size_t>(sum_ids[d]);
        off += strides[i][id];
        if (++idx[d] < size[id]) break;
        off -= strides[i][id] * size[id];
        idx[d] = 0;
      }
    }
  }
  return plan;
}

template <class T>
using einsum_acc_t = std::conditional_t<
    is_half_v<T>, float,
    std::conditional_t<std::is_floating_point_v<T>, T,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>>;

template <class T>
void RunEinsum(const EinsumPlan& p, const std::vector<const T*>& x, T* out, int64_t numel,
               ThreadPool& pool) {
  using A = einsum_acc_t<T>;
  const size_t ni = x.size(), rank = p.out_sizes.size();
  const int64_t terms = static_cast<int64_t>(p.sum_table[0].size());
  pool.ParallelFor(numel, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, terms)),
                   [&](int64_t b, int64_t e) {
                     // Multi-index and per-input base offsets of output element b.
                     std::vector<int64_t> idx(rank), base(ni, 0);
                     int64_t rem = b;
                     for (size_t d = rank; d-- > 0;) {
                       idx[d] = rem % p.out_sizes[d];
                       rem /= p.out_sizes[d];
                       for (size_t i = 0; i < ni; ++i) base[i] += idx[d] * p.out_strides[i][d];
                     }
                     for (int64_t o = b; o < e; ++o) {
                       A acc = 0;
                       if (ni == 2) {
                         const T* x0 = x[0] + base[0];
                         const T* x1 = x[1] + base[1];
                         const int64_t* t0 = p.sum_table[0].data();
                         const int64_t* t1 = p.sum_table[1].data();
                         for (int64_t s = 0; s < terms; ++s)
                           acc += A(to_compute(x0[t0[s]])) * A(to_compute(x1[t1[s]]));
                       } else {
                         for (int64_t s = 0; s < terms; ++s) {
                           A prod = 1;
                           for (size_t i = 0; i < ni; ++i)
                             prod *= A(to_compute(x[i][base[i] + p.sum_table[i][s]]));
                           acc += prod;
                         }
                       }
                       out[o] = from_compute<T>(static_cast<compute_t<T>>(acc));
                       for (size_t d = rank; d-- > 0;) {
                         for (size_t i = 0; i < ni; ++i) base[i] += p.out_strides[i][d];
                         if (++idx[d] < p.out_sizes[d]) break;
                         for (size_t i = 0; i < ni; ++i)
                           base[i] -= p.out_strides[i][d] * p.out_sizes[d];
                         idx[d] = 0;
                       }
                     }
                   });
}

Status EinsumKernel(KernelContext& ctx) {
  std::vector<const Tensor*> in;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    in.push_back(ctx.input(i));
    if (in.back()->dtype() != in[0]->dtype()) {
      return ctx.Error("inputs have different dtypes: " + in[0]->Describe() + " and " +
                       in.back()->Describe());
    }
  }
  if (in.empty()) return ctx.Error("needs at least one input");
  TRY_ASSIGN(EinsumPlan plan, PlanEinsum(ctx, in));
  Tensor y = Tensor::Empty(in[0]->dtype(), plan.out_shape);
  Status st = visit_numeric_dtype(in[0]->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(in[0]->dtype()) +
                             " is not supported");
    } else {
      std::vector<const T*> xs;
      for (const Tensor* t : in) xs.push_back(t->data<T>());
      if (y.numel() > 0) RunEinsum<T>(plan, xs, y.data<T>(), y.numel(), ctx.pool());
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport EinsumSupport(const SupportQuery& q) {
  for (size_t i = 0; i < q.input_types.size(); ++i) {
    OpSupport s = RequireInputDType(q, i,
                                    {DType::kF32, DType::kF64, DType::kF16, DType::kBF16,
                                     DType::kI32, DType::kI64, DType::kU32, DType::kU64});
    if (!s.supported) return s;
  }
  return OpSupport::Yes();
}

// ---- Det ---------------------------------------------------------------------------------------

// Determinant by LU decomposition with partial pivoting, in double.
double Determinant(std::vector<double>& a, int64_t m) {
  double det = 1.0;
  for (int64_t c = 0; c < m; ++c) {
    int64_t piv = c;
    for (int64_t r = c + 1; r < m; ++r) {
      if (std::abs(a[r * m + c]) > std::abs(a[piv * m + c])) piv = r;
    }
    if (a[piv * m + c] == 0.0) return 0.0;
    if (piv != c) {
      for (int64_t k = 0; k < m; ++k) std::swap(a[c * m + k], a[piv * m + k]);
      det = -det;
    }
    const double d = a[c * m + c];
    det *= d;
    for (int64_t r = c + 1; r < m; ++r) {
      const double f = a[r * m + c] / d;
      for (int64_t k = c + 1; k < m; ++k) a[r * m + k] -= f * a[c * m + k];
    }
  }
  return det;
}

Status DetKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input");
  const Tensor& x = *ctx.input(0);
  if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2)) {
    return ctx.Error("input must be [*, M, M], got " + x.Describe());
  }
  const int64_t m = x.dim(x.rank() - 1);
  std::vector<int64_t> out_shape(x.shape().begin(), x.shape().end() - 2);
  Tensor y = Tensor::Empty(x.dtype(), out_shape);
  Status st = visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      const T* xp = x.data<T>();
      T* yp = y.data<T>();
      std::vector<double> a(static_cast<size_t>(m * m));
      for (int64_t b = 0; b < y.numel(); ++b) {
        for (int64_t k = 0; k < m * m; ++k)
          a[k] = static_cast<double>(to_compute(xp[b * m * m + k]));
        yp[b] = from_compute<T>(static_cast<compute_t<T>>(Determinant(a, m)));
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace

void RegisterEinsumOps(KernelRegistry& r) {
  r.Register("Einsum", EinsumKernel, EinsumSupport);
  r.Register("Det", DetKernel,
             [](const SupportQuery& q) { return RequireInputDType(q, 0, kFloatTypes); });
}

}  // namespace trinity::reduction
