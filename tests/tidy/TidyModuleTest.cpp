// The clang-tidy module as users run it: Debian's clang-tidy-19 with --load, compared with
// graphify-lint on the same files (every warning and note, in groups), its fix-its applied by
// clang-tidy --fix and by clang-apply-replacements, and its options and their errors.
#include "CliTestUtil.h"
#include "GoldenFile.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <set>

namespace {

using graphify::test::readFile;
using graphify::test::run;
using graphify::test::RunResult;
using graphify::test::ScratchDir;
using graphify::test::writeFile;

std::vector<std::string> torchArgs() {
  std::vector<std::string> Args = {"-std=c++17", "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR};
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  llvm::StringRef(GRAPHIFY_TORCH_INCLUDE_DIRS).split(Dirs, '|', -1, false);
  for (llvm::StringRef D : Dirs)
    Args.push_back("-I" + D.str());
  return Args;
}

std::vector<std::string> mockArgs() {
  return {"-std=c++17", "-I" GRAPHIFY_TESTDATA_DIR "/rewrite/include", "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR};
}

/// What a golden file's RUN-ARGS say, as clang-tidy takes it.
struct TidyInvocation {
  std::string Checks = "-*,graphify-*";
  std::vector<std::pair<std::string, std::string>> Options;
};

std::string configOf(const TidyInvocation &T) {
  std::string Config = "{CheckOptions: {";
  for (size_t I = 0; I < T.Options.size(); ++I)
    Config += (I ? ", " : "") + T.Options[I].first + ": '" + T.Options[I].second + "'";
  return Config + "}}";
}

RunResult runTidy(const std::string &File, const TidyInvocation &T, const std::vector<std::string> &CompilerArgs,
                  std::vector<std::string> Extra = {}) {
  std::vector<std::string> Args = {"--load=" GRAPHIFY_TIDY_MODULE, "--checks=" + T.Checks, "--config=" + configOf(T),
                                   "--quiet"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  Args.push_back(File);
  Args.push_back("--");
  Args.insert(Args.end(), CompilerArgs.begin(), CompilerArgs.end());
  return run(GRAPHIFY_CLANG_TIDY, Args, "", {"GRAPHIFY_RULES_DIR=" GRAPHIFY_RULES_DIR});
}

/// The diagnostics of a run, one group per warning (the warning, then its notes), sorted: the
/// two tools order warnings alike only up to ties.
std::vector<std::string> diagnosticGroups(llvm::StringRef Output) {
  static const llvm::Regex Header("^(/[^:]+:[0-9]+:[0-9]+: (warning|error|note): .*)$");
  std::vector<std::string> Groups;
  for (llvm::StringRef Line : llvm::split(Output, '\n')) {
    llvm::SmallVector<llvm::StringRef, 3> M;
    if (!Header.match(Line, &M))
      continue;
    if (M[2] == "note" && !Groups.empty())
      Groups.back() += "\n    " + M[1].str();
    else
      Groups.push_back(M[1].str());
  }
  std::sort(Groups.begin(), Groups.end());
  return Groups;
}

// --- the same findings on the golden files ---------------------------------------------------

struct GoldenCase {
  std::string Path;
  bool Torch = false;
};

void PrintTo(const GoldenCase &C, std::ostream *OS) { *OS << C.Path; }

/// Every golden file that parses without LibTorch (cheap), and two that include it (host reads
/// and the taint's paths through a function, with their notes).
std::vector<GoldenCase> goldenCases() {
  std::vector<GoldenCase> Cases;
  std::string Root = GRAPHIFY_TESTDATA_DIR "/lint";
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef P = It->path();
    if (P.contains(".program")) {
      It.no_push();
      continue;
    }
    if (!P.ends_with(".cpp"))
      continue;
    if (!llvm::StringRef(readFile(P)).contains("<torch/torch.h>"))
      Cases.push_back({P.str(), false});
  }
  Cases.push_back({Root + "/graphify-host-sync/host_sync.cpp", true});
  Cases.push_back({Root + "/graphify-data-dependent-branch/taint_channels.cpp", true});
  std::sort(Cases.begin(), Cases.end(), [](const GoldenCase &A, const GoldenCase &B) { return A.Path < B.Path; });
  return Cases;
}

/// RUN-ARGS as clang-tidy's checks and options; a flag the module has no option for fails the
/// case rather than being dropped.
TidyInvocation invocationFor(const std::vector<std::string> &RunArgs, std::string &Unsupported) {
  TidyInvocation T;
  std::vector<std::string> Regions;
  for (const std::string &A : RunArgs) {
    llvm::StringRef V = A;
    if (V.consume_front("--checks="))
      T.Checks += "," + V.str();
    else if (V.consume_front("--graph-region="))
      Regions.push_back(V.str());
    else if (V.consume_front("--scope="))
      T.Options.push_back({"Scope", V.str()});
    else if (V.consume_front("--profile="))
      T.Options.push_back({"Profile", V.str()});
    else
      Unsupported += A + " ";
  }
  if (!Regions.empty())
    T.Options.push_back({"GraphRegions", llvm::join(Regions, ";")});
  return T;
}

class SameFindings : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(SameFindings, AsGraphifyLint) {
  const GoldenCase &C = GetParam();
  auto Golden = graphify::golden::parseGoldenFile(readFile(C.Path));
  ASSERT_TRUE(bool(Golden)) << llvm::toString(Golden.takeError());
  std::string Unsupported;
  TidyInvocation T = invocationFor(Golden->RunArgs, Unsupported);
  ASSERT_EQ(Unsupported, "") << "RUN-ARGS the module has no option for";
  std::vector<std::string> CompilerArgs =
      C.Torch ? torchArgs() : std::vector<std::string>{"-std=c++17", "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR};

  std::vector<std::string> LintArgs = {"--rules-dir=" GRAPHIFY_RULES_DIR};
  LintArgs.insert(LintArgs.end(), Golden->RunArgs.begin(), Golden->RunArgs.end());
  LintArgs.push_back(C.Path);
  LintArgs.push_back("--");
  LintArgs.insert(LintArgs.end(), CompilerArgs.begin(), CompilerArgs.end());
  RunResult Lint = run(GRAPHIFY_LINT_EXE, LintArgs);
  ASSERT_TRUE(Lint.Code == 0 || Lint.Code == 1) << Lint.Err;

  RunResult Tidy = runTidy(C.Path, T, CompilerArgs);
  ASSERT_EQ(Tidy.Code, 0) << Tidy.Err << Tidy.Out;

  std::vector<std::string> Expected = diagnosticGroups(Lint.Out), Got = diagnosticGroups(Tidy.Out);
  // Both empty would prove nothing: every golden file here expects findings.
  ASSERT_FALSE(Golden->Expected.empty()) << "a golden file without expectations";
  EXPECT_FALSE(Expected.empty()) << Lint.Err;
  EXPECT_EQ(llvm::join(Got, "\n"), llvm::join(Expected, "\n")) << "clang-tidy's stderr:\n" << Tidy.Err;
}

INSTANTIATE_TEST_SUITE_P(Golden, SameFindings, ::testing::ValuesIn(goldenCases()),
                         [](const ::testing::TestParamInfo<GoldenCase> &I) {
                           std::string Name = llvm::sys::path::parent_path(I.param.Path).str();
                           Name = llvm::sys::path::filename(Name).str() + "_" +
                                  llvm::sys::path::stem(I.param.Path).str();
                           for (char &Ch : Name)
                             if (!llvm::isAlnum(Ch))
                               Ch = '_';
                           return Name;
                         });

// --- fix-its -----------------------------------------------------------------------------------

struct FixCase {
  std::string Path, ExpectedPath;
};

void PrintTo(const FixCase &C, std::ostream *OS) { *OS << C.Path; }

/// The rewrite golden cases that parse with the mock LibTorch header and have an expected text.
std::vector<FixCase> fixCases() {
  std::vector<FixCase> Cases;
  std::string Root = GRAPHIFY_TESTDATA_DIR "/rewrite";
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef P = It->path();
    if (!P.ends_with(".cpp") || P.ends_with(".expected.cpp") || P.contains("/include/"))
      continue;
    std::string Expected = P.drop_back(4).str() + ".expected.cpp";
    if (llvm::sys::fs::exists(Expected) && !llvm::StringRef(readFile(P)).contains("<torch/torch.h>"))
      Cases.push_back({P.str(), Expected});
  }
  std::sort(Cases.begin(), Cases.end(), [](const FixCase &A, const FixCase &B) { return A.Path < B.Path; });
  return Cases;
}

std::string scratchCopy(ScratchDir &Dir, const std::string &Path) {
  return Dir.file(llvm::sys::path::filename(Path), readFile(Path));
}

/// As the rewrite golden runner lints (every function a region), with the fixes formatted as
/// graphify-lint formats them (the .clang-format above the file, else LLVM's style).
TidyInvocation everywhere() {
  TidyInvocation T;
  T.Options = {{"Scope", "all"}};
  return T;
}

class TidyFix : public ::testing::TestWithParam<FixCase> {};

TEST_P(TidyFix, ClangTidyFixGivesTheExpectedText) {
  const FixCase &C = GetParam();
  ScratchDir Dir;
  std::string Copy = scratchCopy(Dir, C.Path);
  RunResult R = runTidy(Copy, everywhere(), mockArgs(), {"--fix", "--format-style=llvm"});
  ASSERT_EQ(R.Code, 0) << R.Err << R.Out;
  EXPECT_EQ(readFile(Copy), readFile(C.ExpectedPath)) << R.Err << R.Out;
}

INSTANTIATE_TEST_SUITE_P(Rewrite, TidyFix, ::testing::ValuesIn(fixCases()),
                         [](const ::testing::TestParamInfo<FixCase> &I) {
                           std::string Name = llvm::sys::path::filename(llvm::sys::path::parent_path(I.param.Path)).str() +
                                              "_" + llvm::sys::path::stem(I.param.Path).str();
                           for (char &Ch : Name)
                             if (!llvm::isAlnum(Ch))
                               Ch = '_';
                           return Name;
                         });

TEST(TidyModule, ExportedFixesApplyWithClangApplyReplacements) {
  const std::string Case = GRAPHIFY_TESTDATA_DIR "/rewrite/if-return-to-where/mock_forms.cpp";
  ScratchDir Dir;
  std::string Copy = scratchCopy(Dir, Case);
  std::string Fixes = Dir.Path + "/fixes.yaml";
  RunResult R = runTidy(Copy, everywhere(), mockArgs(), {"--export-fixes=" + Fixes});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(readFile(Copy), readFile(Case)) << "--export-fixes alone changes nothing";
  RunResult Apply = run(GRAPHIFY_APPLY_REPLACEMENTS, {"--format", "--style=llvm", Dir.Path});
  ASSERT_EQ(Apply.Code, 0) << Apply.Err;
  EXPECT_EQ(readFile(Copy), readFile(Case.substr(0, Case.size() - 4) + ".expected.cpp"));
}

// --- the module, its options and their errors ------------------------------------------------

TEST(TidyModule, ListsEveryGraphifyCheck) {
  RunResult Lint = run(GRAPHIFY_LINT_EXE, {"--rules-dir=" GRAPHIFY_RULES_DIR, "--list-checks"});
  ASSERT_EQ(Lint.Code, 0) << Lint.Err;
  RunResult Tidy = run(GRAPHIFY_CLANG_TIDY, {"--load=" GRAPHIFY_TIDY_MODULE, "--checks=-*,graphify-*", "--list-checks"});
  ASSERT_EQ(Tidy.Code, 0) << Tidy.Err;
  std::set<std::string> Listed;
  for (llvm::StringRef Line : llvm::split(Tidy.Out, '\n'))
    if (Line.trim().starts_with("graphify-"))
      Listed.insert(Line.trim().str());
  static const llvm::Regex Id("(graphify-[a-z-]+[a-z])");
  std::set<std::string> Ids;
  for (llvm::StringRef Line : llvm::split(Lint.Out, '\n')) {
    llvm::SmallVector<llvm::StringRef, 2> M;
    if (Line.trim().starts_with("graphify-") && Id.match(Line, &M))
      Ids.insert(M[1].str());
  }
  ASSERT_FALSE(Ids.empty()) << Lint.Out;
  EXPECT_EQ(llvm::join(Listed, ","), llvm::join(Ids, ",")) << Tidy.Out;
}

const char *HostRead = "namespace mylib { float fetch(int slot); }\n"
                       "float first(int slot) { return mylib::fetch(slot); }\n";

TEST(TidyModule, RulePacksOptionAddsThePacksApis) {
  ScratchDir Dir;
  std::string Pack = Dir.file("mylib.yaml", "pack: mylib\n"
                                  "doc: \"a library that reads device values on the host\"\n"
                                  "namespaces: [mylib]\n"
                                  "entries:\n"
                                  "  - {name: fetch, kind: function, tags: [host_sync], doc: \"reads one value\"}\n");
  std::string Source = Dir.file("m.cpp", HostRead);
  TidyInvocation T;
  T.Options = {{"Scope", "all"}, {"RulePacks", Pack}};
  RunResult R = runTidy(Source, T, {"-std=c++17"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("m.cpp:2:"), std::string::npos) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("[graphify-host-sync]"), std::string::npos) << R.Out;

  T.Options = {{"Scope", "all"}};
  RunResult Without = runTidy(Source, T, {"-std=c++17"});
  EXPECT_EQ(Without.Out.find("[graphify-host-sync]"), std::string::npos) << "no pack, no API: " << Without.Out;
}

TEST(TidyModule, GraphRegionsAndProfileOptionsChooseWhatIsReported) {
  ScratchDir Dir;
  std::string Read = Dir.file("read.cpp", "#include \"mock_torch.h\"\n"
                                           "float first(torch::Tensor x) { return x.item<float>(); }\n");
  EXPECT_EQ(runTidy(Read, TidyInvocation(), mockArgs()).Out.find("[graphify-host-sync]"), std::string::npos)
      << "not a graph region";
  TidyInvocation Region;
  Region.Options = {{"GraphRegions", "other;first"}};
  RunResult InRegion = runTidy(Read, Region, mockArgs());
  EXPECT_NE(InRegion.Out.find("read.cpp:2:41: warning: 'item' copies one element to the host"), std::string::npos)
      << InRegion.Out << InRegion.Err;

  // The trace profile keeps what changes traced results: a capture-unsafe call is not that.
  std::string Capture = Dir.file("capture.cpp", graphify::test::captureWithSync());
  EXPECT_NE(runTidy(Capture, TidyInvocation(), {"-std=c++17"}).Out.find("[graphify-capture-unsafe-api]"),
            std::string::npos);
  TidyInvocation Trace;
  Trace.Options = {{"Profile", "trace"}};
  RunResult Traced = runTidy(Capture, Trace, {"-std=c++17"});
  EXPECT_EQ(Traced.Code, 0) << Traced.Err;
  EXPECT_EQ(Traced.Out.find("[graphify-"), std::string::npos) << Traced.Out;
}

TEST(TidyModule, StaticBoundsOptionLetsTheLoopBeRewritten) {
  ScratchDir Dir;
  std::string Loop = Dir.file("loop.cpp", "#include \"mock_torch.h\"\n"
                                           "torch::Tensor refine(torch::Tensor h, torch::Tensor w, torch::Tensor lengths) {\n"
                                           "  const int64_t len = lengths.max().item<int64_t>();\n"
                                           "  for (int64_t t = 0; t < len; ++t)\n"
                                           "    h = torch::matmul(h, w) + h;\n"
                                           "  return h;\n"
                                           "}\n");
  RunResult Unbounded = runTidy(Loop, everywhere(), mockArgs());
  EXPECT_NE(Unbounded.Out.find("no fix offered: the loop has no static bound"), std::string::npos) << Unbounded.Out;
  TidyInvocation Bounded = everywhere();
  Bounded.Options.push_back({"StaticBounds", "refine::len=16"});
  RunResult R = runTidy(Loop, Bounded, mockArgs(), {"--fix"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("note: fix: the loop runs to its static bound"), std::string::npos) << R.Out;
  EXPECT_NE(readFile(Loop).find("t < 16"), std::string::npos) << readFile(Loop);
}

TEST(TidyModule, MalformedOptionsAndPacksAreErrors) {
  ScratchDir Dir;
  std::string Source = Dir.file("m.cpp", HostRead);
  TidyInvocation T;
  T.Options = {{"Scope", "everything"}};
  RunResult R = runTidy(Source, T, {"-std=c++17"});
  EXPECT_NE(R.Code, 0);
  EXPECT_NE((R.Out + R.Err).find("invalid scope 'everything' (expected graph|all)"), std::string::npos)
      << R.Out << R.Err;

  T.Options = {{"StaticBounds", "refine::len=many"}};
  R = runTidy(Source, T, {"-std=c++17"});
  EXPECT_NE(R.Code, 0);
  EXPECT_NE((R.Out + R.Err).find("the static bound of 'refine::len' must be a positive integer"), std::string::npos)
      << R.Out << R.Err;

  T.Options = {{"RulesDir", Dir.Path}};
  R = runTidy(Source, T, {"-std=c++17"});
  EXPECT_NE(R.Code, 0);
  EXPECT_NE((R.Out + R.Err).find("cannot load graphify's rule packs: "), std::string::npos) << R.Out << R.Err;
  EXPECT_NE((R.Out + R.Err).find(Dir.Path), std::string::npos) << "names the directory\n" << R.Out << R.Err;

  std::string Broken = Dir.file("broken.yaml", "pack: broken\nentries:\n  - {name: [unclosed\n");
  T.Options = {{"RulePacks", Broken}};
  R = runTidy(Source, T, {"-std=c++17"});
  EXPECT_NE(R.Code, 0);
  EXPECT_TRUE(llvm::Regex("broken\\.yaml:[0-9]+:[0-9]+: ").match(R.Out + R.Err))
      << "file:line:col of the malformed YAML\n" << R.Out << R.Err;
}

TEST(TidyModule, AUnitThatDoesNotCompileGetsOnlyTheCompilerErrors) {
  // As graphify-lint: nothing is analysed in a unit that did not compile, so no finding can rest
  // on a half-built AST; clang-tidy reports the error and exits non-zero.
  ScratchDir Dir;
  const std::string Capture = graphify::test::captureWithSync();
  std::string Good = Dir.file("good.cpp", Capture);
  RunResult Compiles = runTidy(Good, TidyInvocation(), {"-std=c++17"});
  EXPECT_NE(Compiles.Out.find("[graphify-capture-unsafe-api]"), std::string::npos) << Compiles.Out;
  std::string Source = Dir.file("m.cpp", Capture + "int broken() { return undeclared; }\n");
  RunResult R = runTidy(Source, TidyInvocation(), {"-std=c++17"});
  EXPECT_NE(R.Code, 0);
  EXPECT_NE(R.Out.find("use of undeclared identifier 'undeclared' [clang-diagnostic-error]"), std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("[graphify-"), std::string::npos) << R.Out;
}

TEST(TidyModule, FindingsInHeadersFollowTheHeaderFilterAsGraphifyLints) {
  // A capture window in the main file calls a helper of a project header that synchronises: both
  // tools hold the finding back without a header filter and show it, the same, with one.
  ScratchDir Dir;
  Dir.file("helper.h", std::string("#pragma once\n") + graphify::test::CudaCapturePrototypes +
                           "inline void flushAll() { cudaDeviceSynchronize(); }\n");
  std::string Main = Dir.file("main.cpp", "#include \"helper.h\"\n"
                                          "void record(cudaStream_t s, cudaGraph_t *g) {\n"
                                          "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                                          "  flushAll();\n"
                                          "  cudaStreamEndCapture(s, g);\n"
                                          "}\n");
  RunResult Held = runTidy(Main, TidyInvocation(), {"-std=c++17"});
  EXPECT_EQ(Held.Out.find("warning:"), std::string::npos) << Held.Out;
  RunResult Lint = run(GRAPHIFY_LINT_EXE, {"--rules-dir=" GRAPHIFY_RULES_DIR, "--header-filter=.*", Main, "--", "-std=c++17"});
  RunResult Tidy = runTidy(Main, TidyInvocation(), {"-std=c++17"}, {"--header-filter=.*"});
  std::vector<std::string> Expected = diagnosticGroups(Lint.Out);
  ASSERT_EQ(Expected.size(), 1u) << Lint.Out << Lint.Err;
  EXPECT_NE(Expected[0].find("helper.h:8:26: warning: 'cudaDeviceSynchronize'"), std::string::npos) << Expected[0];
  EXPECT_EQ(llvm::join(diagnosticGroups(Tidy.Out), "\n"), Expected[0]) << Tidy.Err;
}

TEST(TidyModule, DumpConfigShowsTheOptions) {
  TidyInvocation T;
  T.Options = {{"GraphRegions", "*::decode"}};
  RunResult R = run(GRAPHIFY_CLANG_TIDY, {"--load=" GRAPHIFY_TIDY_MODULE, "--checks=-*,graphify-host-sync",
                                          "--config=" + configOf(T), "--dump-config"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  for (const char *Key : {"graphify-host-sync.GraphRegions", "graphify-host-sync.Scope", "graphify-host-sync.Profile",
                          "graphify-host-sync.RulePacks", "graphify-host-sync.StaticBounds"})
    EXPECT_NE(R.Out.find(Key), std::string::npos) << Key << "\n" << R.Out;
  EXPECT_NE(R.Out.find("'*::decode'"), std::string::npos) << R.Out;
}

} // namespace
