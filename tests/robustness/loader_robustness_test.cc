// Robustness of the model loader, the runtime and the .npy / TensorProto parsers against
// damaged and hostile input. Every case must end in either a clean error whose message names
// the problem or a correct result: never a crash, a sanitizer report, a hang or a huge
// allocation. The suite runs under ASan+UBSan in CI (ctest label "asan").
//
// Models are built here with the ONNX protobuf API so each case is small and self-explaining.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "import/onnx/onnx_importer.h"
#include "trinity/trinity.h"

// A hostile model may ask for a tensor of hundreds of GiB. Outside sanitizers the allocation
// fails and Tensor::Create reports it; ASan would instead abort the process unless it is told
// to return null like the real allocator. Options given in ASAN_OPTIONS still take precedence.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace trinity {
namespace {

constexpr int64_t kHuge = int64_t{1} << 40;
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

// ---------------------------------------------------------------------------------------------
// Model building helpers.

void SetType(onnx::ValueInfoProto* v, int elem_type, const std::vector<int64_t>& dims,
             bool with_shape = true) {
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  if (!with_shape) return;
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d >= 0)
      dim->set_dim_value(d);
    else
      dim->set_dim_param("N");  // -1 stands for a symbolic dim in these helpers
  }
}

void AddInput(onnx::GraphProto* g, const std::string& name, int elem_type,
              const std::vector<int64_t>& dims) {
  auto* v = g->add_input();
  v->set_name(name);
  SetType(v, elem_type, dims);
}

// Outputs carry a dtype but no shape: the runtime computes shapes.
void AddOutput(onnx::GraphProto* g, const std::string& name,
               int elem_type = onnx::TensorProto::FLOAT) {
  auto* v = g->add_output();
  v->set_name(name);
  SetType(v, elem_type, {}, /*with_shape=*/false);
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op,
                         const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, const std::string& name = "") {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name.empty() ? op + "_" + std::to_string(g->node_size()) : name);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

void AttrInt(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void AttrInts(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

onnx::GraphProto* AttrGraph(onnx::NodeProto* n, const std::string& name) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  auto* g = a->mutable_g();
  g->set_name(name);
  return g;
}

onnx::TensorProto* AddInitF32(onnx::GraphProto* g, const std::string& name,
                              const std::vector<int64_t>& dims, const std::vector<float>& values) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(
      std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

onnx::TensorProto* AddInitI64(onnx::GraphProto* g, const std::string& name,
                              const std::vector<int64_t>& dims,
                              const std::vector<int64_t>& values) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);
  return t;
}

onnx::ModelProto NewModel(int opset = 13) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("trinity-robustness-test");
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  m.mutable_graph()->set_name("main");
  return m;
}

std::string Serialize(const onnx::ModelProto& m) {
  std::string s;
  EXPECT_TRUE(m.SerializeToString(&s));
  return s;
}

// The model the truncation and mutation tests damage: Conv -> Relu -> Reshape -> Gemm ->
// Gather -> If (both branches read the outer value 'gathered').
//   x: f32[1,1,4,4], c: bool[] -> y: f32[1,2]
std::string BuildValidModel() {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, 4, 4});
  AddInput(g, "c", onnx::TensorProto::BOOL, {});
  std::vector<float> w(2 * 9), b{0.5f, -0.25f}, gw(4 * 32), gb{1, 2, 3, 4};
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.1f * static_cast<float>(i % 5) - 0.2f;
  for (size_t i = 0; i < gw.size(); ++i) gw[i] = 0.01f * static_cast<float>(i % 7);
  AddInitF32(g, "w", {2, 1, 3, 3}, w);
  AddInitF32(g, "b", {2}, b);
  AddInitI64(g, "flat_shape", {2}, {1, 32});
  AddInitF32(g, "gw", {4, 32}, gw);
  AddInitF32(g, "gb", {4}, gb);
  AddInitI64(g, "idx", {2}, {0, 2});
  auto* conv = AddNode(g, "Conv", {"x", "w", "b"}, {"conv"}, "conv1");
  AttrInts(conv, "pads", {1, 1, 1, 1});
  AttrInts(conv, "kernel_shape", {3, 3});
  AddNode(g, "Relu", {"conv"}, {"relu"}, "relu1");
  AddNode(g, "Reshape", {"relu", "flat_shape"}, {"flat"}, "flatten");
  auto* gemm = AddNode(g, "Gemm", {"flat", "gw", "gb"}, {"fc"}, "fc");
  AttrInt(gemm, "transB", 1);
  auto* gather = AddNode(g, "Gather", {"fc", "idx"}, {"gathered"}, "pick");
  AttrInt(gather, "axis", 1);
  auto* iff = AddNode(g, "If", {"c"}, {"y"}, "branch");
  auto* then_g = AttrGraph(iff, "then_branch");
  AddNode(then_g, "Relu", {"gathered"}, {"then_y"});
  AddOutput(then_g, "then_y");
  auto* else_g = AttrGraph(iff, "else_branch");
  AddNode(else_g, "Neg", {"gathered"}, {"else_y"});
  AddOutput(else_g, "else_y");
  AddOutput(g, "y");
  return Serialize(m);
}

// ---------------------------------------------------------------------------------------------
// Running helpers.

