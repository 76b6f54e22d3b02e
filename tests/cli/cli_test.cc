// Black-box tests of the `trinity` command-line tool: the contract users and scripts rely on
// (file names of outputs, timing output, JSON, error messages and exit codes). Each test writes
// tiny ONNX models and input files into its own temporary directory and runs the built binary
// as a child process, capturing stdout and stderr separately.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"
#include "trinity/trinity.h"

namespace {

namespace fs = std::filesystem;
using trinity_test::ProcResult;
using trinity_test::ReadFile;
using trinity_test::RunProcess;

// ---- Writing tiny ONNX models -------------------------------------------------------------

void AddValueInfo(onnx::ValueInfoProto* v, const std::string& name, int elem_type,
                  const std::vector<std::string>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  auto* shape = tt->mutable_shape();
  for (const std::string& d : dims) {
    auto* dim = shape->add_dim();
    if (!d.empty() && std::isdigit(static_cast<unsigned char>(d[0])))
      dim->set_dim_value(std::stoll(d));
    else
      dim->set_dim_param(d);
  }
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op,
                         const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g->node_size()));
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

onnx::ModelProto NewModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("trinity_cli_tests");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(17);
  m.mutable_graph()->set_name("test");
  return m;
}

void SaveModel(const onnx::ModelProto& m, const fs::path& path) {
  std::ofstream f(path, std::ios::binary);
  ASSERT_TRUE(m.SerializeToOstream(&f)) << path;
}

// Output names with '/', ':' and ' ' check the file-name rule of `run --output-dir`.
constexpr const char* kSumOutput = "out/sum:0";      // -> out_sum_0.npy
constexpr const char* kScaledOutput = "scaled out";  // -> scaled_out.npy

// x f32[2,3], y f32[2,3] -> out/sum:0 = x + y, "scaled out" = x * c with c = [1, 2, 3].
onnx::ModelProto TwoOutputModel() {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddValueInfo(g->add_input(), "x", onnx::TensorProto::FLOAT, {"2", "3"});
  AddValueInfo(g->add_input(), "y", onnx::TensorProto::FLOAT, {"2", "3"});
  auto* c = g->add_initializer();
  c->set_name("c");
  c->set_data_type(onnx::TensorProto::FLOAT);
  c->add_dims(3);
  for (float v : {1.f, 2.f, 3.f}) c->add_float_data(v);
  AddNode(g, "Add", {"x", "y"}, {kSumOutput});
  AddNode(g, "Mul", {"x", "c"}, {kScaledOutput});
  AddValueInfo(g->add_output(), kSumOutput, onnx::TensorProto::FLOAT, {"2", "3"});
  AddValueInfo(g->add_output(), kScaledOutput, onnx::TensorProto::FLOAT, {"2", "3"});
  return m;
}

// idx i64[1] -> picked = Gather([10, 20, 30, 40], idx). An index outside [-4, 4) is only
// detected while running: the runtime-failure case.
onnx::ModelProto GatherModel() {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddValueInfo(g->add_input(), "idx", onnx::TensorProto::INT64, {"1"});
  auto* d = g->add_initializer();
  d->set_name("data");
  d->set_data_type(onnx::TensorProto::FLOAT);
  d->add_dims(4);
  for (float v : {10.f, 20.f, 30.f, 40.f}) d->add_float_data(v);
  AddNode(g, "Gather", {"data", "idx"}, {"picked"});
  AddValueInfo(g->add_output(), "picked", onnx::TensorProto::FLOAT, {"1"});
  return m;
}

