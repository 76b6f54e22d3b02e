// Session: input validation and its messages, outputs by name, several sessions on one Model,
// and thread-count independence of results. Models are built directly in the IR.
#include "trinity/session.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>
#include <thread>

#include "graph/graph.h"
#include "graph/graph_test_util.h"
#include "trinity/device.h"

namespace trinity {
namespace {

using namespace trinity::graph_test;  // NOLINT: the shared IR builders

Shape MakeShape(std::vector<Dim> dims) {
  Shape s;
  s.dims = std::move(dims);
  return s;
}

std::shared_ptr<const Model> ToModel(Graph g) {
  return std::make_shared<const Model>(std::make_shared<const Graph>(std::move(g)), "in-memory");
}

std::shared_ptr<const Model> AddMulModel() {
  Graph g;
  g.name = "add_mul";
  g.opsets[""] = 17;
  g.inputs = {{"x", DType::kF32, MakeShape({Dim::Symbolic("batch"), Dim::Known(3)})},
              {"y", DType::kF32, Shape::FromConcrete({1, 3})}};
  g.outputs = {{"sum", DType::kF32, MakeShape({Dim::Symbolic("batch"), Dim::Known(3)})},
               {"sq", DType::kF32, MakeShape({Dim::Symbolic("batch"), Dim::Known(3)})}};
  g.nodes.push_back(MakeNode("Add", {"x", "y"}, {"sum"}));
  g.nodes.push_back(MakeNode("Mul", {"sum", "sum"}, {"sq"}));
  return ToModel(std::move(g));
}

std::unique_ptr<Session> NewSession(std::shared_ptr<const Model> model, int threads = 1,
                                    bool optimize = true) {
  SessionOptions options;
  options.num_threads = threads;
  options.optimize = optimize;
  auto s = Session::Create(std::move(model), options);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---- Create ---------------------------------------------------------------------------------

TEST(Session, CreateRejectsUnknownDeviceNullModelAndNegativeThreads) {
  SessionOptions bad_device;
  bad_device.device = "npu7";
  auto s = Session::Create(AddMulModel(), bad_device);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Contains(s.status().message(), "npu7")) << s.status().message();
  EXPECT_TRUE(Contains(s.status().message(), "cpu")) << s.status().message();

  EXPECT_EQ(Session::Create(nullptr).status().code(), StatusCode::kInvalidArgument);

  SessionOptions negative;
  negative.num_threads = -1;
  EXPECT_EQ(Session::Create(AddMulModel(), negative).status().code(), StatusCode::kInvalidArgument);
}

TEST(Session, CreateNamesUnsupportedNodes) {
  Graph g;
  g.opsets[""] = 17;
  g.inputs = {{"x", DType::kF32, Shape::FromConcrete({2})}};
  g.outputs = {{"y", DType::kF32, Shape::FromConcrete({2})}};
  g.nodes.push_back(MakeNode("NoSuchOp", {"x"}, {"y"}));
  auto s = Session::Create(ToModel(std::move(g)));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Contains(s.status().message(), "NoSuchOp 'NoSuchOp_y'")) << s.status().message();
}

// ---- Run: input validation ------------------------------------------------------------------

TEST(Session, MissingInputNamesItAndItsType) {
  auto s = NewSession(AddMulModel());
  ASSERT_TRUE(s);
  auto r = s->Run({{"x", F32({1, 3}, {1, 2, 3})}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "missing input 'y' (f32[1,3])");
}

TEST(Session, UnknownInputListsModelInputs) {
  auto s = NewSession(AddMulModel());
  ASSERT_TRUE(s);
  auto r =
      s->Run({{"x", F32({1, 3}, {1, 2, 3})}, {"y", F32({1, 3}, {1, 2, 3})}, {"z", F32({1}, {0})}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "unknown input 'z' (model inputs: x, y)");
}

TEST(Session, WrongDtypeNamesExpectedAndActual) {
  auto s = NewSession(AddMulModel());
  ASSERT_TRUE(s);
  auto r = s->Run({{"x", Tensor::FromVector<int64_t>(DType::kI64, {2, 3}, {1, 2, 3, 4, 5, 6})},
                   {"y", F32({1, 3}, {1, 2, 3})}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "input 'x': expected f32[batch,3], got i64[2,3]");
}

TEST(Session, WrongShapeNamesExpectedAndActual) {
  auto s = NewSession(AddMulModel());
  ASSERT_TRUE(s);
  const Tensor x = F32({1, 3}, {1, 2, 3});
  auto known_dim = s->Run({{"x", x}, {"y", F32({2, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_FALSE(known_dim.ok());
  EXPECT_EQ(known_dim.status().message(), "input 'y': expected f32[1,3], got f32[2,3]");
  // A symbolic dim matches any size, but the rank and the known dims must still match.
  auto rank = s->Run({{"x", F32({1, 1, 3}, {1, 2, 3})}, {"y", x}});
  ASSERT_FALSE(rank.ok());
  EXPECT_EQ(rank.status().message(), "input 'x': expected f32[batch,3], got f32[1,1,3]");
  auto last_dim = s->Run({{"x", F32({3, 1}, {1, 2, 3})}, {"y", x}});
  ASSERT_FALSE(last_dim.ok());
  EXPECT_EQ(last_dim.status().message(), "input 'x': expected f32[batch,3], got f32[3,1]");
}

TEST(Session, SymbolicDimsAcceptAnySizeAndOutputsComeByName) {
  auto s = NewSession(AddMulModel());
  ASSERT_TRUE(s);
  const Tensor y = F32({1, 3}, {1, 1, 1});
  for (const int64_t batch : {1, 4}) {
    std::vector<float> xv(static_cast<size_t>(batch * 3));
    for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(i);
    auto r = s->Run({{"x", F32({batch, 3}, xv)}, {"y", y}});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->size(), 2u);
    ASSERT_TRUE(r->count("sum") && r->count("sq"));
    EXPECT_EQ(r->at("sum").shape(), (std::vector<int64_t>{batch, 3}));
    for (size_t i = 0; i < xv.size(); ++i) {
      EXPECT_EQ(r->at("sum").data<float>()[i], xv[i] + 1);  // small integers: exact
      EXPECT_EQ(r->at("sq").data<float>()[i], (xv[i] + 1) * (xv[i] + 1));
    }
  }
}

TEST(Session, OutputsNeverAliasTheModelsWeights) {
  // "w" is both an initializer and a graph output, and "r" = Relu(w) is folded into a
  // constant at load time. Callers own what Run returns and may write to it; that must not
  // change the next run's results, nor the weights other sessions of the Model share (nor
  // fault on weights mapped read-only from the model file).
  Graph g;
  g.opsets[""] = 17;
  g.inputs = {{"x", DType::kF32, Shape::FromConcrete({2})}};
  g.outputs = {{"w", DType::kF32, Shape::FromConcrete({2})},
               {"r", DType::kF32, Shape::FromConcrete({2})},
               {"y", DType::kF32, Shape::FromConcrete({2})}};
  g.initializers["w"] = F32({2}, {-1, 2});
  g.nodes.push_back(MakeNode("Relu", {"w"}, {"r"}));
  g.nodes.push_back(MakeNode("Add", {"x", "w"}, {"y"}));
  auto model = ToModel(std::move(g));
  auto s1 = NewSession(model), s2 = NewSession(model);
  ASSERT_TRUE(s1 && s2);
  const Tensor x = F32({2}, {10, 10});
  auto first = s1->Run({{"x", x}});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  for (const char* name : {"w", "r", "y"}) first->at(name).data<float>()[0] = 99;
  for (Session* s : {s1.get(), s2.get()}) {
    auto again = s->Run({{"x", x}});
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(Values(again->at("w")), (std::vector<float>{-1, 2}));
    EXPECT_EQ(Values(again->at("r")), (std::vector<float>{0, 2}));
    EXPECT_EQ(Values(again->at("y")), (std::vector<float>{9, 12}));
  }
  EXPECT_EQ(Values(model->graph().initializers.at("w")), (std::vector<float>{-1, 2}));
}

// ---- Sharing and threads --------------------------------------------------------------------

TEST(Session, TwoSessionsShareOneModelAndRunConcurrently) {
  auto model = AddMulModel();
  auto s1 = NewSession(model, 1);
  auto s2 = NewSession(model, 2);
  ASSERT_TRUE(s1 && s2);
  EXPECT_EQ(&s1->model(), &s2->model());
  // The sessions keep the model alive after the caller lets go of it.
  model.reset();

  std::mt19937 rng(5);
  const Tensor x1 = RandomF32({64, 3}, rng), x2 = RandomF32({32, 3}, rng);
  const Tensor y = RandomF32({1, 3}, rng);
  // Reference results, one session at a time.
  auto ref1 = s1->Run({{"x", x1}, {"y", y}});
  auto ref2 = s2->Run({{"x", x2}, {"y", y}});
  ASSERT_TRUE(ref1.ok() && ref2.ok());

  // One thread per session, many runs each: results must not leak between sessions.
  std::atomic<int> mismatches{0};
  auto loop = [&](Session* s, const Tensor& x, const std::map<std::string, Tensor>& ref) {
    for (int i = 0; i < 50; ++i) {
      auto r = s->Run({{"x", x}, {"y", y}});
      if (!r.ok() || Values(r->at("sq")) != Values(ref.at("sq"))) ++mismatches;
    }
  };
  std::thread t1(loop, s1.get(), std::cref(x1), std::cref(*ref1));
  std::thread t2(loop, s2.get(), std::cref(x2), std::cref(*ref2));
  t1.join();
  t2.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// x f32[1,8,16,16] -> Conv(16 filters, 3x3, pad 1) + BN -> Relu -> y; a f32[32,64] -> MatMul by
// a constant [64,48] + bias -> m. Big enough that two threads really split the work.
std::shared_ptr<const Model> ConvMatMulModel(std::mt19937& rng) {
  Graph g;
  g.opsets[""] = 17;
  g.inputs = {{"x", DType::kF32, Shape::FromConcrete({1, 8, 16, 16})},
              {"a", DType::kF32, Shape::FromConcrete({32, 64})}};
  g.outputs = {{"y", DType::kF32, Shape::FromConcrete({1, 16, 16, 16})},
               {"m", DType::kF32, Shape::FromConcrete({32, 48})}};
  g.initializers["w"] = RandomF32({16, 8, 3, 3}, rng);
  g.initializers["b"] = RandomF32({16}, rng);
  g.initializers["scale"] = RandomF32({16}, rng);
  g.initializers["shift"] = RandomF32({16}, rng);
  g.initializers["mean"] = RandomF32({16}, rng);
  Tensor var = RandomF32({16}, rng);
  for (int64_t i = 0; i < var.numel(); ++i)
    var.data<float>()[i] = std::fabs(var.data<float>()[i]) + 0.1f;
  g.initializers["var"] = var;
  g.initializers["wm"] = RandomF32({64, 48}, rng);
  g.initializers["bm"] = RandomF32({48}, rng);
  Attribute pads;
  pads.kind = Attribute::Kind::kInts;
  pads.ints = {1, 1, 1, 1};
  g.nodes.push_back(MakeNode("Conv", {"x", "w", "b"}, {"c"}, {{"pads", pads}}));
  g.nodes.push_back(MakeNode("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"bn"}));
  g.nodes.push_back(MakeNode("Relu", {"bn"}, {"y"}));
  g.nodes.push_back(MakeNode("MatMul", {"a", "wm"}, {"mm"}));
  g.nodes.push_back(MakeNode("Add", {"mm", "bm"}, {"m"}));
  return ToModel(std::move(g));
}

TEST(Session, OneAndTwoThreadsGiveEqualResults) {
  std::mt19937 rng(2024);
  auto model = ConvMatMulModel(rng);
  const Tensor x = RandomF32({1, 8, 16, 16}, rng), a = RandomF32({32, 64}, rng);
  auto one = NewSession(model, 1), two = NewSession(model, 2);
  ASSERT_TRUE(one && two);
  auto r1 = one->Run({{"x", x}, {"a", a}});
  auto r2 = two->Run({{"x", x}, {"a", a}});
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  for (const char* name : {"y", "m"}) {
    const auto v1 = Values(r1->at(name)), v2 = Values(r2->at(name));
    ASSERT_EQ(v1.size(), v2.size());
    // Threads split the output, not the sums, so results should be identical; 1e-6 relative
    // allows a kernel to pick a different vector path for a partial tile.
    for (size_t i = 0; i < v1.size(); ++i)
      ASSERT_LE(std::fabs(v1[i] - v2[i]), 1e-6f * std::max(1.f, std::fabs(v1[i])))
          << name << " at " << i;
  }
}

TEST(Session, OptimizationFusesNodesAndKeepsResults) {
  std::mt19937 rng(99);
  auto model = ConvMatMulModel(rng);
  const Tensor x = RandomF32({1, 8, 16, 16}, rng), a = RandomF32({32, 64}, rng);
  auto plain = NewSession(model, 1, /*optimize=*/false), fused = NewSession(model, 1, true);
  ASSERT_TRUE(plain && fused);
  EXPECT_EQ(plain->num_nodes(), 5u);
  // Conv(+BN) and Relu (in NHWC, between two layout transposes), Gemm(MatMul+Add).
  EXPECT_EQ(fused->num_nodes(), 5u);
  // The model's own graph is untouched by the session's optimisation.
  EXPECT_EQ(model->graph().nodes.size(), 5u);
  auto r1 = plain->Run({{"x", x}, {"a", a}});
  auto r2 = fused->Run({{"x", x}, {"a", a}});
  ASSERT_TRUE(r1.ok() && r2.ok());
  for (const char* name : {"y", "m"}) {
    const auto v1 = Values(r1->at(name)), v2 = Values(r2->at(name));
    ASSERT_EQ(v1.size(), v2.size());
    // Fusion reorders float rounding only (72-term sums of values in [-1, 1]).
    for (size_t i = 0; i < v1.size(); ++i)
      ASSERT_LE(std::fabs(v1[i] - v2[i]), 1e-5f * std::max(1.f, std::fabs(v1[i])))
          << name << " at " << i;
  }
}

// If whose branches compute with Constant nodes and outer-scope constants: the session folds
// those inside the bodies (on its own copy) and the results stay those of the plain graph.
TEST(Session, FoldsConstantsInsideSubgraphsWithoutTouchingTheModel) {
  auto branch = [](bool then_branch) {
    auto g = std::make_shared<Graph>();
    g->name = then_branch ? "then" : "else";
    g->opsets[""] = 17;
    g->outputs = {{"y", DType::kF32, Shape::FromConcrete({2, 3})}};
    Attribute value;
    value.kind = Attribute::Kind::kTensor;
    value.t = F32({3}, {1.f, 2.f, 3.f});
    g->nodes.push_back(MakeNode("Constant", {}, {"c"}, {{"value", value}}));
    // axes and w live in the outer graph: constant chains cross the body boundary.
    g->nodes.push_back(MakeNode("Unsqueeze", {"c", "axes"}, {"cu"}));
    g->nodes.push_back(MakeNode(then_branch ? "Mul" : "Add", {"cu", "w"}, {"k"}));
    g->nodes.push_back(MakeNode("Mul", {"x", "k"}, {"y"}));
    return g;
  };
  Graph g;
  g.name = "if_consts";
  g.opsets[""] = 17;
  g.inputs = {{"x", DType::kF32, Shape::FromConcrete({2, 3})},
              {"cond", DType::kBool, Shape::FromConcrete({})}};
  g.outputs = {{"y", DType::kF32, Shape::FromConcrete({2, 3})}};
  g.initializers["axes"] = Tensor::FromVector<int64_t>(DType::kI64, {1}, {0});
  g.initializers["w"] = F32({1, 3}, {0.5f, -1.f, 2.f});
  Attribute then_attr, else_attr;
  then_attr.kind = else_attr.kind = Attribute::Kind::kGraph;
  then_attr.g = branch(true);
  else_attr.g = branch(false);
  g.nodes.push_back(
      MakeNode("If", {"cond"}, {"y"}, {{"then_branch", then_attr}, {"else_branch", else_attr}}));
  auto model = ToModel(std::move(g));
  auto plain = NewSession(model, 1, /*optimize=*/false), folded = NewSession(model, 1, true);
  ASSERT_TRUE(plain && folded);
  const Tensor x = F32({2, 3}, {1, 2, 3, -1, -2, -3});
  for (bool c : {true, false}) {
    Tensor cond = Tensor::Empty(DType::kBool, {});
    *cond.data<bool>() = c;
    auto r1 = plain->Run({{"x", x}, {"cond", cond}});
    auto r2 = folded->Run({{"x", x}, {"cond", cond}});
    ASSERT_TRUE(r1.ok() && r2.ok()) << r1.status().ToString() << r2.status().ToString();
    EXPECT_EQ(Values(r1->at("y")), Values(r2->at("y"))) << "cond " << c;
  }
  // The model's bodies still hold their Constant nodes: the session optimised copies.
  EXPECT_EQ(model->graph().nodes[0].attr_graph("then_branch")->nodes.size(), 4u);
}

// LSTM caches its transposed weights when W and R are model constants. The cached path must
// give the results of the uncached one (W and R fed as inputs), on every run.
TEST(Session, LstmWithConstantWeightsMatchesWeightsFedAsInputs) {
  std::mt19937 rng(21);
  const int64_t seq = 3, batch = 2, in = 5, hidden = 4;
  const Tensor w = RandomF32({1, 4 * hidden, in}, rng), r = RandomF32({1, 4 * hidden, hidden}, rng);
  auto make = [&](bool constant_weights) {
    Graph g;
    g.name = constant_weights ? "lstm_const" : "lstm_inputs";
    g.opsets[""] = 17;
    g.inputs = {{"x", DType::kF32, Shape::FromConcrete({seq, batch, in})}};
    if (constant_weights) {
      g.initializers["w"] = w;
      g.initializers["r"] = r;
    } else {
      g.inputs.push_back({"w", DType::kF32, Shape::FromConcrete(w.shape())});
      g.inputs.push_back({"r", DType::kF32, Shape::FromConcrete(r.shape())});
    }
    g.outputs = {{"y", DType::kF32, Shape::FromConcrete({seq, 1, batch, hidden})}};
    Attribute hs;
    hs.kind = Attribute::Kind::kInt;
    hs.i = hidden;
    g.nodes.push_back(MakeNode("LSTM", {"x", "w", "r"}, {"y"}, {{"hidden_size", hs}}));
    return ToModel(std::move(g));
  };
  auto cached = NewSession(make(true)), fed = NewSession(make(false));
  ASSERT_TRUE(cached && fed);
  for (int run = 0; run < 3; ++run) {
    const Tensor x = RandomF32({seq, batch, in}, rng);
    auto a = cached->Run({{"x", x}});
    auto b = fed->Run({{"x", x}, {"w", w}, {"r", r}});
    ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString() << b.status().ToString();
    EXPECT_EQ(Values(a->at("y")), Values(b->at("y"))) << "run " << run;
  }
}

}  // namespace
}  // namespace trinity