// Zero tensors for every declared input (symbolic dims become 1). Empty when an input cannot
// be made small (unknown dtype or rank, or more than `max_elems` elements).
std::optional<std::map<std::string, Tensor>> ZeroInputs(const Model& model,
                                                        int64_t max_elems = 1 << 16) {
  std::map<std::string, Tensor> in;
  for (const auto& info : model.inputs()) {
    if (info.dtype == DType::kUndefined || !info.shape.rank_known) return std::nullopt;
    std::vector<int64_t> dims;
    for (const auto& d : info.shape.dims) dims.push_back(d.known() ? d.value : 1);
    const int64_t n = shape_numel(dims);
    if (n < 0 || n > max_elems) return std::nullopt;
    auto t = Tensor::Create(info.dtype, dims);
    if (!t.ok()) return std::nullopt;
    in[info.name] = std::move(t).value();
  }
  return in;
}

// What happened to one (possibly damaged) model. Each stage either succeeded or failed with
// a non-empty message; anything else fails the test from inside.
struct Outcome {
  Status load, create, run;
  bool ran = false;
};

Outcome Exercise(const std::string& bytes, bool run = true) {
  Outcome o;
  auto model = Model::LoadFromMemory(bytes.data(), bytes.size());
  if (!model.ok()) {
    o.load = model.status();
    EXPECT_FALSE(o.load.message().empty()) << "load error without a message";
    return o;
  }
  auto session = Session::Create(*model, {.device = "cpu", .num_threads = 1});
  if (!session.ok()) {
    o.create = session.status();
    EXPECT_FALSE(o.create.message().empty()) << "Session::Create error without a message";
    return o;
  }
  if (!run) return o;
  auto inputs = ZeroInputs(**model);
  if (!inputs) return o;
  auto out = (*session)->Run(*inputs);
  o.ran = true;
  if (!out.ok()) {
    o.run = out.status();
    EXPECT_FALSE(o.run.message().empty()) << "Run error without a message";
  }
  return o;
}

// Loads, creates a session and runs `m` with the given inputs; returns the first error or
// the outputs.
Result<std::map<std::string, Tensor>> LoadAndRun(const onnx::ModelProto& m,
                                                 const std::map<std::string, Tensor>& inputs) {
  const std::string bytes = Serialize(m);
  TRY_ASSIGN(auto model, Model::LoadFromMemory(bytes.data(), bytes.size()));
  TRY_ASSIGN(auto session, Session::Create(model, {.device = "cpu", .num_threads = 1}));
  return session->Run(inputs);
}

Status LoadStatus(const onnx::ModelProto& m) {
  const std::string bytes = Serialize(m);
  return Model::LoadFromMemory(bytes.data(), bytes.size()).status();
}