// x f32[batch,4] -> y = Relu(x): a symbolic dim, for the run_model example.
onnx::ModelProto ReluModel() {
  onnx::ModelProto m = NewModel();
  auto* g = m.mutable_graph();
  AddValueInfo(g->add_input(), "x", onnx::TensorProto::FLOAT, {"batch", "4"});
  AddNode(g, "Relu", {"x"}, {"y"});
  AddValueInfo(g->add_output(), "y", onnx::TensorProto::FLOAT, {"batch", "4"});
  return m;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "trinity_cli_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    SaveModel(TwoOutputModel(), dir_ / "two.onnx");
    SaveModel(GatherModel(), dir_ / "gather.onnx");
    // x = [[1,2,3],[4,5,6]], y = [[0.5,...]]: simple values whose sums and products are exact.
    WriteNpyFile("x.npy", trinity::Tensor::FromVector<float>(trinity::DType::kF32, {2, 3},
                                                             {1, 2, 3, 4, 5, 6}));
    WriteNpyFile("y.npy", trinity::Tensor::FromVector<float>(trinity::DType::kF32, {2, 3},
                                                             {0.5f, 0.5f, 0.5f, -1, -1, -1}));
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  void WriteNpyFile(const std::string& name, const trinity::Tensor& t) {
    const trinity::Status st = trinity::WriteNpy(Path(name), t);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  ProcResult Trinity(const std::vector<std::string>& args) {
    return RunProcess(TRINITY_CLI_PATH, args, dir_);
  }
  // `trinity run two.onnx --input x=x.npy --input y=y.npy` plus `extra`.
  ProcResult RunTwo(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "run", Path("two.onnx"), "--input", "x=" + Path("x.npy"), "--input", "y=" + Path("y.npy")};
    args.insert(args.end(), extra.begin(), extra.end());
    return Trinity(args);
  }

  fs::path dir_;
};

std::vector<float> ReadF32(const std::string& path) {
  auto t = trinity::ReadNpy(path);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  if (!t.ok()) return {};
  EXPECT_EQ(t->dtype(), trinity::DType::kF32);
  return std::vector<float>(t->data<float>(), t->data<float>() + t->numel());
}

