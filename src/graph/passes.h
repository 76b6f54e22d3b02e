// Graph optimisation passes. Each keeps the graph's observable outputs identical (within
// floating-point reassociation) and reports how much it changed.
#pragma once

#include <functional>
#include <vector>

#include "graph/graph.h"

namespace trinity {

// Evaluates one node on constant inputs (the session hands in the CPU kernels).
using NodeEvaluator =
    std::function<Result<std::vector<Tensor>>(const Node&, const std::vector<const Tensor*>&)>;

// Turns Constant nodes into initializers and evaluates every node whose inputs are all
// constant, replacing it by its outputs. Nodes with subgraphs and random ops are left alone,
// and so are results larger than `max_bytes` (folding would bloat memory, not save time).
// Returns the number of nodes removed.
Result<int> FoldConstants(Graph& graph, const NodeEvaluator& eval, size_t max_bytes = 64u << 20);

// Conv followed by BatchNormalization (inference) becomes one Conv with scaled weights and a
// bias. Returns the number of fusions.
int FuseConvBatchNorm(Graph& graph);

// LayerNorm spelled out over the last axis (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt,
// Div, then optionally Mul by a scale and Add of a bias of the row's width) becomes one
// LayerNormalization node. Returns the number of fusions.
int FuseLayerNorm(Graph& graph);

// Pad (constant zeros, spatial dims only) followed by Conv becomes the Conv with larger `pads`.
// Returns the number of fusions.
int FusePadIntoConv(Graph& graph);

// x * Clip(x + 3, 0, 6) / 6 (hard-swish spelled out op by op) becomes one HardSwish node that
// carries kSpelledHardSwishAttr = 1 (it then rounds as the spelled-out ops did). Returns the
// number of fusions.
inline constexpr char kSpelledHardSwishAttr[] = "trinity.spelled";
int FuseHardSwish(Graph& graph);

// Chains of at least two single-input f32 elementwise steps (Relu, LeakyRelu, Clip with constant
// bounds, HardSigmoid, HardSwish, and Add/Sub/Mul/Div/Max/Min with a constant scalar), each step's
// output read only by the next, become one node (domain kTrinityDomain, op kElementwiseChainOp)
// that makes one pass over memory. Its attributes: `steps` (ChainStep::Kind values), `a` and `b`
// (each step's constants). Every step rounds exactly as the op it replaced. Returns the number of
// chains made.
inline constexpr char kTrinityDomain[] = "trinity";
inline constexpr char kElementwiseChainOp[] = "ElementwiseChain";
struct ChainStep {
  enum Kind : int64_t {
    kRelu,
    kClip,
    kHardSigmoid,
    kHardSwish,
    kHardSwishSpelled,
    kAdd,
    kSub,
    kSubFrom,
    kMul,
    kDiv,
    kDivInto,
    kLeakyRelu,
    kMax,
    kMaxConstFirst,
    kMin,
    kMinConstFirst
  };
  Kind kind;
  // kClip: lo, hi; kHardSigmoid: alpha, beta; kLeakyRelu: alpha; arithmetic, Max, Min: the
  // constant in a (the *ConstFirst kinds take it as the op's first operand: NaN and -0/+0
  // handling follows operand order).
  float a, b;
};
int FuseElementwiseChains(Graph& graph);

// MatMul of a 2-D input by a constant 2-D matrix followed by Add of a constant 1-D bias becomes
// one Gemm. Returns the number of fusions.
int FuseMatMulAdd(Graph& graph);

// Conv followed by Relu, or by Clip with constant bounds, becomes one Conv that clamps its
// output (XNNPACK applies the bounds inside the convolution). The bounds travel as these
// Trinity-internal float attributes of the Conv node. Returns the number of fusions.
inline constexpr char kFusedMinAttr[] = "trinity.fused_min";
inline constexpr char kFusedMaxAttr[] = "trinity.fused_max";
int FuseConvActivation(Graph& graph);

// Rewrites f32 2-D convolution chains to run in NHWC, the layout XNNPACK computes in, so that
// a chain of convolutions, activations, elementwise ops, pooling, Concat, Pad and Resize pays
// for one layout transpose where it starts and one where it ends instead of two per Conv.
// Rewritten nodes carry kLayoutAttr = kLayoutNhwc; their inputs and outputs are NHWC values
// named "<value>@nhwc"; Transpose nodes convert at the chain's borders and constants that a
// rewritten node reads are stored permuted. Returns the number of nodes rewritten.
inline constexpr char kLayoutAttr[] = "trinity.layout";
inline constexpr char kLayoutNhwc[] = "NHWC";
int ConvertToNhwc(Graph& graph);

// Removes nodes whose outputs nobody reads. Returns the number removed.
int RemoveDeadNodes(Graph& graph);

}  // namespace trinity