// gtest matcher-free substring check with a readable failure.
#define EXPECT_ERROR_MENTIONS(status, needle)                                     \
  do {                                                                            \
    const ::trinity::Status _s = (status); /* copy: may be a temporary's */       \
    EXPECT_FALSE(_s.ok()) << "expected an error mentioning '" << (needle) << "'"; \
    EXPECT_NE(_s.message().find(needle), std::string::npos) << _s.ToString();     \
  } while (0)

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("trinity_robustness_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& bytes) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

// ---------------------------------------------------------------------------------------------
// The valid model itself works (otherwise the damage tests below prove little).

TEST(LoaderRobustness, ValidModelRuns) {
  const std::string bytes = BuildValidModel();
  auto model = Model::LoadFromMemory(bytes.data(), bytes.size());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto session = Session::Create(*model, {.device = "cpu", .num_threads = 1});
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  auto inputs = ZeroInputs(**model);
  ASSERT_TRUE(inputs.has_value());
  for (bool c : {false, true}) {
    (*inputs)["c"].data<bool>()[0] = c;
    auto out = (*session)->Run(*inputs);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    const Tensor& y = out->at("y");
    ASSERT_EQ(y.shape(), (std::vector<int64_t>{1, 2}));
    // With x = 0 the conv output is relu(bias) per channel, so fc is computable by hand.
    std::vector<float> relu_b = {0.5f, 0.0f};
    float fc[4];
    for (int o = 0; o < 4; ++o) {
      fc[o] = static_cast<float>(o + 1);
      for (int k = 0; k < 32; ++k)
        fc[o] += relu_b[k / 16] * 0.01f * static_cast<float>((o * 32 + k) % 7);
    }
    const float sign = c ? 1.0f : -1.0f;
    EXPECT_NEAR(y.data<float>()[0], sign * fc[0], 1e-4);
    EXPECT_NEAR(y.data<float>()[1], sign * fc[2], 1e-4);
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Truncation at every length.

TEST(LoaderRobustness, EveryTruncationFailsCleanlyOrRuns) {
  const std::string bytes = BuildValidModel();
  int failed = 0, loaded = 0;
  for (size_t len = 0; len < bytes.size(); ++len) {
    SCOPED_TRACE("truncated to " + std::to_string(len) + " of " + std::to_string(bytes.size()) +
                 " bytes");
    Outcome o = Exercise(bytes.substr(0, len));
    if (!o.load.ok()) {
      ++failed;
      const std::string& msg = o.load.message();
      // The message says what is wrong: damaged bytes, or the element that is missing/bad.
      const bool explains =
          msg.find("truncated") != std::string::npos || msg.find("corrupt") != std::string::npos ||
          msg.find("empty") != std::string::npos || msg.find('\'') != std::string::npos ||
          msg.find("version") != std::string::npos || msg.find("no graph") != std::string::npos;
      EXPECT_TRUE(explains) << o.load.ToString();
    } else {
      ++loaded;
    }
  }
  // Most prefixes cut a message in half, so protobuf itself must reject them.
  EXPECT_GT(failed, static_cast<int>(bytes.size()) / 2);
  std::printf("truncation: %zu lengths, %d rejected at load, %d loaded\n", bytes.size(), failed,
              loaded);
}

// ---------------------------------------------------------------------------------------------
// (b) Seeded random damage.

std::string Mutate(const std::string& in, std::mt19937& rng) {
  std::string s = in;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t pos = rng() % s.size();
    switch (rng() % 6) {
      case 0:  // one bit
        s[pos] = static_cast<char>(s[pos] ^ (1 << (rng() % 8)));
        break;
      case 1:  // a random byte
        s[pos] = static_cast<char>(rng() & 0xff);
        break;
      case 2:  // an "interesting" byte: varint continuation, sign bits, zero
        s[pos] = static_cast<char>(std::array<uint8_t, 5>{0x00, 0x7f, 0x80, 0xff, 0x01}[rng() % 5]);
        break;
      case 3:  // delete a byte (shifts every following field)
        s.erase(pos, 1);
        break;
      case 4:  // insert a byte
        s.insert(pos, 1, static_cast<char>(rng() & 0xff));
        break;
      case 5: {  // duplicate a short run (repeated fields, length prefixes out of step)
        const size_t len = std::min<size_t>(1 + rng() % 8, s.size() - pos);
        s.insert(pos, s.substr(pos, len));
        break;
      }
    }
  }
  return s;
}

TEST(LoaderRobustness, RandomMutationsNeverCrash) {
  const std::string bytes = BuildValidModel();
  std::mt19937 rng(20240601);  // fixed seed: a failure reproduces exactly
  constexpr int kIterations = 3000;
  int load_fail = 0, create_fail = 0, run_fail = 0, run_ok = 0;
  for (int i = 0; i < kIterations; ++i) {
    const std::string damaged = Mutate(bytes, rng);
    SCOPED_TRACE("mutation #" + std::to_string(i));
    Outcome o = Exercise(damaged);
    if (!o.load.ok())
      ++load_fail;
    else if (!o.create.ok())
      ++create_fail;
    else if (!o.run.ok())
      ++run_fail;
    else if (o.ran)
      ++run_ok;
  }
  std::printf("mutations: %d; load failed %d, create failed %d, run failed %d, ran %d\n",
              kIterations, load_fail, create_fail, run_fail, run_ok);
}

// Damage aimed at the initializers' contents (not the protobuf framing): the model still
// parses, so kernels see forged shapes and indices.
TEST(LoaderRobustness, RandomWeightAndAttributeValues) {
  std::mt19937 rng(7);
  const int64_t interesting[] = {0, 1, -1, 2, 31, 32, 33, 1 << 20, kHuge, kI64Max, kI64Min, -kHuge};
  for (int i = 0; i < 400; ++i) {
    onnx::ModelProto m;
    ASSERT_TRUE(m.ParseFromString(BuildValidModel()));
    auto* g = m.mutable_graph();
    auto pick = [&] { return interesting[rng() % std::size(interesting)]; };
    // flat_shape, idx (int64 initializers) and the Conv/Gemm/Gather attributes.
    for (auto& init : *g->mutable_initializer())
      if (init.data_type() == onnx::TensorProto::INT64 && rng() % 2)
        init.set_int64_data(static_cast<int>(rng() % init.int64_data_size()), pick());
    for (auto& node : *g->mutable_node())
      for (auto& a : *node.mutable_attribute()) {
        if (rng() % 3) continue;
        if (a.type() == onnx::AttributeProto::INT) a.set_i(pick());
        if (a.type() == onnx::AttributeProto::INTS && a.ints_size())
          a.set_ints(static_cast<int>(rng() % a.ints_size()),
                     pick() % 64);  // keep conv output bounded
      }
    SCOPED_TRACE("value mutation #" + std::to_string(i));
    Exercise(Serialize(m));
  }
}

// ---------------------------------------------------------------------------------------------
// (c) Hand-made malicious models.

TEST(MaliciousModel, AbsurdInitializerDims) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  auto* t = g->add_initializer();
  t->set_name("big");
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(kHuge);
  t->add_dims(kHuge);
  AddNode(g, "Identity", {"big"}, {"y"});
  AddOutput(g, "y");
  Status st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'big'");
  EXPECT_ERROR_MENTIONS(st, "dims");

  // Large but not overflowing, with no data behind it: must be rejected without allocating
  // 8 GiB first (the data check comes before the allocation).
  t->clear_dims();
  t->add_dims(int64_t{1} << 31);
  st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'big'");
  EXPECT_ERROR_MENTIONS(st, "values, expected");
}

TEST(MaliciousModel, AbsurdGraphInputDims) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {kHuge, kHuge});
  AddNode(g, "Relu", {"x"}, {"y"});
  AddOutput(g, "y");
  Status st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'x'");
  EXPECT_ERROR_MENTIONS(st, "absurd");
}

TEST(MaliciousModel, RawDataSizeMismatch) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInitF32(g, "w", {4, 4}, {1, 2, 3});  // 12 bytes for 64
  AddNode(g, "Identity", {"w"}, {"y"});
  AddOutput(g, "y");
  Status st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'w'");
  EXPECT_ERROR_MENTIONS(st, "raw data");
}

TEST(MaliciousModel, NegativeDims) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInitF32(g, "w", {-2, -2}, {1, 2, 3, 4});
  AddNode(g, "Identity", {"w"}, {"y"});
  AddOutput(g, "y");
  EXPECT_ERROR_MENTIONS(LoadStatus(m), "'w'");

  onnx::ModelProto m2 = NewModel();
  auto* g2 = m2.mutable_graph();
  AddInput(g2, "x", onnx::TensorProto::FLOAT, {});
  g2->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->add_dim()
      ->set_dim_value(-3);
  AddNode(g2, "Relu", {"x"}, {"y"});
  AddOutput(g2, "y");
  Status st = LoadStatus(m2);
  EXPECT_ERROR_MENTIONS(st, "'x'");
  EXPECT_ERROR_MENTIONS(st, "negative");
}

