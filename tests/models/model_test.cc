// Real models vs ONNX Runtime (DESIGN.md "Testing habits"): each model of the reference set
// (scripts/make_references.sh: real speech and drawn images, ONNX Runtime's outputs) runs on
// Trinity's CPU session at 1 thread through the public API, and every output element must satisfy
//   |got - want| <= 1e-4 * |want| + 1e-4;
// classifiers (PP-OCR cls, PP-OCR rec per timestep) must also pick the same class.
//
// Missing references fail under CI (CI=true), since CI runs scripts/setup.sh first and must test
// every model; elsewhere the test is skipped with the same hint.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "reference_set.h"
#include "tolerance.h"
#include "trinity/trinity.h"

namespace trinity::refs {
namespace {

constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-4;

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

class RealModelTest : public ::testing::TestWithParam<RealModel> {};

// Outputs that fail the 1e-4 rule for a reason no kernel fix removes, held instead to a ceiling
// that records today's figure (so a regression still fails). Each is a known gap of issue 3,
// named in docs/performance.md; the rule's verdict is still printed as FAIL.
struct KnownGap {
  const char* model;
  const char* output;
  double max_abs_ceiling;
  const char* why;
};
constexpr KnownGap kKnownGaps[] = {
    {"mlsd", "offsets", 0.25,
     "M-LSD's offsets amplify float32 rounding: ONNX Runtime disagrees with itself between graph "
     "optimisation levels (worst ratio 334), Trinity's im2col GEMM gives 321, XNNPACK 1110"},
};

const KnownGap* FindGap(const std::string& model, const std::string& output) {
  for (const KnownGap& g : kKnownGaps)
    if (model == g.model && output == g.output) return &g;
  return nullptr;
}

}  // namespace

// gtest prints a failing test's parameter; the model's name says all that matters.
void PrintTo(const RealModel& m, std::ostream* os) { *os << m.name; }

namespace {

TEST_P(RealModelTest, MatchesOnnxRuntime) {
  const RealModel& m = GetParam();
  auto dir = ReferencesDir();
  Result<ReferenceCase> rc = dir.ok() ? LoadReference(*dir, ModelsDir(), m) : dir.status();
  Result<std::string> ort = dir.ok() ? ReadOrtVersion(*dir) : dir.status();
  if (!rc.ok() || !ort.ok()) {
    const std::string why = (!rc.ok() ? rc.status() : ort.status()).ToString();
    if (InCi()) FAIL() << "CI=true needs the references: " << why;
    GTEST_SKIP() << why;
  }
  std::printf("%s: references %s (ONNX Runtime %s), model %s\n", m.name.c_str(), dir->c_str(),
              ort->c_str(), rc->model_path.c_str());

  auto model = Model::Load(rc->model_path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.num_threads = 1;
  auto session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  auto outputs = (*session)->Run(rc->inputs);
  ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();

  double max_abs = 0, worst = 0;
  bool all_ok = rc->outputs.size() == outputs->size();
  for (const auto& [name, want] : rc->outputs) {
    auto it = outputs->find(name);
    if (it == outputs->end()) {
      ADD_FAILURE() << m.name << ": Trinity gave no output '" << name << "'";
      all_ok = false;
      continue;
    }
    const OutputComparison c = CompareOutput(it->second, want, kRtol, kAtol, m.argmax_last_axis);
    std::string argmax;
    if (c.argmax_rows > 0) {
      argmax =
          ", argmax equal " + std::to_string(c.argmax_equal) + "/" + std::to_string(c.argmax_rows);
    }
    std::printf(
        "%s: output '%s' %s: max abs diff %.3g, worst ratio %.4g (%s), %lld of %lld over "
        "tolerance%s -> %s\n",
        m.name.c_str(), name.c_str(), want.Describe().c_str(), c.max_abs_diff, c.worst_ratio,
        c.worst.c_str(), static_cast<long long>(c.violations), static_cast<long long>(c.elements),
        argmax.c_str(), c.ok() ? "ok" : "FAIL");
    EXPECT_TRUE(c.error.empty()) << m.name << " output '" << name << "': " << c.error;
    if (const KnownGap* gap = FindGap(m.name, name); gap != nullptr && !c.ok()) {
      std::printf("%s: output '%s' is a known gap (max abs diff must stay <= %g): %s\n",
                  m.name.c_str(), name.c_str(), gap->max_abs_ceiling, gap->why);
      EXPECT_LE(c.max_abs_diff, gap->max_abs_ceiling) << m.name << " output '" << name << "'";
      all_ok = false;
      max_abs = std::max(max_abs, c.max_abs_diff);
      worst = std::max(worst, c.worst_ratio);
      continue;
    }
    EXPECT_EQ(c.violations, 0) << m.name << " output '" << name << "': " << c.violations
                               << " element(s) beyond |got-want| <= " << kRtol << "*|want| + "
                               << kAtol << "; max abs diff " << c.max_abs_diff << ", worst ratio "
                               << c.worst_ratio << " " << c.worst;
    EXPECT_EQ(c.argmax_equal, c.argmax_rows)
        << m.name << " output '" << name << "': argmax over the last axis differs in "
        << (c.argmax_rows - c.argmax_equal) << " of " << c.argmax_rows << " row(s)";
    all_ok = all_ok && c.ok();
    max_abs = std::max(max_abs, c.max_abs_diff);
    worst = std::max(worst, c.worst_ratio);
  }
  // One line per model for logs and docs; ratio <= 1 (and equal argmax) passes.
  std::printf("%s: max abs diff %.3g, worst ratio %.4g -> %s\n", m.name.c_str(), max_abs, worst,
              all_ok ? "PASS" : "FAIL");
  RecordProperty("max_abs_diff", std::to_string(max_abs));
  RecordProperty("worst_ratio", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(Models, RealModelTest, ::testing::ValuesIn(RealModels()),
                         [](const ::testing::TestParamInfo<RealModel>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace trinity::refs