std::string LastLine(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---- run: outputs ---------------------------------------------------------------------------

TEST_F(CliTest, RunWritesOneNpyPerOutputWithSanitizedNames) {
  const ProcResult r = RunTwo({"--output-dir", Path("out")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // '/', ':' and ' ' become '_'; values are exact in float.
  EXPECT_EQ(ReadF32(Path("out/out_sum_0.npy")), (std::vector<float>{1.5f, 2.5f, 3.5f, 3, 4, 5}));
  EXPECT_EQ(ReadF32(Path("out/scaled_out.npy")), (std::vector<float>{1, 4, 9, 4, 10, 18}));
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(Path("out"))) files += e.is_regular_file();
  EXPECT_EQ(files, 2u);
}

TEST_F(CliTest, RunWithThreadsAndExplicitCpuDevice) {
  const ProcResult r = RunTwo({"--output-dir", Path("out"), "--device", "cpu", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadF32(Path("out/out_sum_0.npy")), (std::vector<float>{1.5f, 2.5f, 3.5f, 3, 4, 5}));
}

TEST_F(CliTest, RunReadsTensorProtoInputs) {
  onnx::TensorProto idx;
  idx.set_name("idx");
  idx.set_data_type(onnx::TensorProto::INT64);
  idx.add_dims(1);
  idx.add_int64_data(2);
  {
    std::ofstream f(Path("idx.pb"), std::ios::binary);
    ASSERT_TRUE(idx.SerializeToOstream(&f));
  }
  const ProcResult r = Trinity({"run", Path("gather.onnx"), "--input", "idx=" + Path("idx.pb"),
                                "--output-dir", Path("out")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadF32(Path("out/picked.npy")), (std::vector<float>{30}));
}

// ---- run: timing ----------------------------------------------------------------------------

TEST_F(CliTest, RunRepeatPrintsMinMedianP90) {
  const ProcResult r = RunTwo({"--repeat", "5", "--warmup", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "min")) << r.out;
  EXPECT_TRUE(Contains(r.out, "median")) << r.out;
  EXPECT_TRUE(Contains(r.out, "p90")) << r.out;
  EXPECT_TRUE(Contains(r.out, "5 runs")) << r.out;
}

TEST_F(CliTest, RunJsonLastLineIsOneObject) {
  const ProcResult r = RunTwo({"--repeat", "4", "--warmup", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(LastLine(r.out), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(j.is_object()) << r.out;
  for (const char* key : {"median_ms", "min_ms", "p90_ms", "runs"})
    ASSERT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["runs"].get<int>(), 4);
  const double mn = j["min_ms"], med = j["median_ms"], p90 = j["p90_ms"];
  EXPECT_GE(mn, 0.0);
  EXPECT_LE(mn, med);
  EXPECT_LE(med, p90);
}

TEST_F(CliTest, RunJsonWithoutWarmupTimesExactlyRepeatRuns) {
  const ProcResult r = RunTwo({"--repeat", "3", "--warmup", "0", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(LastLine(r.out), nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["runs"].get<int>(), 3);
  EXPECT_EQ(j["warmup"].get<int>(), 0);
}

TEST_F(CliTest, RunJsonWithoutRepeatCountsOneRun) {
  const ProcResult r = RunTwo({"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(LastLine(r.out), nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["runs"].get<int>(), 1);
}

// ---- run: bad usage and bad input exit with 2 and say what was expected ---------------------

TEST_F(CliTest, MissingInputFileNamesInputAndExpectedType) {
  const ProcResult r = Trinity({"run", Path("two.onnx"), "--input", "x=" + Path("nope.npy"),
                                "--input", "y=" + Path("y.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "'x'")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f32[2,3]")) << r.err;
  EXPECT_TRUE(Contains(r.err, "nope.npy")) << r.err;
}

TEST_F(CliTest, UnknownInputNameListsModelInputs) {
  const ProcResult r = RunTwo({"--input", "z=" + Path("x.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "'z'")) << r.err;
  EXPECT_TRUE(Contains(r.err, "x f32[2,3]")) << r.err;
  EXPECT_TRUE(Contains(r.err, "y f32[2,3]")) << r.err;
}

TEST_F(CliTest, WrongShapeNamesInputExpectedAndActual) {
  WriteNpyFile("x32.npy", trinity::Tensor::FromVector<float>(trinity::DType::kF32, {3, 2},
                                                             {1, 2, 3, 4, 5, 6}));
  const ProcResult r = Trinity({"run", Path("two.onnx"), "--input", "x=" + Path("x32.npy"),
                                "--input", "y=" + Path("y.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "'x'")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f32[2,3]")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f32[3,2]")) << r.err;
}

TEST_F(CliTest, WrongDtypeNamesInputExpectedAndActual) {
  WriteNpyFile("x64.npy", trinity::Tensor::FromVector<double>(trinity::DType::kF64, {2, 3},
                                                              {1, 2, 3, 4, 5, 6}));
  const ProcResult r = Trinity({"run", Path("two.onnx"), "--input", "x=" + Path("x64.npy"),
                                "--input", "y=" + Path("y.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "'x'")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f32[2,3]")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f64[2,3]")) << r.err;
}

TEST_F(CliTest, MissingInputOptionNamesInputAndExpectedType) {
  const ProcResult r = Trinity({"run", Path("two.onnx"), "--input", "x=" + Path("x.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "y=FILE")) << r.err;
  EXPECT_TRUE(Contains(r.err, "f32[2,3]")) << r.err;
}

TEST_F(CliTest, BadInputSyntax) {
  for (const std::string spec : {"x", "=x.npy", "x="}) {
    const ProcResult r = Trinity({"run", Path("two.onnx"), "--input", spec});
    EXPECT_EQ(r.exit_code, 2) << spec;
    EXPECT_TRUE(Contains(r.err, "NAME=FILE")) << spec << ": " << r.err;
  }
}

TEST_F(CliTest, MissingModelFile) {
  const ProcResult r = Trinity({"run", Path("absent.onnx"), "--input", "x=" + Path("x.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "absent.onnx")) << r.err;
}

TEST_F(CliTest, CorruptModelFile) {
  {
    std::ofstream f(Path("corrupt.onnx"), std::ios::binary);
    f << "this is not a protobuf \xff\xff\xff\xff";
  }
  const ProcResult r = Trinity({"run", Path("corrupt.onnx"), "--input", "x=" + Path("x.npy")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "error")) << r.err;
  const ProcResult info = Trinity({"info", Path("corrupt.onnx")});
  EXPECT_EQ(info.exit_code, 2);
}

TEST_F(CliTest, UnknownOptionAndMissingSubcommandAreUsageErrors) {
  EXPECT_EQ(RunTwo({"--bogus"}).exit_code, 2);
  EXPECT_EQ(Trinity({}).exit_code, 2);
  EXPECT_EQ(Trinity({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(Trinity({"--help"}).exit_code, 0);
}

// Decision: asking for a device that does not exist is bad usage (2), like an unknown option,
// and the message lists the devices that do exist.
TEST_F(CliTest, UnknownDeviceIsBadUsage) {
  const ProcResult r = RunTwo({"--device", "npu7"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "npu7")) << r.err;
  EXPECT_TRUE(Contains(r.err, "cpu")) << r.err;
}

// ---- run: failures while running exit with 1 ------------------------------------------------

TEST_F(CliTest, RuntimeFailureExitsWithOne) {
  WriteNpyFile("idx.npy", trinity::Tensor::FromVector<int64_t>(trinity::DType::kI64, {1}, {7}));
  const ProcResult r = Trinity({"run", Path("gather.onnx"), "--input", "idx=" + Path("idx.npy")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(Contains(r.err, "Gather")) << r.err;
  EXPECT_TRUE(Contains(r.err, "out of range")) << r.err;
}

// ---- info and devices -----------------------------------------------------------------------

TEST_F(CliTest, InfoPrintsIoHistogramParametersAndSupport) {
  const ProcResult r = Trinity({"info", Path("two.onnx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"inputs:", "x: f32[2,3]", "y: f32[2,3]", "outputs:", "out/sum:0: f32[2,3]",
                        "scaled out: f32[2,3]", "parameters: 3", "Add", "Mul", "cpu", "yes"}) {
    EXPECT_TRUE(Contains(r.out, s)) << "missing '" << s << "' in:\n" << r.out;
  }
}

TEST_F(CliTest, InfoJsonParses) {
  const ProcResult r = Trinity({"info", Path("two.onnx"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["parameters"].get<int64_t>(), 3);
  ASSERT_EQ(j["inputs"].size(), 2u);
  EXPECT_EQ(j["inputs"][0]["name"], "x");
  EXPECT_EQ(j["inputs"][0]["dtype"], "f32");
  EXPECT_EQ(j["inputs"][0]["shape"], "[2,3]");
  ASSERT_EQ(j["outputs"].size(), 2u);
  EXPECT_EQ(j["outputs"][0]["name"], kSumOutput);
  std::map<std::string, int> ops;
  for (const auto& o : j["ops"]) {
    ops[o["op"]] = o["count"];
    EXPECT_EQ(o["support"]["cpu"], "yes") << o.dump();
  }
  EXPECT_EQ(ops, (std::map<std::string, int>{{"Add", 1}, {"Mul", 1}}));
}

TEST_F(CliTest, InfoMissingModelIsBadInput) {
  const ProcResult r = Trinity({"info", Path("absent.onnx")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "absent.onnx")) << r.err;
}

TEST_F(CliTest, DevicesListsCpu) {
  const ProcResult r = Trinity({"devices"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "\ncpu ")) << r.out;
}

// ---- examples/run_model.cc ------------------------------------------------------------------

#ifdef TRINITY_RUN_MODEL_EXAMPLE_PATH
TEST_F(CliTest, RunModelExampleWithZerosAndWithNpy) {
  SaveModel(ReluModel(), dir_ / "relu.onnx");
  // No inputs given: zeros of the declared shape with the symbolic dim set to 1.
  ProcResult r = RunProcess(TRINITY_RUN_MODEL_EXAMPLE_PATH, {Path("relu.onnx"), "1"}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "x: f32[batch,4]")) << r.out;
  EXPECT_TRUE(Contains(r.out, "y: f32[1,4]")) << r.out;
  EXPECT_TRUE(Contains(r.out, "cpu")) << r.out;

  WriteNpyFile("x2.npy", trinity::Tensor::FromVector<float>(trinity::DType::kF32, {2, 4},
                                                            {-1, 2, -3, 4, 5, -6, 7, -8}));
  r = RunProcess(TRINITY_RUN_MODEL_EXAMPLE_PATH, {Path("relu.onnx"), "2", "x=" + Path("x2.npy")},
                 dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "y: f32[2,4] 0 2 0 4 5 0 7 0")) << r.out;

  // A bad argument fails with a message, not a crash.
  r = RunProcess(TRINITY_RUN_MODEL_EXAMPLE_PATH, {Path("absent.onnx")}, dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.err, "absent.onnx")) << r.err;
}
#endif

}  // namespace