TEST(MaliciousModel, UndefinedValue) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  AddNode(g, "Add", {"x", "ghost"}, {"y"}, "adder");
  AddOutput(g, "y");
  Status st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'ghost'");
  EXPECT_ERROR_MENTIONS(st, "adder");
}

TEST(MaliciousModel, Cycle) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  AddNode(g, "Add", {"x", "b"}, {"a"}, "n1");
  AddNode(g, "Relu", {"a"}, {"b"}, "n2");
  AddNode(g, "Identity", {"b"}, {"y"}, "n3");
  AddOutput(g, "y");
  EXPECT_ERROR_MENTIONS(LoadStatus(m), "cycle");

  // A node reading its own output.
  onnx::ModelProto m2 = NewModel();
  auto* g2 = m2.mutable_graph();
  AddNode(g2, "Relu", {"y"}, {"y"}, "selfish");
  AddOutput(g2, "y");
  EXPECT_ERROR_MENTIONS(LoadStatus(m2), "cycle");
}

TEST(MaliciousModel, UnknownOpFailsAtSessionCreate) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  AddNode(g, "FrobnicateTensor", {"x"}, {"y"}, "frob");
  AddOutput(g, "y");
  const std::string bytes = Serialize(m);
  auto model = Model::LoadFromMemory(bytes.data(), bytes.size());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto session = Session::Create(*model, {.device = "cpu", .num_threads = 1});
  ASSERT_FALSE(session.ok());
  EXPECT_ERROR_MENTIONS(session.status(), "FrobnicateTensor");
}

TEST(MaliciousModel, UnsupportedOpsetAndIrVersion) {
  onnx::ModelProto m = NewModel(/*opset=*/99);
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  AddNode(g, "Relu", {"x"}, {"y"});
  AddOutput(g, "y");
  EXPECT_ERROR_MENTIONS(LoadStatus(m), "opset 99");

  m.mutable_opset_import(0)->set_version(13);
  m.set_ir_version(99);
  EXPECT_ERROR_MENTIONS(LoadStatus(m), "IR version 99");

  // An imported custom domain is allowed, but a node in a domain nobody imports is not.
  m.set_ir_version(8);
  m.mutable_graph()->mutable_node(0)->set_domain("com.evil");
  EXPECT_ERROR_MENTIONS(LoadStatus(m), "com.evil");
}

onnx::ModelProto NestedIfModel(int depth) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "c", onnx::TensorProto::BOOL, {});
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  onnx::GraphProto* cur = g;
  std::string out = "y";
  for (int d = 0; d < depth; ++d) {
    auto* n = AddNode(cur, "If", {"c"}, {out}, "if_" + std::to_string(d));
    AddOutput(cur, out);
    auto* else_g = AttrGraph(n, "else_branch");
    AddNode(else_g, "Identity", {"x"}, {"e" + std::to_string(d)});
    AddOutput(else_g, "e" + std::to_string(d));
    cur = AttrGraph(n, "then_branch");
    out = "t" + std::to_string(d);
  }
  AddNode(cur, "Neg", {"x"}, {out});
  AddOutput(cur, out);
  return m;
}

TEST(MaliciousModel, DeeplyNestedSubgraphs) {
  // 100 levels: past protobuf's recursion limit, rejected while parsing.
  Status st = LoadStatus(NestedIfModel(100));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nested"), std::string::npos) << st.ToString();
  // A few levels are fine and run (c = false picks the else branch at the top).
  const std::string bytes = Serialize(NestedIfModel(5));
  Outcome o = Exercise(bytes);
  EXPECT_TRUE(o.load.ok()) << o.load.ToString();
  EXPECT_TRUE(o.create.ok()) << o.create.ToString();
  EXPECT_TRUE(o.run.ok()) << o.run.ToString();
  // Every depth in between gives a clean answer too (the importer's own limit is 32).
  for (int depth : {20, 30, 31, 32, 33, 34, 40}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    Exercise(Serialize(NestedIfModel(depth)));
  }
}

TEST(MaliciousModel, StringInitializer) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  auto* t = g->add_initializer();
  t->set_name("words");
  t->set_data_type(onnx::TensorProto::STRING);
  t->add_dims(2);
  t->add_string_data("hello");
  t->add_string_data("world");
  AddNode(g, "Identity", {"words"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::STRING);
  Status st = LoadStatus(m);
  EXPECT_ERROR_MENTIONS(st, "'words'");
  EXPECT_ERROR_MENTIONS(st, "STRING");
}

// offset / length: the strings stored in the model ("" leaves the key out).
onnx::ModelProto ExternalDataModel(const std::string& location, const std::string& offset,
                                   const std::string& length, int64_t elems) {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  auto* t = g->add_initializer();
  t->set_name("ext");
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(elems);
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const std::string& k, const std::string& v) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  if (!offset.empty()) add("offset", offset);
  if (!length.empty()) add("length", length);
  AddNode(g, "Identity", {"ext"}, {"y"});
  AddOutput(g, "y");
  return m;
}

