// Black-box tests of `trinity ocr` (and examples/ocr): images rendered with ImageMagick in a
// temporary directory, read back through the real PP-OCRv4 models (scripts/fetch_models.sh;
// the tool finds them as it always does: $TRINITY_MODELS_DIR or ~/.cache/trinity/models).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace {

namespace fs = std::filesystem;
using trinity_test::ProcResult;
using trinity_test::RunProcess;

// Splits stdout into lines and each line into its tab-separated fields.
std::vector<std::vector<std::string>> Rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream f(line);
    for (std::string field; std::getline(f, field, '\t');) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

class OcrCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "trinity_ocr_cli_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Renders `text` (lines separated by \n) black on white in DejaVu Sans Bold, 60 pt, with a
  // margin, then applies `extra` ImageMagick operators (e.g. -rotate 180); returns the PNG.
  // Why large and bold: PP-OCRv4's Chinese-English recogniser often drops the spaces between
  // English words in small text (PaddleOCR issue #11386: "HelloWorld12345" at 32 pt regular);
  // at 56-64 pt bold it reads them, and the test checks the pipeline, not the model's limits.
  std::string Render(const std::string& name, const std::string& text,
                     const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {
        "-background", "white", "-fill",         "black",        "-font", "DejaVu-Sans-Bold",
        "-pointsize",  "60",    "label:" + text, "-bordercolor", "white", "-border",
        "30"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("PNG24:" + Path(name));
    const ProcResult r = RunProcess(TRINITY_IMAGEMAGICK_CONVERT, args, dir_);
    EXPECT_EQ(r.exit_code, 0) << "convert failed: " << r.err;
    return Path(name);
  }
  ProcResult Ocr(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"ocr"};
    all.insert(all.end(), args.begin(), args.end());
    return RunProcess(TRINITY_CLI_PATH, all, dir_);
  }

  fs::path dir_;
};

TEST_F(OcrCliTest, ReadsOneLineExactly) {
  const ProcResult r = Ocr({Render("hello.png", "Hello World 12345")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = Rows(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  ASSERT_EQ(rows[0].size(), 3u) << r.out;
  EXPECT_EQ(rows[0][0], "Hello World 12345");
  EXPECT_GT(std::stod(rows[0][1]), 0.9) << r.out;
  const auto box = nlohmann::json::parse(rows[0][2]);
  ASSERT_EQ(box.size(), 4u);
  EXPECT_LT(box[0][0].get<int>(), box[1][0].get<int>());  // top-left left of top-right
  EXPECT_LT(box[0][1].get<int>(), box[3][1].get<int>());  // top above bottom
  EXPECT_NE(r.err.find("1 line(s)"), std::string::npos) << r.err;
}

TEST_F(OcrCliTest, JsonHasLinesBoxesAndTimings) {
  const std::string image = Render("hello.png", "Hello World 12345");
  const ProcResult r = Ocr({image, "--json", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["image"], image);
  EXPECT_EQ(j["threads"], 2);
  ASSERT_EQ(j["lines"].size(), 1u) << r.out;
  EXPECT_EQ(j["lines"][0]["text"], "Hello World 12345");
  EXPECT_EQ(j["lines"][0]["rotated"], false);
  EXPECT_EQ(j["lines"][0]["box"].size(), 4u);
  for (const char* k : {"det", "cls", "rec", "run", "load"}) {
    EXPECT_TRUE(j["timing_ms"].contains(k)) << k;
  }
  // Every box corner lies inside the image.
  for (const auto& p : j["lines"][0]["box"]) {
    EXPECT_GE(p[0].get<int>(), 0);
    EXPECT_LT(p[0].get<int>(), j["width"].get<int>());
    EXPECT_GE(p[1].get<int>(), 0);
    EXPECT_LT(p[1].get<int>(), j["height"].get<int>());
  }
}

TEST_F(OcrCliTest, TwoLinesComeTopToBottom) {
  const ProcResult r = Ocr({Render("two.png", "Hello World\n12345")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = Rows(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  EXPECT_EQ(rows[0][0], "Hello World");
  EXPECT_EQ(rows[1][0], "12345");
}

TEST_F(OcrCliTest, UpsideDownLineIsTurnedByTheClassifier) {
  const std::string image = Render("flipped.png", "Hello World 12345", {"-rotate", "180"});
  ProcResult r = Ocr({image, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["lines"].size(), 1u) << r.out;
  EXPECT_EQ(j["lines"][0]["text"], "Hello World 12345");
  EXPECT_EQ(j["lines"][0]["rotated"], true);
  // Without the classifier the recogniser reads the line upside down: not the text.
  r = Ocr({image, "--json", "--no-cls"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  for (const auto& line : j["lines"]) EXPECT_NE(line["text"], "Hello World 12345");
}

TEST_F(OcrCliTest, BlankImageHasNoLines) {
  const std::string image = Path("blank.png");
  const ProcResult c = RunProcess(TRINITY_IMAGEMAGICK_CONVERT,
                                  {"-size", "200x100", "xc:white", "PNG24:" + image}, dir_);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const ProcResult r = Ocr({image});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(OcrCliTest, BadImagesAreBadInput) {
  ProcResult r = Ocr({Path("absent.png")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("absent.png"), std::string::npos) << r.err;

  std::ofstream(Path("corrupt.png"), std::ios::binary) << "\x89PNG\r\n\x1a\nnot really";
  r = Ocr({Path("corrupt.png")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("corrupt PNG"), std::string::npos) << r.err;

  std::ofstream(Path("photo.jpg"), std::ios::binary) << "\xff\xd8\xff\xe0....JFIF";
  r = Ocr({Path("photo.jpg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("JPEG"), std::string::npos) << r.err;
}

TEST_F(OcrCliTest, MissingModelsNameTheFile) {
  const ProcResult r = Ocr({Render("hello.png", "Hi"), "--models-dir", Path("no_models")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ch_PP-OCRv4_det_infer.onnx"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fetch_models.sh"), std::string::npos) << r.err;
}

#ifdef TRINITY_OCR_EXAMPLE_PATH
TEST_F(OcrCliTest, ExampleReadsTheSameText) {
  const char* env = std::getenv("TRINITY_MODELS_DIR");
  const char* home = std::getenv("HOME");
  const std::string models =
      env && *env ? env : std::string(home ? home : ".") + "/.cache/trinity/models";
  const ProcResult r = RunProcess(TRINITY_OCR_EXAMPLE_PATH,
                                  {Render("hello.png", "Hello World 12345"), models, "1"}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Hello World 12345  (", 0), 0u) << r.out;
}
#endif

}  // namespace