TEST(MaliciousModel, ExternalData) {
  TempDir dir;
  dir.Write("weights.bin", std::string(16, '\0'));  // room for 4 floats
  auto load = [&](const onnx::ModelProto& m) {
    return Model::Load(dir.Write("model.onnx", Serialize(m))).status();
  };
  // The legitimate case works and reads the file.
  {
    auto model = Model::Load(
        dir.Write("model.onnx", Serialize(ExternalDataModel("weights.bin", "0", "16", 4))));
    ASSERT_TRUE(model.ok()) << model.status().ToString();
  }
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("../../etc/passwd", "0", "", 4)),
                        "escapes the model directory");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("/etc/passwd", "0", "", 4)),
                        "escapes the model directory");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("sub/../../x", "0", "", 4)),
                        "escapes the model directory");
  // Past the end of the file, by size and by offset (including offsets that overflow).
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("weights.bin", "0", "", 100)), "does not fit");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("weights.bin", "8", "", 4)), "does not fit");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("weights.bin", std::to_string(kI64Max), "", 4)),
                        "does not fit");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("weights.bin", "-8", "", 4)), "does not fit");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("weights.bin", "0", "1000", 4)), "does not fit");
  // Missing file, a directory, no location.
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("missing.bin", "0", "", 4)), "missing.bin");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel(".", "0", "", 4)), "not a regular file");
  EXPECT_ERROR_MENTIONS(load(ExternalDataModel("", "0", "", 4)), "location");
  // From memory there is no directory to resolve against.
  const std::string bytes = Serialize(ExternalDataModel("weights.bin", "0", "", 4));
  EXPECT_ERROR_MENTIONS(Model::LoadFromMemory(bytes.data(), bytes.size()).status(),
                        "external data");
  // A symlink inside the directory that points outside it must not smuggle a file in.
  std::error_code ec;
  std::filesystem::create_symlink("/etc/hostname", dir.path() / "link.bin", ec);
  if (!ec) {
    EXPECT_ERROR_MENTIONS(load(ExternalDataModel("link.bin", "0", "", 1)),
                          "escapes the model directory");
  }
}

TEST(MaliciousModel, BadFiles) {
  TempDir dir;
  Status st = Model::Load(dir.Write("empty.onnx", "")).status();
  EXPECT_ERROR_MENTIONS(st, "empty");
  st = Model::Load((dir.path() / "does_not_exist.onnx").string()).status();
  EXPECT_ERROR_MENTIONS(st, "does_not_exist.onnx");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  st = Model::Load(dir.Write("text.onnx", "this is not a model, it is a text file\n")).status();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("text.onnx"), std::string::npos) << st.ToString();
  st = Model::Load(dir.path().string()).status();
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(Model::LoadFromMemory(nullptr, 0).status().code(), StatusCode::kCorruptModel);
}

// ---------------------------------------------------------------------------------------------
// Runtime attacks: valid models whose data asks for absurd work.

Tensor F32(std::vector<int64_t> shape, std::vector<float> v) {
  return Tensor::FromVector(DType::kF32, shape, v);
}

// One-node model: op(inputs...) -> y, with int64 initializers and optional f32 input "x".
struct OneNode {
  onnx::ModelProto m = NewModel();
  onnx::GraphProto* g = m.mutable_graph();
  onnx::NodeProto* node = nullptr;
  OneNode(const std::string& op, const std::vector<std::string>& inputs, int opset = 13) {
    m.mutable_opset_import(0)->set_version(opset);
    node = AddNode(g, op, inputs, {"y"}, "victim");
    AddOutput(g, "y", onnx::TensorProto::FLOAT);
  }
  Result<std::map<std::string, Tensor>> Run(const std::map<std::string, Tensor>& in) {
    return LoadAndRun(m, in);
  }
};

// Either a clean error naming the node, or (for cases with a defined answer) success.
void ExpectCleanError(const Result<std::map<std::string, Tensor>>& r) {
  ASSERT_FALSE(r.ok()) << "expected an error";
  EXPECT_FALSE(r.status().message().empty());
}

TEST(RuntimeAttack, ReshapeOverflow) {
  OneNode t("Reshape", {"x", "shape"});
  AddInput(t.g, "x", onnx::TensorProto::FLOAT, {2, 3});
  AddInitI64(t.g, "shape", {2}, {kHuge, kHuge});
  ExpectCleanError(t.Run({{"x", F32({2, 3}, {1, 2, 3, 4, 5, 6})}}));
  t.g->mutable_initializer(0)->set_int64_data(0, kI64Max);
  t.g->mutable_initializer(0)->set_int64_data(1, -1);
  ExpectCleanError(t.Run({{"x", F32({2, 3}, {1, 2, 3, 4, 5, 6})}}));
  t.g->mutable_initializer(0)->set_int64_data(0, kI64Min);
  t.g->mutable_initializer(0)->set_int64_data(1, 0);
  ExpectCleanError(t.Run({{"x", F32({2, 3}, {1, 2, 3, 4, 5, 6})}}));
  t.g->mutable_initializer(0)->set_int64_data(0, -1);
  t.g->mutable_initializer(0)->set_int64_data(1, -1);
  ExpectCleanError(t.Run({{"x", F32({2, 3}, {1, 2, 3, 4, 5, 6})}}));
}

TEST(RuntimeAttack, ExpandToAbsurdShape) {
  for (std::vector<int64_t> shape : std::vector<std::vector<int64_t>>{
           {kHuge, kHuge}, {int64_t{1} << 20, int64_t{1} << 20, 16}, {kI64Max}, {-5}}) {
    OneNode t("Expand", {"x", "shape"});
    AddInput(t.g, "x", onnx::TensorProto::FLOAT, {1});
    AddInitI64(t.g, "shape", {static_cast<int64_t>(shape.size())}, shape);
    ExpectCleanError(t.Run({{"x", F32({1}, {1})}}));
  }
}

TEST(RuntimeAttack, ConstantOfShapeAbsurd) {
  for (std::vector<int64_t> shape :
       std::vector<std::vector<int64_t>>{{kHuge, kHuge}, {int64_t{1} << 42}, {-1}, {kI64Min}}) {
    OneNode t("ConstantOfShape", {"shape"});
    AddInput(t.g, "shape", onnx::TensorProto::INT64, {static_cast<int64_t>(shape.size())});
    auto r = t.Run(
        {{"shape", Tensor::FromVector(DType::kI64, {static_cast<int64_t>(shape.size())}, shape)}});
    ExpectCleanError(r);
  }
}

// An empty tensor whose other dims multiply past int64: legal (numel is 0), and every op on it
// must cope without computing overflowing strides.
TEST(RuntimeAttack, EmptyTensorWithOverflowingDims) {
  OneNode t("ConstantOfShape", {"shape"});
  AddInitI64(t.g, "shape", {3}, {0, kHuge, kHuge});
  t.node->set_output(0, "z");
  AddNode(t.g, "Transpose", {"z"}, {"y"}, "transpose");
  auto r = t.Run({});
  if (r.ok()) {
    EXPECT_EQ(r->at("y").numel(), 0);
    EXPECT_EQ(r->at("y").shape(), (std::vector<int64_t>{kHuge, kHuge, 0}));
  } else {
    EXPECT_FALSE(r.status().message().empty());
  }
}

TEST(RuntimeAttack, TileAbsurdRepeats) {
  for (std::vector<int64_t> reps : std::vector<std::vector<int64_t>>{
           {kHuge, kHuge}, {int64_t{1} << 42, 1}, {-1, 1}, {kI64Max, 2}}) {
    OneNode t("Tile", {"x", "reps"});
    AddInput(t.g, "x", onnx::TensorProto::FLOAT, {2, 2});
    AddInitI64(t.g, "reps", {2}, reps);
    ExpectCleanError(t.Run({{"x", F32({2, 2}, {1, 2, 3, 4})}}));
  }
}

TEST(RuntimeAttack, RangeAbsurd) {
  struct Case {
    float start, limit, delta;
  };
  for (Case c : {Case{0, 1e30f, 1}, Case{0, 1, 0}, Case{0, INFINITY, 1}, Case{0, NAN, 1},
                 Case{-1e30f, 1e30f, 1e-30f}}) {
    OneNode t("Range", {"start", "limit", "delta"}, 11);
    AddInput(t.g, "start", onnx::TensorProto::FLOAT, {});
    AddInput(t.g, "limit", onnx::TensorProto::FLOAT, {});
    AddInput(t.g, "delta", onnx::TensorProto::FLOAT, {});
    auto r = t.Run({{"start", F32({}, {c.start})},
                    {"limit", F32({}, {c.limit})},
                    {"delta", F32({}, {c.delta})}});
    ExpectCleanError(r);
  }
  // int64: the element count overflows int64 itself.
  OneNode t("Range", {"start", "limit", "delta"}, 11);
  AddInitI64(t.g, "start", {}, {kI64Min});
  AddInitI64(t.g, "limit", {}, {kI64Max});
  AddInitI64(t.g, "delta", {}, {1});
  t.g->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT64);
  ExpectCleanError(t.Run({}));
  // Four elements spanning all of int64: i * delta overflows although every element fits.
  t.g->mutable_initializer(2)->set_int64_data(0, int64_t{1} << 62);
  auto r = t.Run({});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Tensor& y = r->at("y");
  ASSERT_EQ(y.numel(), 4);
  EXPECT_EQ(y.data<int64_t>()[0], kI64Min);
  EXPECT_EQ(y.data<int64_t>()[1], kI64Min / 2);
  EXPECT_EQ(y.data<int64_t>()[2], 0);
  EXPECT_EQ(y.data<int64_t>()[3], int64_t{1} << 62);
}

TEST(RuntimeAttack, GatherFamilyOutOfRange) {
  for (int64_t bad : {int64_t{3}, int64_t{-4}, kI64Max, kI64Min}) {
    SCOPED_TRACE("index " + std::to_string(bad));
    {
      OneNode t("Gather", {"x", "i"});
      AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
      AddInitI64(t.g, "i", {2}, {0, bad});
      ExpectCleanError(t.Run({{"x", F32({3}, {1, 2, 3})}}));
    }
    {
      OneNode t("GatherElements", {"x", "i"});
      AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
      AddInitI64(t.g, "i", {2}, {bad, 0});
      ExpectCleanError(t.Run({{"x", F32({3}, {1, 2, 3})}}));
    }
    {
      OneNode t("ScatterND", {"x", "i", "u"});
      AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
      AddInitI64(t.g, "i", {1, 1}, {bad});
      AddInitF32(t.g, "u", {1}, {9});
      ExpectCleanError(t.Run({{"x", F32({3}, {1, 2, 3})}}));
    }
    {
      OneNode t("ScatterElements", {"x", "i", "u"});
      AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
      AddInitI64(t.g, "i", {1}, {bad});
      AddInitF32(t.g, "u", {1}, {9});
      ExpectCleanError(t.Run({{"x", F32({3}, {1, 2, 3})}}));
    }
    {
      OneNode t("GatherND", {"x", "i"});
      AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
      AddInitI64(t.g, "i", {1, 1}, {bad});
      ExpectCleanError(t.Run({{"x", F32({3}, {1, 2, 3})}}));
    }
  }
  // Negative indices in range are valid and must give the right element.
  OneNode t("Gather", {"x", "i"});
  AddInput(t.g, "x", onnx::TensorProto::FLOAT, {3});
  AddInitI64(t.g, "i", {1}, {-1});
  auto r = t.Run({{"x", F32({3}, {1, 2, 3})}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->at("y").data<float>()[0], 3.0f);
}

TEST(RuntimeAttack, ConvKernelBiggerThanInput) {
  OneNode t("Conv", {"x", "w"});
  AddInput(t.g, "x", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  AddInitF32(t.g, "w", {1, 1, 5, 5}, std::vector<float>(25, 1.0f));
  ExpectCleanError(t.Run({{"x", F32({1, 1, 2, 2}, {1, 2, 3, 4})}}));
  // Channel mismatch between input and weight.
  OneNode t2("Conv", {"x", "w"});
  AddInput(t2.g, "x", onnx::TensorProto::FLOAT, {1, 2, 3, 3});
  AddInitF32(t2.g, "w", {1, 3, 1, 1}, {1, 1, 1});
  ExpectCleanError(t2.Run({{"x", F32({1, 2, 3, 3}, std::vector<float>(18, 1.0f))}}));
  // Absurd strides / dilations / pads.
  for (const char* attr : {"strides", "dilations"}) {
    OneNode t3("Conv", {"x", "w"});
    AddInput(t3.g, "x", onnx::TensorProto::FLOAT, {1, 1, 3, 3});
    AddInitF32(t3.g, "w", {1, 1, 2, 2}, {1, 1, 1, 1});
    AttrInts(t3.node, attr, {0, kHuge});
    ExpectCleanError(t3.Run({{"x", F32({1, 1, 3, 3}, std::vector<float>(9, 1.0f))}}));
  }
  OneNode t4("Conv", {"x", "w"});
  AddInput(t4.g, "x", onnx::TensorProto::FLOAT, {1, 1, 3, 3});
  AddInitF32(t4.g, "w", {1, 1, 2, 2}, {1, 1, 1, 1});
  AttrInts(t4.node, "pads", {kHuge, kHuge, kHuge, kHuge});
  ExpectCleanError(t4.Run({{"x", F32({1, 1, 3, 3}, std::vector<float>(9, 1.0f))}}));
}

TEST(RuntimeAttack, LoopWithHugeTripCountExitsViaCond) {
  // for (i = 0; i < INT64_MAX && cond; ++i) { v += 1; cond = i < 3; }  ->  v = 4
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddInitI64(g, "M", {}, {kI64Max});
  auto* cond = g->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  AddInput(g, "v0", onnx::TensorProto::FLOAT, {1});
  auto* loop = AddNode(g, "Loop", {"M", "cond", "v0"}, {"v"}, "loop");
  auto* body = AttrGraph(loop, "body");
  AddInput(body, "iter", onnx::TensorProto::INT64, {});
  AddInput(body, "cond_in", onnx::TensorProto::BOOL, {});
  AddInput(body, "v_in", onnx::TensorProto::FLOAT, {1});
  AddInitI64(body, "three", {}, {3});
  AddInitF32(body, "one", {1}, {1});
  AddNode(body, "Less", {"iter", "three"}, {"cond_out"});
  AddNode(body, "Add", {"v_in", "one"}, {"v_out"});
  AddOutput(body, "cond_out", onnx::TensorProto::BOOL);
  AddOutput(body, "v_out");
  AddOutput(g, "v");
  auto r = LoadAndRun(m, {{"v0", F32({1}, {0})}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->at("v").data<float>()[0], 4.0f);
}

TEST(RuntimeAttack, SliceHugeSteps) {
  struct Case {
    int64_t start, end, step;
    std::vector<float> expect;
  };
  const std::vector<Case> cases = {
      {0, kI64Max, kI64Max, {1}},       {-1, kI64Min, kI64Min, {5}},
      {kI64Min, kI64Max, 2, {1, 3, 5}}, {kI64Max, kI64Min, -2, {5, 3, 1}},
      {kI64Max, kI64Max, 1, {}},        {2, 1, kI64Max, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("start " + std::to_string(c.start) + " end " + std::to_string(c.end) + " step " +
                 std::to_string(c.step));
    OneNode t("Slice", {"x", "starts", "ends", "axes", "steps"});
    AddInput(t.g, "x", onnx::TensorProto::FLOAT, {5});
    AddInitI64(t.g, "starts", {1}, {c.start});
    AddInitI64(t.g, "ends", {1}, {c.end});
    AddInitI64(t.g, "axes", {1}, {0});
    AddInitI64(t.g, "steps", {1}, {c.step});
    auto r = t.Run({{"x", F32({5}, {1, 2, 3, 4, 5})}});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const Tensor& y = r->at("y");
    ASSERT_EQ(y.numel(), static_cast<int64_t>(c.expect.size()));
    for (size_t i = 0; i < c.expect.size(); ++i) EXPECT_EQ(y.data<float>()[i], c.expect[i]);
  }
  // A zero step is invalid.
  OneNode t("Slice", {"x", "starts", "ends", "axes", "steps"});
  AddInput(t.g, "x", onnx::TensorProto::FLOAT, {5});
  AddInitI64(t.g, "starts", {1}, {0});
  AddInitI64(t.g, "ends", {1}, {5});
  AddInitI64(t.g, "axes", {1}, {0});
  AddInitI64(t.g, "steps", {1}, {0});
  ExpectCleanError(t.Run({{"x", F32({5}, {1, 2, 3, 4, 5})}}));
}

TEST(RuntimeAttack, WrongInputsAreRejected) {
  const std::string bytes = BuildValidModel();
  auto model = Model::LoadFromMemory(bytes.data(), bytes.size());
  ASSERT_TRUE(model.ok());
  auto session = Session::Create(*model, {.device = "cpu", .num_threads = 1});
  ASSERT_TRUE(session.ok());
  auto c = Tensor::FromVector(DType::kBool, {}, std::vector<uint8_t>{0});
  EXPECT_ERROR_MENTIONS(
      (*session)->Run({{"x", F32({1, 1, 4}, std::vector<float>(4))}, {"c", c}}).status(), "'x'");
  EXPECT_ERROR_MENTIONS((*session)->Run({{"c", c}}).status(), "missing input 'x'");
  EXPECT_ERROR_MENTIONS((*session)->Run({{"x", c}, {"c", c}}).status(), "'x'");
  EXPECT_ERROR_MENTIONS((*session)->Run({{"zz", c}}).status(), "'zz'");
}

// ---------------------------------------------------------------------------------------------
// .npy parser.

std::string NpyBytes(const std::string& header_dict, size_t data_bytes, int version = 1) {
  std::string header = header_dict;
  const size_t prefix = version == 1 ? 10 : 12;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string s = "\x93NUMPY";
  s += static_cast<char>(version);
  s += '\0';
  const size_t len = header.size();
  s += static_cast<char>(len & 0xff);
  s += static_cast<char>((len >> 8) & 0xff);
  if (version != 1) s += std::string(2, '\0');
  s += header;
  s += std::string(data_bytes, '\x01');
  return s;
}

TEST(NpyRobustness, ValidFileParses) {
  const std::string ok =
      NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
  auto t = ParseNpy(ok.data(), ok.size(), "'ok.npy'");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 3}));
  const std::string v2 = NpyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 8, 2);
  EXPECT_TRUE(ParseNpy(v2.data(), v2.size(), "'v2.npy'").ok());
}

TEST(NpyRobustness, EveryTruncationFails) {
  const std::string ok =
      NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
  for (size_t len = 0; len < ok.size(); ++len) {
    const std::string cut = ok.substr(0, len);
    auto t = ParseNpy(cut.data(), cut.size(), "'cut.npy'");
    ASSERT_FALSE(t.ok()) << "length " << len;
    EXPECT_NE(t.status().message().find("'cut.npy'"), std::string::npos) << t.status().ToString();
  }
}

TEST(NpyRobustness, MalformedFilesNameTheProblem) {
  struct Case {
    std::string bytes, needle;
  };
  const std::vector<Case> cases = {
      {"GARBAGE-NOT-NPY", "bad magic"},
      {std::string("\x93NUMPY\x07\x00\x10\x00", 10) + std::string(16, ' '), "version 7"},
      {NpyBytes("{'descr': '<f4', 'shape': (2,), }", 8), "malformed"},
      {NpyBytes("nonsense", 0), "malformed"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", 8), "invalid shape"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", 8), "invalid shape"},
      {NpyBytes(
           "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }",
           8),
       "absurd"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }", 8),
       "expected"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16), "Fortran"},
      {NpyBytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8), "'>f4'"},
      {NpyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16), "'<c8'"},
      {NpyBytes("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16), "'|O'"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 7), "expected 8"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 9), "expected 8"},
      // Header length claims 4 GiB (format 2.0).
      {std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{}", "truncated"},
      // Unterminated values.
      {NpyBytes("{'descr': '<f4", 0), "malformed"},
      {NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", 0), "malformed"},
  };
  for (const Case& c : cases) {
    auto t = ParseNpy(c.bytes.data(), c.bytes.size(), "'bad.npy'");
    ASSERT_FALSE(t.ok()) << "expected an error mentioning " << c.needle;
    EXPECT_NE(t.status().message().find(c.needle), std::string::npos) << t.status().ToString();
  }
  // Through the file API too.
  TempDir dir;
  EXPECT_ERROR_MENTIONS(ReadNpy(dir.Write("bad.npy", "GARBAGE-NOT-NPY")).status(), "bad magic");
  EXPECT_EQ(ReadNpy((dir.path() / "missing.npy").string()).status().code(), StatusCode::kNotFound);
}

TEST(NpyRobustness, RandomMutationsNeverCrash) {
  const std::string ok =
      NpyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 2), }", 24);
  std::mt19937 rng(99);
  int parsed = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::string s = Mutate(ok, rng);
    auto t = ParseNpy(s.data(), s.size(), "'m.npy'");
    if (t.ok()) {
      ++parsed;
      EXPECT_EQ(static_cast<size_t>(t->nbytes()) + 0, t->nbytes());
    } else {
      EXPECT_FALSE(t.status().message().empty());
    }
  }
  std::printf("npy mutations: 5000, %d still parsed\n", parsed);
}

// ---------------------------------------------------------------------------------------------
// TensorProto parser (the .pb files of ONNX test data).

TEST(TensorProtoRobustness, DamagedProtos) {
  onnx::TensorProto p;
  p.set_name("t");
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(2);
  p.add_dims(2);
  for (float v : {1.f, 2.f, 3.f, 4.f}) p.add_float_data(v);
  std::string ok;
  ASSERT_TRUE(p.SerializeToString(&ok));
  std::string name;
  auto t = ParseTensorProto(ok.data(), ok.size(), "'t.pb'", &name);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(name, "t");

  // Too few typed values for the dims: rejected before allocating.
  p.clear_dims();
  p.add_dims(int64_t{1} << 33);
  std::string big;
  ASSERT_TRUE(p.SerializeToString(&big));
  auto r = ParseTensorProto(big.data(), big.size(), "'big.pb'");
  EXPECT_ERROR_MENTIONS(r.status(), "'big.pb'");

  std::mt19937 rng(5);
  for (int i = 0; i < 3000; ++i) {
    const std::string s = Mutate(ok, rng);
    auto m = ParseTensorProto(s.data(), s.size(), "'m.pb'");
    if (!m.ok()) {
      EXPECT_FALSE(m.status().message().empty());
    }
  }
}

}  // namespace
}  // namespace trinity
