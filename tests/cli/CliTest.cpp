// End-to-end tests of the graphify-lint binary: exit codes, help/version/list/explain/dump,
// compile errors, configuration errors, compile databases, -j ordering, NOLINT and formats on
// real findings, fixes through the rewriter, and an installed copy.
#include "CliTestUtil.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/Regex.h>

using namespace graphify::test;

namespace {

bool checksAvailable() {
  static bool Available = lint({"--list-checks"}).Out.find("graphify-host-sync") != std::string::npos;
  return Available;
}

// The checks are part of every build; a binary without them must fail these tests, not skip them.
#define REQUIRE_CHECKS() ASSERT_TRUE(checksAvailable()) << "graphify-lint lists no checks"

// A file whose graph region calls a capture-unsafe CUDA function, declared locally so it parses
// without the CUDA toolkit.
const char *SyncSource = R"cpp(void cudaDeviceSynchronize();
void step() {
  cudaDeviceSynchronize();
}
)cpp";

TEST(Cli, VersionNamesVersionsAndDirectories) {
  RunResult R = lint({"--version"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_NE(R.Out.find("graphify-lint version "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("LLVM version 19"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("clang resource dir: /"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("rules dir: "), std::string::npos) << R.Out;
}

TEST(Cli, HelpListsEveryFlag) {
  RunResult R = lint({"--help"});
  EXPECT_EQ(R.Code, 0);
  for (const char *Flag : {"-p <build-dir>", "-j <N>", "--checks=", "--profile=", "--scope=", "--config=", "--rules=",
                           "--rules-dir=", "--format=", "--color=", "--list-checks", "--explain=", "--dump-config",
                           "--version", "--fix", "--diff", "--export-fixes=", "--resource-dir=", "--quiet", "--pch=",
                           "--graph-region=", "--whole-program=", "--extra-arg=", "--extra-arg-before=",
                           "--exit-zero-on-warnings"})
    EXPECT_NE(R.Out.find(Flag), std::string::npos) << Flag;
  EXPECT_NE(R.Out.find("EXIT STATUS"), std::string::npos);
}

TEST(Cli, ListChecksNamesRulePacks) {
  RunResult R = lint({"--list-checks"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("Rule packs loaded:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("cuda.yaml"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("libtorch.yaml"), std::string::npos) << R.Out;
}

TEST(Cli, ListChecksHonoursChecksFilter) {
  REQUIRE_CHECKS();
  RunResult R = lint({"--list-checks", "--checks=-*,graphify-host-sync"});
  EXPECT_EQ(R.Code, 0);
  std::string Enabled = R.Out.substr(0, R.Out.find("Disabled checks:"));
  EXPECT_NE(Enabled.find("graphify-host-sync"), std::string::npos) << R.Out;
  EXPECT_EQ(Enabled.find("graphify-dynamic-shape"), std::string::npos) << R.Out;
  for (const char *Id : {"graphify-data-dependent-branch", "graphify-data-dependent-loop", "graphify-dynamic-shape",
                         "graphify-data-dependent-size", "graphify-host-sync", "graphify-capture-unsafe-api"})
    EXPECT_NE(R.Out.find(Id), std::string::npos) << Id;
}

TEST(Cli, ExplainKnownAndUnknownCheck) {
  RunResult Bad = lint({"--explain=graphify-host-sinc"});
  EXPECT_EQ(Bad.Code, 2);
  EXPECT_NE(Bad.Err.find("unknown check 'graphify-host-sinc'"), std::string::npos) << Bad.Err;
  REQUIRE_CHECKS();
  EXPECT_NE(Bad.Err.find("did you mean 'graphify-host-sync'"), std::string::npos) << Bad.Err;
  RunResult Good = lint({"--explain=graphify-host-sync"});
  EXPECT_EQ(Good.Code, 0);
  EXPECT_EQ(Good.Out.rfind("graphify-host-sync: ", 0), 0u) << Good.Out;
  EXPECT_NE(Good.Out.find("How to fix: "), std::string::npos) << Good.Out;
}

TEST(Cli, DumpConfigMergesFileAndFlags) {
  ScratchDir D;
  D.file(".graphify.yaml", "Checks: '-*,graphify-host-sync'\nProfile: trace\nGraphRegions: ['*::step']\n");
  std::string Src = D.file("src/a.cpp", "int x;\n");
  RunResult R = lint({"--dump-config", "--checks=graphify-dynamic-shape", "--scope=all", Src});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("Checks: \"-*,graphify-host-sync,graphify-dynamic-shape\""), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("Profile: trace"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("Scope: all"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("GraphRegions: [\"*::step\"]"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find(D.Path + "/.graphify.yaml"), std::string::npos) << R.Out;
}

TEST(Cli, GraphRegionFlagsAddToTheFilesRegions) {
  ScratchDir D;
  D.file(".graphify.yaml", "GraphRegions: ['*::step']\n");
  std::string Src = D.file("src/a.cpp", "int x;\n");
  RunResult R = lint({"--dump-config", "--graph-region=Engine::decode*", "--graph-region", "run", Src});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("GraphRegions: [\"*::step\", \"Engine::decode*\", \"run\"]"), std::string::npos) << R.Out;
}

TEST(Cli, GraphRegionFlagMakesAFunctionARegion) {
  ScratchDir D;
  std::string Src = D.file("a.cpp", SyncSource);
  RunResult Outside = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(Outside.Code, 0) << Outside.Out << Outside.Err;
  RunResult Inside = lint({Src, "--graph-region=step", "--", "-std=c++17"});
  EXPECT_EQ(Inside.Code, 1) << Inside.Out << Inside.Err;
  EXPECT_NE(Inside.Out.find("[graphify-capture-unsafe-api]"), std::string::npos) << Inside.Out;
}

// A region glob that names nothing is most likely misspelt, and the code it meant went unchecked:
// a warning in text (even with --quiet), a list in the JSON summary; the exit status is that of
// the findings. Braces list alternatives.
TEST(Cli, RegionGlobsThatNameNothingAreReported) {
  ScratchDir D;
  std::string Src = D.file("a.cpp", SyncSource);
  RunResult Typo = lint({Src, "--graph-region=stpe", "--graph-region={step,run}", "--quiet", "--", "-std=c++17"});
  EXPECT_EQ(Typo.Code, 1) << Typo.Out << Typo.Err;
  EXPECT_NE(Typo.Err.find("graphify-lint: warning: the graph-region glob 'stpe' names no function defined in the "
                          "checked files"),
            std::string::npos)
      << Typo.Err;
  EXPECT_EQ(Typo.Err.find("'{step,run}'"), std::string::npos) << Typo.Err;
  RunResult Json = lint({Src, "--graph-region=stpe", "--format=json", "--", "-std=c++17"});
  EXPECT_EQ(Json.Code, 0) << Json.Err;
  EXPECT_NE(Json.Err.find("\"unmatched_region_globs\":[\"stpe\"]"), std::string::npos) << Json.Err;
  EXPECT_EQ(Json.Err.find("warning: the graph-region glob"), std::string::npos) << Json.Err;
}

TEST(Cli, DumpConfigFromConfigText) {
  RunResult R = lint({"--dump-config", "--config={Scope: all, WarningsAsErrors: 'graphify-*'}"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("Scope: all"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("WarningsAsErrors: \"graphify-*\""), std::string::npos) << R.Out;
}

/// The advice notes ("by hand: ...", "no fix offered: ...") printed at line `Line`.
static std::string adviceNotesOn(const std::string &Printed, int Line) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Printed).split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains(":" + std::to_string(Line) + ":") && L.contains(": note: ") &&
        (L.contains("by hand: ") || L.contains("no fix offered: ")))
      Out += L.str() + "\n";
  return Out;
}

/// stderr without the closing summary line (its seconds differ between runs).
static std::string withoutSummary(const std::string &Err) {
  size_t At = Err.rfind("graphify-lint: ");
  return At == std::string::npos ? Err : Err.substr(0, At);
}

TEST(Cli, CleanFileSaysOnlyWhatWasChecked) {
  ScratchDir D;
  std::string Src = D.file("clean.cpp", "#include <cstddef>\nstd::size_t twice(std::size_t n) { return 2 * n; }\n");
  RunResult R = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(R.Out, "");
  EXPECT_TRUE(llvm::Regex("^graphify-lint: 1 file checked, 0 findings, [0-9]+\\.[0-9] s\n$").match(R.Err)) << R.Err;
  RunResult Quiet = lint({"--quiet", Src, "--", "-std=c++17"});
  EXPECT_EQ(Quiet.Err, "");
}

TEST(Cli, SummaryCountsFilesFindingsPerCheckAndSuppressions) {
  ScratchDir D;
  std::string A = D.file("a.cpp", "void cudaDeviceSynchronize();\nvoid f() { cudaDeviceSynchronize(); }\n"
                                  "void g() { cudaDeviceSynchronize(); } // NOLINT\n");
  std::string B = D.file("b.cpp", "int b; // NOLINTEND\n");
  std::string Broken = D.file("broken.cpp", "int broken(\n");
  RunResult R = lint({"--scope=all", A, B, Broken, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2) << R.Err;
  EXPECT_NE(R.Err.find("graphify-lint: 2 files checked, 1 file did not compile, 2 findings "
                       "(graphify-capture-unsafe-api: 1, graphify-nolint: 1), 1 suppressed by NOLINT, "),
            std::string::npos)
      << R.Err;
  RunResult Json = lint({"--scope=all", "--format=json", A, B, "--", "-std=c++17"});
  size_t Brace = Json.Err.rfind("{\"summary\"");
  ASSERT_NE(Brace, std::string::npos) << Json.Err;
  auto V = llvm::json::parse(llvm::StringRef(Json.Err).substr(Brace).trim());
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *S = V->getAsObject()->getObject("summary");
  EXPECT_EQ(S->getInteger("files"), 2);
  EXPECT_EQ(S->getInteger("not_parsed"), 0);
  EXPECT_EQ(S->getInteger("findings"), 2);
  EXPECT_EQ(S->getObject("findings_per_check")->getInteger("graphify-capture-unsafe-api"), 1);
  EXPECT_EQ(S->getInteger("suppressed"), 1);
  EXPECT_TRUE(S->getNumber("seconds"));
  auto Out = llvm::json::parse(Json.Out);
  ASSERT_TRUE(bool(Out)) << "stdout stays one JSON document: " << llvm::toString(Out.takeError());
}

TEST(Cli, DefaultsToCxx17WithANote) {
  ScratchDir D;
  std::string Src = D.file("clean.cpp", "#include <optional>\nstd::optional<int> f() { return 1; }\n");
  RunResult R = lint({Src});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Err.find("assuming -std=c++17"), std::string::npos) << R.Err;
}

/// A capture window whose synchronisation exists only when the compiler command defines both
/// macros: a finding proves that the command's -D and --extra-arg reached the parse.
const std::string MacroGatedCapture = std::string(graphify::test::CudaCapturePrototypes) +
                                      "void record(cudaStream_t s, cudaGraph_t *g) {\n"
                                      "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                                      "#if defined(FROM_COMMAND) && defined(FROM_EXTRA_ARG)\n"
                                      "  cudaDeviceSynchronize();\n"
                                      "#endif\n"
                                      "  cudaStreamEndCapture(s, g);\n"
                                      "}\n";

TEST(Cli, TakesAWholeCompileCommandAsCMakeGivesIt) {
  // CMake's CXX_CLANG_TIDY runs `<tool> --extra-arg-before=--driver-mode=g++ <src> -- <compiler> <flags> -c <src>`.
  ScratchDir D;
  std::string Src = D.file("m.cpp", MacroGatedCapture);
  RunResult R = lint({"--extra-arg-before=--driver-mode=g++", "--extra-arg=-DFROM_EXTRA_ARG", Src, "--", "/usr/bin/c++",
                      "-DFROM_COMMAND", "-MD", "-MT", "m.o", "-MF", D.Path + "/m.o.d", "-o", D.Path + "/m.o", "-c", Src});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find("m.cpp:10:3: warning: 'cudaDeviceSynchronize'"), std::string::npos) << R.Out << R.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(D.Path + "/m.o")) << "only a syntax check";
  RunResult Without = lint({Src, "--", "/usr/bin/c++", "-DFROM_COMMAND", "-c", Src});
  EXPECT_EQ(Without.Code, 0) << "without --extra-arg the call is not compiled in: " << Without.Out << Without.Err;
}

TEST(Cli, ExitZeroOnWarningsFailsOnlyOnErrors) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", MacroGatedCapture);
  std::vector<std::string> Flags = {"--", "-DFROM_COMMAND", "-DFROM_EXTRA_ARG"};
  auto With = [&](std::vector<std::string> Args) {
    Args.push_back(Src);
    Args.insert(Args.end(), Flags.begin(), Flags.end());
    return lint(Args);
  };
  RunResult Warned = With({"--exit-zero-on-warnings"});
  EXPECT_EQ(Warned.Code, 0) << Warned.Err;
  EXPECT_NE(Warned.Out.find("warning: 'cudaDeviceSynchronize'"), std::string::npos) << Warned.Out;
  RunResult AsError = With({"--exit-zero-on-warnings", "--warnings-as-errors=graphify-*"});
  EXPECT_EQ(AsError.Code, 1) << AsError.Out;
  RunResult Default = With({});
  EXPECT_EQ(Default.Code, 1) << Default.Out;
}

TEST(Cli, BadFlagIsUsageError) {
  RunResult R = lint({"--formt=json", "x.cpp"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("unknown option '--formt=json'; did you mean '--format'?"), std::string::npos) << R.Err;
  RunResult V = lint({"--format=xml", "x.cpp"});
  EXPECT_EQ(V.Code, 2);
  EXPECT_NE(V.Err.find("invalid value 'xml' for --format"), std::string::npos) << V.Err;
  RunResult J = lint({"-j", "many", "x.cpp"});
  EXPECT_EQ(J.Code, 2);
  RunResult None = lint({"--", "-std=c++17"});
  EXPECT_EQ(None.Code, 2);
  EXPECT_NE(None.Err.find("no input files"), std::string::npos) << None.Err;
  RunResult Missing = lint({"/nonexistent/x.cpp", "--"});
  EXPECT_EQ(Missing.Code, 2);
}

TEST(Cli, UnparseableFileExitsTwoWithClangErrors) {
  ScratchDir D;
  std::string Src = D.file("bad.cpp", std::string(SyncSource) + "int broken() { return undeclared_x; }\n");
  RunResult R = lint({Src, "--scope=all", "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(Src + ":5:23: error: use of undeclared identifier 'undeclared_x'"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("1 error generated."), std::string::npos) << R.Err;
  EXPECT_EQ(R.Out, "") << "no findings for a file that does not compile";
}

TEST(Cli, MalformedConfigIsLocated) {
  ScratchDir D;
  D.file(".graphify.yaml", "Checks: 'graphify-*'\nChecs: 'x'\n");
  std::string Src = D.file("a.cpp", "int x;\n");
  RunResult R = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(D.Path + "/.graphify.yaml:2:1: error: "), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("did you mean 'Checks'"), std::string::npos) << R.Err;

  ScratchDir T;
  T.file(".graphify.yaml", "Checks: 'graphify-*'\nProfile: [trace]\n");
  std::string Src2 = T.file("a.cpp", "int x;\n");
  RunResult R2 = lint({Src2, "--", "-std=c++17"});
  EXPECT_EQ(R2.Code, 2);
  EXPECT_NE(R2.Err.find(T.Path + "/.graphify.yaml:2:10: error: "), std::string::npos) << R2.Err;

  RunResult R3 = lint({"--dump-config", "--config=Profile: cuda-grph"});
  EXPECT_EQ(R3.Code, 2);
  EXPECT_NE(R3.Err.find("--config:1:10: error: invalid profile 'cuda-grph'"), std::string::npos) << R3.Err;
  EXPECT_NE(R3.Err.find("did you mean 'cuda-graph'"), std::string::npos) << R3.Err;
}

TEST(Cli, BadRulePackIsConfigurationError) {
  ScratchDir D;
  std::string Pack = D.file("extra.yaml", "pack: extra\nentries:\n  - {name: foo, tags: [host_snyc]}\n");
  std::string Src = D.file("a.cpp", "int x;\n");
  RunResult R = lint({"--rules=" + Pack, Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(Pack + ":"), std::string::npos) << R.Err;
}

TEST(Cli, UnmatchedNolintRegionsAreReported) {
  ScratchDir D;
  std::string Src = D.file("n.cpp", "int a; // NOLINTBEGIN(graphify-host-sync)\nint b; // NOLINTEND\n");
  RunResult R = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Out.find(Src + ":1:11: warning: unmatched 'NOLINTBEGIN' comment"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find(Src + ":2:11: warning: unmatched 'NOLINTEND' comment"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("2 warnings generated."), std::string::npos) << R.Err;
}

TEST(Cli, CompileCommandsFromBuildDir) {
  ScratchDir D;
  // Parses only with -DGRAPHIFY_FROM_DB, which only the database provides.
  std::string Src = D.file("src/m.cpp", "#ifndef GRAPHIFY_FROM_DB\n#error no database flags\n#endif\nint m;\n");
  D.file("build/compile_commands.json",
         "[{\"directory\": \"" + D.Path + "/build\", \"file\": \"../src/m.cpp\", \"command\": "
         "\"/usr/bin/c++ -std=c++17 -DGRAPHIFY_FROM_DB -o m.o -c ../src/m.cpp\"}]");
  RunResult R = lint({"-p", D.Path + "/build", Src});
  EXPECT_EQ(R.Code, 0) << R.Err;
  RunResult All = lint({"-p=" + D.Path + "/build"}); // no files: every file of the database
  EXPECT_EQ(All.Code, 0) << All.Err;
  RunResult Without = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(Without.Code, 2);
  EXPECT_NE(Without.Err.find("no database flags"), std::string::npos) << Without.Err;
  RunResult Missing = lint({"-p", D.Path + "/nowhere", Src});
  EXPECT_EQ(Missing.Code, 2);
}

TEST(Cli, RelativeFilesWithABuildDirMeanTheCurrentDirectory) {
  ScratchDir D;
  D.file("src/m.cpp", "#ifndef GRAPHIFY_FROM_DB\n#error no database flags\n#endif\nint m; // NOLINTEND\n");
  D.file("build/compile_commands.json",
         "[{\"directory\": \"" + D.Path + "/build\", \"file\": \"" + D.Path + "/src/m.cpp\", \"command\": "
         "\"/usr/bin/c++ -std=c++17 -DGRAPHIFY_FROM_DB -c " + D.Path + "/src/m.cpp\"}]");
  // As clang-tidy: `-p build src/m.cpp` from the project root, not from build/.
  RunResult R = lint({"-p", "build", "src/m.cpp"}, D.Path);
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find("src/m.cpp:4:11: warning: unmatched 'NOLINTEND'"), std::string::npos) << R.Out << R.Err;
}

TEST(Cli, ParallelOutputKeepsInputOrder) {
  ScratchDir D;
  std::vector<std::string> Args = {"-j", "2"};
  for (int I = 0; I < 6; ++I)
    Args.push_back(D.file("f" + std::to_string(I) + ".cpp",
                          std::string(I % 2 ? "" : "#include <vector>\n#include <map>\n") + "int v" + std::to_string(I) +
                              "; // NOLINTEND\n"));
  Args.push_back("--");
  Args.push_back("-std=c++17");
  RunResult Parallel = lint(Args, "", {"XDG_CACHE_HOME=" + D.Path + "/cache"});
  Args[1] = "1";
  RunResult Serial = lint(Args, "", {"XDG_CACHE_HOME=" + D.Path + "/cache"});
  EXPECT_EQ(Parallel.Code, 1);
  EXPECT_EQ(Parallel.Out, Serial.Out);
  size_t Last = 0;
  for (int I = 0; I < 6; ++I) {
    size_t At = Parallel.Out.find("f" + std::to_string(I) + ".cpp:");
    ASSERT_NE(At, std::string::npos);
    EXPECT_GE(At, Last);
    Last = At;
  }
}

TEST(Cli, CheckFindingsAndFiltering) {
  REQUIRE_CHECKS();
  ScratchDir D;
  std::string Src = D.file("s.cpp", SyncSource);
  RunResult R = lint({"--scope=all", Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find(Src + ":3:3: warning: "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("[graphify-capture-unsafe-api]"), std::string::npos) << R.Out;
  RunResult Off = lint({"--scope=all", "--checks=-graphify-capture-unsafe-api,-graphify-host-sync", Src, "--", "-std=c++17"});
  EXPECT_EQ(Off.Code, 0) << Off.Out;
  RunResult Only = lint({"--scope=all", "--checks=-*,graphify-capture-*", Src, "--", "-std=c++17"});
  EXPECT_EQ(Only.Code, 1);
  EXPECT_EQ(Only.Out.find("[graphify-host-sync]"), std::string::npos) << Only.Out;
  RunResult Graph = lint({Src, "--", "-std=c++17"}); // step() is not a graph region
  EXPECT_EQ(Graph.Code, 0) << Graph.Out;
  RunResult Regions = lint({"--config={GraphRegions: [step]}", Src, "--", "-std=c++17"});
  EXPECT_EQ(Regions.Code, 1) << Regions.Out;
  RunResult AsError = lint({"--scope=all", "--warnings-as-errors=graphify-capture-*", Src, "--", "-std=c++17"});
  EXPECT_EQ(AsError.Code, 1);
  EXPECT_NE(AsError.Out.find(": error: "), std::string::npos) << AsError.Out;
}

TEST(Cli, HeaderFilterAndTraceProfile) {
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("sync.hpp", "void cudaDeviceSynchronize();\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  std::string Src = D.file("main.cpp", "#include \"sync.hpp\"\nvoid step() { helper(); }\n");
  RunResult MainOnly = lint({"--scope=all", Src, "--", "-std=c++17"});
  EXPECT_EQ(MainOnly.Code, 0) << MainOnly.Out;
  RunResult Headers = lint({"--scope=all", "--header-filter=.*\\.hpp$", Src, "--", "-std=c++17"});
  EXPECT_EQ(Headers.Code, 1) << Headers.Out;
  EXPECT_NE(Headers.Out.find(D.Path + "/sync.hpp:3:3: warning: "), std::string::npos) << Headers.Out;
  // capture-unsafe-api is not part of the trace profile.
  RunResult Trace = lint({"--scope=all", "--profile=trace", "--checks=-*,graphify-capture-unsafe-api",
                          "--header-filter=.*", Src, "--", "-std=c++17"});
  EXPECT_EQ(Trace.Code, 0) << Trace.Out;
}

// A helper in a header of another folder of the same checkout is the project's: followed from the
// region, and its finding shown (region code); outside a checkout the file's folder is the project.
TEST(Cli, CheckoutHeadersAreTheProjects) {
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("private/sync.hpp", "void cudaDeviceSynchronize();\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  std::string Src = D.file("public/main.cpp", "#include \"../private/sync.hpp\"\nvoid step() { helper(); }\n");
  RunResult Alone = lint({"--graph-region=step", Src, "--", "-std=c++17"});
  EXPECT_EQ(Alone.Code, 0) << Alone.Out << Alone.Err;
  ASSERT_FALSE(llvm::sys::fs::create_directory(D.Path + "/.git"));
  RunResult Checkout = lint({"--graph-region=step", Src, "--", "-std=c++17"});
  EXPECT_EQ(Checkout.Code, 1) << Checkout.Out << Checkout.Err;
  EXPECT_NE(Checkout.Out.find("private/sync.hpp:3:3: warning: "), std::string::npos) << Checkout.Out;
  // Every function is checked under --scope=all: the header's own code is counted, not shown.
  RunResult All = lint({"--scope=all", Src, "--", "-std=c++17"});
  EXPECT_NE(All.Err.find("1 finding in headers not shown"), std::string::npos) << All.Out << All.Err;
  // --project-root still names the project.
  RunResult Named = lint({"--graph-region=step", "--project-root=" + D.Path + "/public", Src, "--", "-std=c++17"});
  EXPECT_EQ(Named.Code, 0) << Named.Out << Named.Err;
}

// A region written in a project header is shown with its advice without --header-filter (the
// recipe and the refusals, as in the main file); a rewrite that would edit the header is not
// offered until the filter selects it, and the finding says so.
TEST(Cli, RegionCodeInProjectHeadersCarriesItsAdvice) {
  ScratchDir D;
  ASSERT_FALSE(llvm::sys::fs::create_directory(D.Path + "/.git"));
  D.file("post.hpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
#include <iostream>
GRAPHIFY_GRAPH_REGION inline gfy::Tensor post(gfy::Tensor x) {
  if (x.sum().item<float>() > 0)
    std::cout << x.max().item<float>() << "\n";
  if (x.mean().item<float>() > 1)
    return x * 2;
  return x;
}
)");
  std::string Src = D.file("main.cpp", "#include \"post.hpp\"\ngfy::Tensor run(gfy::Tensor x) { return post(x); }\n");
  const std::vector<std::string> Compile = {"--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"};
  auto Lint = [&](std::vector<std::string> Args) {
    Args.push_back(Src);
    Args.insert(Args.end(), Compile.begin(), Compile.end());
    return lint(Args);
  };
  RunResult R = Lint({});
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  auto NoteOn = [&](int Line) { return adviceNotesOn(R.Out, Line); };
  EXPECT_NE(NoteOn(5).find("no fix offered: the branch runs host code: 'std::cout <<' (line 6)"), std::string::npos)
      << R.Out;
  EXPECT_NE(NoteOn(6).find("by hand: the value is printed on the host"), std::string::npos) << R.Out;
  EXPECT_NE(NoteOn(7).find("no fix offered: the rewrite 'if-return-to-where'"), std::string::npos) << R.Out;
  EXPECT_NE(NoteOn(7).find("would edit 'post.hpp', which --header-filter does not select"), std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("note: fix: "), std::string::npos) << R.Out;
  RunResult Selected = Lint({"--header-filter=post\\.hpp$"});
  EXPECT_EQ(Selected.Code, 1) << Selected.Out << Selected.Err;
  EXPECT_NE(Selected.Out.find("post.hpp:7:7: note: fix: "), std::string::npos) << Selected.Out;
}

// A header reached as `./sync.hpp` (through -I.) by one unit and by its absolute name (beside
// the including file) by another is one file: its finding is printed once.
TEST(Cli, HeaderUnderTwoSpellingsReportedOnce) {
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("sync.hpp", "void cudaDeviceSynchronize();\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  D.file("a.cpp", "#include \"sync.hpp\"\nvoid a() { helper(); }\n");
  D.file("b.cpp", "#include <sync.hpp>\nvoid b() { helper(); }\n");
  D.file("compile_commands.json",
         "[{\"directory\": \"" + D.Path + "\", \"file\": \"" + D.Path + "/a.cpp\", \"command\": "
         "\"c++ -std=c++17 -c " + D.Path + "/a.cpp\"},\n"
         " {\"directory\": \"" + D.Path + "\", \"file\": \"b.cpp\", \"command\": "
         "\"c++ -std=c++17 -I. -c b.cpp\"}]");
  RunResult R = lint({"-p", D.Path, "--scope=all", "--header-filter=.*"}, D.Path);
  EXPECT_EQ(R.Code, 1) << R.Err;
  size_t First = R.Out.find("sync.hpp:3:3: warning: ");
  ASSERT_NE(First, std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("sync.hpp:3:3: warning: ", First + 1), std::string::npos) << R.Out;
}

TEST(Cli, NolintVariantsSuppress) {
  REQUIRE_CHECKS();
  ScratchDir D;
  std::string Src = D.file("n.cpp", R"cpp(void cudaDeviceSynchronize();
void a() {
  cudaDeviceSynchronize(); // NOLINT
  cudaDeviceSynchronize(); // NOLINT(graphify-capture-unsafe-api, graphify-host-*)
  // NOLINTNEXTLINE(graphify-*)
  cudaDeviceSynchronize();
  // NOLINTBEGIN(graphify-capture-unsafe-api,graphify-host-sync)
  cudaDeviceSynchronize();
  cudaDeviceSynchronize();
  // NOLINTEND(graphify-capture-unsafe-api,graphify-host-sync)
  cudaDeviceSynchronize(); // NOLINT(graphify-dynamic-shape)
}
)cpp");
  RunResult R = lint({"--scope=all", Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 1);
  for (int Line : {3, 4, 6, 8, 9})
    EXPECT_EQ(R.Out.find(Src + ":" + std::to_string(Line) + ":"), std::string::npos) << Line << "\n" << R.Out;
  EXPECT_NE(R.Out.find(Src + ":11:3: warning: "), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("NOLINT)."), std::string::npos) << R.Err;
}

TEST(Cli, JsonSarifGithubOnRealFindings) {
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("s.cpp", SyncSource);
  RunResult J = lint({"--scope=all", "--format=json", "s.cpp", "--", "-std=c++17"}, D.Path);
  EXPECT_EQ(J.Code, 1);
  auto Json = llvm::json::parse(J.Out);
  ASSERT_TRUE(bool(Json)) << llvm::toString(Json.takeError());
  ASSERT_TRUE(Json->getAsArray() && !Json->getAsArray()->empty());
  const llvm::json::Object *F = Json->getAsArray()->front().getAsObject();
  EXPECT_EQ(F->getInteger("line"), 3);
  EXPECT_EQ(F->getInteger("column"), 3);
  EXPECT_TRUE(F->getString("check"));

  RunResult S = lint({"--scope=all", "--format=sarif", "s.cpp", "--", "-std=c++17"}, D.Path);
  EXPECT_EQ(S.Code, 1);
  auto Sarif = llvm::json::parse(S.Out);
  ASSERT_TRUE(bool(Sarif)) << llvm::toString(Sarif.takeError());
  const llvm::json::Object *Run = Sarif->getAsObject()->getArray("runs")->front().getAsObject();
  const llvm::json::Object *Result = Run->getArray("results")->front().getAsObject();
  const llvm::json::Object *Loc = Result->getArray("locations")->front().getAsObject()->getObject("physicalLocation");
  EXPECT_EQ(Loc->getObject("artifactLocation")->getString("uri"), "s.cpp");
  EXPECT_EQ(Loc->getObject("region")->getInteger("startColumn"), 3);
  EXPECT_EQ(Loc->getObject("region")->getInteger("startLine"), 3);

  RunResult G = lint({"--scope=all", "--format=github", "s.cpp", "--", "-std=c++17"}, D.Path);
  EXPECT_EQ(G.Code, 1);
  EXPECT_EQ(G.Out.rfind("::warning file=s.cpp,line=3,col=3,", 0), 0u) << G.Out;
}

TEST(Cli, FixModesAreExclusive) {
  RunResult R = lint({"--fix", "--diff", "a.cpp", "--"});
  EXPECT_EQ(R.Code, 2);
}

TEST(Cli, PathsFromBuildDirAreReportedAbsolute) {
  ScratchDir D;
  D.file("src/m.cpp", "int m; // NOLINTEND(graphify-host-sync)\n");
  D.file("build/compile_commands.json",
         "[{\"directory\": \"" + D.Path + "/build\", \"file\": \"../src/m.cpp\", \"command\": "
         "\"/usr/bin/c++ -std=c++17 -c ../src/m.cpp\"}]");
  llvm::sys::fs::create_directories(D.Path + "/elsewhere");
  RunResult R = lint({"-p", D.Path + "/build"}, D.Path + "/elsewhere");
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find(D.Path + "/src/m.cpp:1:11: warning: unmatched 'NOLINTEND'"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("    1 | int m; // NOLINTEND(graphify-host-sync)\n"), std::string::npos) << R.Out;
}

// Whole-program mode: a region in one file makes a helper defined in another file region code,
// whatever -j says, and --whole-program=off lints each file alone.
TEST(Cli, WholeProgramRegionsCrossFilesDeterministically) {
  // -j 3 keeps each unit's AST through the rounds (3 units, 3 slots); -j 1 parses each unit again
  // for every round and for its checks (more units than slots): both must print the same.
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("api.h", "#pragma once\nvoid cudaDeviceSynchronize();\nvoid helper(int n);\nint level();\n");
  std::vector<std::string> Args = {"-j", "3"};
  Args.push_back(D.file("run.cpp", "#include \"api.h\"\n[[clang::annotate(\"graphify.graph_region\")]] void run() {\n"
                                   "  helper(level());\n}\n"));
  Args.push_back(D.file("helper.cpp", "#include \"api.h\"\nvoid helper(int n) {\n  if (n > 0)\n"
                                      "    cudaDeviceSynchronize();\n}\nvoid unused() { cudaDeviceSynchronize(); }\n"));
  Args.push_back(D.file("level.cpp", "#include \"api.h\"\nint level() { return 3; }\n"));
  Args.insert(Args.end(), {"--", "-std=c++17"});
  std::vector<std::string> Env = {"XDG_CACHE_HOME=" + D.Path + "/cache"};
  RunResult Parallel = lint(Args, "", Env);
  Args[1] = "1";
  RunResult Serial = lint(Args, "", Env);
  EXPECT_EQ(Parallel.Code, 1) << Parallel.Err;
  EXPECT_EQ(Parallel.Out, Serial.Out);
  EXPECT_NE(Parallel.Out.find("helper.cpp:4:5: warning: 'cudaDeviceSynchronize'"), std::string::npos) << Parallel.Out;
  EXPECT_EQ(Parallel.Out.find("helper.cpp:6:"), std::string::npos) << Parallel.Out;
  Args.insert(Args.begin(), "--whole-program=off");
  RunResult Alone = lint(Args, "", Env);
  EXPECT_EQ(Alone.Code, 0) << Alone.Out << Alone.Err;
}

TEST(Cli, SharedPchKeepsFindingsIdentical) {
  ScratchDir D;
  D.file("include/common.h", "#pragma once\n#include <vector>\n#include <map>\nvoid cudaDeviceSynchronize();\n");
  std::vector<std::string> Args = {"--scope=all"};
  for (int I = 0; I < 3; ++I)
    Args.push_back(D.file("f" + std::to_string(I) + ".cpp",
                          "// file " + std::to_string(I) + "\n#include \"include/common.h\"\n#include <string>\n"
                          "void step" + std::to_string(I) + "() {\n  cudaDeviceSynchronize();\n}\n"
                          "int x; // NOLINTEND\n"));
  Args.insert(Args.end(), {"--", "-std=c++17"});
  std::vector<std::string> Env = {"XDG_CACHE_HOME=" + D.Path + "/cache"};
  RunResult Cold = lint(Args, "", Env);
  RunResult Warm = lint(Args, "", Env);
  Args.insert(Args.begin(), "--pch=off");
  RunResult Off = lint(Args, "", Env);
  EXPECT_EQ(Cold.Code, 1) << Cold.Err;
  EXPECT_EQ(Cold.Out, Off.Out);
  EXPECT_EQ(Warm.Out, Off.Out);
  EXPECT_EQ(withoutSummary(Cold.Err), withoutSummary(Off.Err));
  std::error_code EC;
  unsigned Pchs = 0;
  for (llvm::sys::fs::directory_iterator It(D.Path + "/cache/graphify/pch", EC), End; !EC && It != End;
       It.increment(EC))
    Pchs += llvm::StringRef(It->path()).ends_with(".pch");
  EXPECT_EQ(Pchs, 1u);
  // An edited project header gets a new PCH (its content is part of the key), and the
  // findings follow the new text.
  D.file("include/common.h", "#pragma once\n#include <vector>\nvoid cudaDeviceSynchronize();\nint extra;\n");
  Args.erase(Args.begin());
  RunResult Edited = lint(Args, "", Env);
  EXPECT_EQ(Edited.Code, 1) << Edited.Err;
  EXPECT_EQ(Edited.Out, Off.Out);
}

namespace {
std::vector<std::string> pchFiles(const std::string &Dir) { return filesEndingWith(Dir, ".pch"); }
} // namespace

// The cache outlives the process: a one-file run after a multi-file run takes the PCH that run
// built for their common prefix (nothing new is built, findings are those of a plain parse); a
// one-file run with no cached prefix builds its own for the next run; touching a header without
// changing it keeps the PCH, editing it does not.
TEST(Cli, PchCacheIsReusedAcrossProcesses) {
  REQUIRE_CHECKS();
  ScratchDir D;
  D.file("common.h", "#pragma once\n#include <vector>\nvoid cudaDeviceSynchronize();\n");
  std::vector<std::string> Files;
  for (int I = 0; I < 2; ++I)
    Files.push_back(D.file("f" + std::to_string(I) + ".cpp",
                           "#include \"common.h\"\n#include <map>\nvoid step" + std::to_string(I) +
                               "() {\n  cudaDeviceSynchronize();\n}\n"));
  std::vector<std::string> Env = {"XDG_CACHE_HOME=" + D.Path + "/cache"};
  const std::string Cache = D.Path + "/cache/graphify/pch";
  std::vector<std::string> Both = {"--scope=all", Files[0], Files[1], "--", "-std=c++17"};
  ASSERT_EQ(lint(Both, "", Env).Code, 1);
  std::vector<std::string> Built = pchFiles(Cache);
  ASSERT_EQ(Built.size(), 1u);

  std::vector<std::string> One = {"--scope=all", Files[0], "--", "-std=c++17"};
  RunResult Reused = lint(One, "", Env);
  std::vector<std::string> Plain = One;
  Plain.insert(Plain.begin(), "--pch=off");
  RunResult Off = lint(Plain, "", Env);
  EXPECT_EQ(Reused.Code, 1) << Reused.Err;
  EXPECT_EQ(Reused.Out, Off.Out);
  EXPECT_EQ(pchFiles(Cache), Built) << "the one-file run should reuse the multi-file run's PCH";

  // A file with a different first include has no cached prefix: it builds one, and a second run
  // of it builds nothing more.
  std::string Other = D.file("g.cpp", "#include <string>\nvoid cudaDeviceSynchronize();\n"
                                      "void g() {\n  cudaDeviceSynchronize();\n}\n");
  std::vector<std::string> Alone = {"--scope=all", Other, "--", "-std=c++17"};
  ASSERT_EQ(lint(Alone, "", Env).Code, 1);
  std::vector<std::string> AfterFirst = pchFiles(Cache);
  EXPECT_EQ(AfterFirst.size(), 2u);
  ASSERT_EQ(lint(Alone, "", Env).Code, 1);
  EXPECT_EQ(pchFiles(Cache), AfterFirst);

  // Same content, new modification time: the same PCH (key and Clang's content check agree).
  D.file("common.h", "#pragma once\n#include <vector>\nvoid cudaDeviceSynchronize();\n");
  RunResult Touched = lint(One, "", Env);
  EXPECT_EQ(Touched.Out, Off.Out) << Touched.Err;
  EXPECT_EQ(pchFiles(Cache), AfterFirst);
  // New content: a new key, a new PCH, findings that follow the new text.
  D.file("common.h", "#pragma once\n#include <vector>\nvoid cudaDeviceSynchronize();\nint added;\n");
  RunResult Edited = lint(One, "", Env);
  EXPECT_EQ(Edited.Out, Off.Out) << Edited.Err;
  EXPECT_EQ(pchFiles(Cache).size(), 3u);
}

// Fixes through the rewriter, on the runtime's LibTorch-compatible headers (fast to parse).
TEST(Cli, DiffExportAndFixDelegateToRewriter) {
  REQUIRE_CHECKS();
  ScratchDir D;
  const char *Source = "#include <torch/torch.h>\n"
                       "GRAPHIFY_GRAPH_REGION torch::Tensor pick(torch::Tensor x) {\n"
                       "  if (x.sum().item<float>() > 0)\n"
                       "    return x;\n"
                       "  return -x;\n"
                       "}\n";
  std::string Src = D.file("fx.cpp", Source);
  std::vector<std::string> Flags = {"--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include/graphify/compat",
                                    "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include", "-include",
                                    "graphify/annotations.h"}; // GRAPHIFY_GRAPH_REGION
  auto args = [&](std::vector<std::string> A) {
    A.push_back(Src);
    A.insert(A.end(), Flags.begin(), Flags.end());
    return A;
  };
  RunResult Diff = lint(args({"--diff"}));
  EXPECT_EQ(Diff.Code, 1) << Diff.Err;
  EXPECT_NE(Diff.Out.find("+++ "), std::string::npos) << Diff.Out;
  EXPECT_NE(Diff.Out.find("where("), std::string::npos) << Diff.Out;
  EXPECT_EQ(Diff.Out.rfind("--- ", 0), 0u) << "the diff alone is on stdout:\n" << Diff.Out;
  EXPECT_EQ(Diff.Out.find("warning:"), std::string::npos) << Diff.Out;
  EXPECT_NE(Diff.Err.find("warning:"), std::string::npos) << "findings go to stderr:\n" << Diff.Err;
  EXPECT_EQ(readFile(Src), Source) << "--diff writes nothing";

  RunResult Export = lint(args({"--export-fixes=" + D.Path + "/fixes.yaml"}));
  EXPECT_EQ(Export.Code, 1) << Export.Err;
  std::string Yaml = readFile(D.Path + "/fixes.yaml");
  EXPECT_NE(Yaml.find("ReplacementText:"), std::string::npos) << Yaml;
  EXPECT_EQ(readFile(Src), Source);

  RunResult Fix = lint(args({"--fix"}));
  EXPECT_EQ(Fix.Code, 1) << Fix.Err;
  std::string Fixed = readFile(Src);
  EXPECT_NE(Fixed, Source);
  EXPECT_NE(Fixed.find("where("), std::string::npos) << Fixed;
  RunResult Again = lint(args({"--fix"}));
  EXPECT_EQ(Again.Code, 0) << Again.Out << Again.Err;
  EXPECT_EQ(readFile(Src), Fixed) << "a second --fix changes nothing";
}

// A static bound from .graphify.yaml reaches --fix: the loop bounded by a value read from the data
// runs to the bound, masked past it; without the bound the refusal says how to give one.
TEST(Cli, StaticBoundsFromTheConfigurationBoundLoops) {
  REQUIRE_CHECKS();
  ScratchDir D;
  const char *Source = "#include <torch/torch.h>\n"
                       "GRAPHIFY_GRAPH_REGION torch::Tensor refine(torch::Tensor h, torch::Tensor lengths) {\n"
                       "  const int64_t len = lengths.max().item<int64_t>();\n"
                       "  for (int64_t t = 0; t < len; ++t)\n"
                       "    h = h * 0.5;\n"
                       "  return h;\n"
                       "}\n";
  std::string Src = D.file("bounded.cpp", Source);
  std::vector<std::string> Args = {"--diff", Src, "--", "-std=c++20",
                                   "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include/graphify/compat",
                                   "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include", "-include",
                                   "graphify/annotations.h"};
  RunResult Unbounded = lint(Args);
  EXPECT_EQ(Unbounded.Out.find("+++ "), std::string::npos) << Unbounded.Out;
  EXPECT_NE(Unbounded.Err.find("StaticBounds: {\"refine::len\": <max>}"), std::string::npos) << Unbounded.Err;
  D.file(".graphify.yaml", "StaticBounds: {'refine::len': 16}\n");
  RunResult Bounded = lint(Args);
  EXPECT_NE(Bounded.Out.find("+  for (int64_t t = 0; t < 16; ++t) {"), std::string::npos) << Bounded.Out << Bounded.Err;
  EXPECT_NE(Bounded.Err.find("the static bound given for 'len'"), std::string::npos) << Bounded.Err;
  EXPECT_EQ(readFile(Src), Source);
}

// A bound that names nothing would leave its loop unbounded without a word: a configured key no
// function's variable matches, and an annotation naming no variable, are warnings (JSON: a list in
// the summary).
TEST(Cli, StaticBoundsThatNameNothingAreReported) {
  ScratchDir D;
  std::string Src =
      D.file("a.cpp", "[[clang::annotate(\"graphify.static_bound\", \"lenght\", 8)]] int f(int len) { return len; }\n"
                      "[[clang::annotate(\"graphify.static_bound\", \"n\", -1)]] int g(int n) { return n; }\n"
                      "int h(int steps) { return steps; }\n");
  D.file(".graphify.yaml", "StaticBounds: {'h::steps': 4, 'h::setps': 4}\n");
  RunResult R = lint({Src, "--quiet", "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("graphify-lint: warning: the static bound 'h::setps' names no parameter or local"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("'h::steps'"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("a.cpp:1:63: GRAPHIFY_STATIC_BOUND names 'lenght', which 'f' does not declare"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("a.cpp:2:59: GRAPHIFY_STATIC_BOUND takes a variable's name and a positive integer constant"),
            std::string::npos)
      << R.Err;
  RunResult Json = lint({Src, "--format=json", "--", "-std=c++17"});
  EXPECT_NE(Json.Err.find("\"static_bound_problems\":[\"the static bound 'h::setps'"), std::string::npos) << Json.Err;
}

// A capture window that calls through a std::function nothing known is assigned to runs code
// graphify cannot check: it says so on stderr (even with --quiet; JSON: a list in the summary),
// and a holder whose callables it can see is followed without a note.
TEST(Cli, UncheckedCodeInCaptureWindowsAreNamed) {
  ScratchDir D;
  std::string Src = D.file("engine.cpp",
                           "#include <functional>\n"
                           "typedef struct CUstream_st *cudaStream_t;\n"
                           "typedef struct CUgraph_st *cudaGraph_t;\n"
                           "enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };\n"
                           "extern \"C\" int cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);\n"
                           "extern \"C\" int cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);\n"
                           "struct Engine {\n"
                           "  std::function<void()> hook;\n"
                           "  std::function<void()> known = [] {};\n"
                           "  void capture(cudaStream_t s, cudaGraph_t *g) {\n"
                           "    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                           "    hook();\n"
                           "    known();\n"
                           "    cudaStreamEndCapture(s, g);\n"
                           "    hook();\n"
                           "  }\n"
                           "};\n");
  RunResult R = lint({Src, "--quiet", "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("graphify-lint: note: " + Src +
                       ":12:5: 'hook' is called in a capture window through a 'std::function', and graphify "
                       "cannot tell what it runs (no callable is assigned to it in the checked files); that code "
                       "is not checked"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find(":13:5:"), std::string::npos) << R.Err; // `known` holds a lambda graphify sees
  EXPECT_EQ(R.Err.find(":15:5:"), std::string::npos) << R.Err; // after the window: not captured
  RunResult Json = lint({Src, "--format=json", "--", "-std=c++17"});
  EXPECT_NE(Json.Err.find("\"unchecked_code\":[\"" + Src + ":12:5: 'hook' is called"), std::string::npos) << Json.Err;
}

// A capture a file begins in a wrapper that nothing in it calls leaves its callers' window
// unchecked when that file is linted alone: a note says so; linted with its caller (whole
// program), the window is checked and no note is made.
TEST(Cli, UnpairedCapturesAreNamedWhenLintedAlone) {
  ScratchDir D;
  std::string Decls = "typedef struct CUstream_st *cudaStream_t;\n"
                      "typedef struct CUgraph_st *cudaGraph_t;\n"
                      "enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };\n"
                      "extern \"C\" int cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);\n"
                      "extern \"C\" int cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);\n"
                      "extern \"C\" int cudaDeviceSynchronize(void);\n"
                      "void begin(cudaStream_t s);\n";
  D.file("decls.h", Decls);
  std::string Wrapper = D.file("wrapper.cpp", "#include \"decls.h\"\n"
                                              "void begin(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }\n");
  std::string Caller = D.file("caller.cpp", "#include \"decls.h\"\n"
                                            "void step(cudaStream_t s, cudaGraph_t *g) {\n"
                                            "  begin(s);\n"
                                            "  cudaDeviceSynchronize();\n"
                                            "  cudaStreamEndCapture(s, g);\n"
                                            "}\n");
  RunResult Alone = lint({Wrapper, "--quiet", "--", "-std=c++17"});
  EXPECT_EQ(Alone.Code, 0) << Alone.Out << Alone.Err;
  EXPECT_NE(Alone.Err.find("graphify-lint: note: " + Wrapper +
                           ":2:30: 'begin' returns with the capture begun here still open, and nothing in the "
                           "checked files calls it"),
            std::string::npos)
      << Alone.Err;
  RunResult Program = lint({Wrapper, Caller, "--", "-std=c++17"});
  EXPECT_EQ(Program.Code, 1) << Program.Out << Program.Err;
  EXPECT_NE(Program.Out.find(Caller + ":4:3: warning: 'cudaDeviceSynchronize' waits for the whole device"),
            std::string::npos)
      << Program.Out;
  EXPECT_EQ(Program.Err.find("graphify-lint: note: " + Wrapper), std::string::npos) << Program.Err;
}

TEST(Cli, InstalledToolFindsResourceDirAndRules) {
  ScratchDir Prefix;
  // The real install rules: the whole project when everything is built, else the analyzer's
  // own install script (graphify-lint) plus the top-level rules.
  RunResult Full = run(GRAPHIFY_CMAKE_COMMAND, {"--install", GRAPHIFY_BINARY_DIR, "--prefix", Prefix.Path});
  if (Full.Code != 0) {
    RunResult Tool = run(GRAPHIFY_CMAKE_COMMAND, {"-DCMAKE_INSTALL_PREFIX=" + Prefix.Path, "-P",
                                                  std::string(GRAPHIFY_BINARY_DIR) + "/analyzer/cmake_install.cmake"});
    ASSERT_EQ(Tool.Code, 0) << Tool.Err;
    std::string Rules = Prefix.Path + "/share/graphify/rules";
    llvm::sys::fs::create_directories(Rules);
    for (const char *Name : {"tags.yaml", "libtorch.yaml", "cuda.yaml"})
      llvm::sys::fs::copy_file(std::string(GRAPHIFY_SOURCE_DIR) + "/rules/" + Name, Rules + "/" + Name);
  }
  std::string Exe = Prefix.Path + "/bin/graphify-lint";
  ASSERT_TRUE(llvm::sys::fs::can_execute(Exe));
  ScratchDir Work;
  // __stddef_max_align_t.h exists only in Clang's resource directory: proof that it was found.
  Work.file("uses_cstddef.cpp", "#if !__has_include(<__stddef_max_align_t.h>)\n#error no clang resource dir\n#endif\n"
                                "#include <cstddef>\n#include <stddef.h>\nstruct P { int a; };\nstd::size_t n = offsetof(P, a);\n");
  RunResult R = run(Exe, {"uses_cstddef.cpp", "--", "-std=c++17"}, Work.Path, {"GRAPHIFY_RULES_DIR="});
  EXPECT_EQ(R.Code, 0) << R.Err;
  RunResult V = run(Exe, {"--version"}, Work.Path, {"GRAPHIFY_RULES_DIR="});
  EXPECT_NE(V.Out.find("rules dir: " + Prefix.Path + "/share/graphify/rules"), std::string::npos) << V.Out;
  RunResult L = run(Exe, {"--list-checks"}, Work.Path, {"GRAPHIFY_RULES_DIR="});
  EXPECT_NE(L.Out.find(Prefix.Path + "/share/graphify/rules/cuda.yaml"), std::string::npos) << L.Out;
  // A wrong resource dir is overridable from the environment and the flag.
  RunResult Broken = run(Exe, {"--resource-dir=/nonexistent", "uses_cstddef.cpp", "--", "-std=c++17"}, Work.Path);
  // (Debian's clang also searches /usr/include/clang/<version>/include, so the parse itself may
  // still succeed; the warning shows the flag reached the tool.)
  EXPECT_NE(Broken.Err.find("clang resource dir '/nonexistent' has no include/"), std::string::npos) << Broken.Err;
  RunResult Env = run(Exe, {"--version"}, Work.Path, {"GRAPHIFY_RESOURCE_DIR=/opt/clang-res"});
  EXPECT_NE(Env.Out.find("clang resource dir: /opt/clang-res"), std::string::npos) << Env.Out;
}

} // namespace

// Bad input gets a located error and exit 2 before anything is parsed or written.
TEST(CliHardening, InputsThatAreNotSourceFiles) {
  ScratchDir D;
  llvm::sys::fs::create_directories(D.Path + "/dir");
  RunResult Dir = lint({D.Path + "/dir", "--", "-std=c++17"});
  EXPECT_EQ(Dir.Code, 2);
  EXPECT_NE(Dir.Err.find("is not a source file (a directory)"), std::string::npos) << Dir.Err;
  RunResult Null = lint({"/dev/null", "--", "-std=c++17"});
  EXPECT_EQ(Null.Code, 2);
  EXPECT_NE(Null.Err.find("is not a source file (not a regular file)"), std::string::npos) << Null.Err;
}

TEST(CliHardening, ExportFixesNeverOverwritesAnInput) {
  ScratchDir D;
  const char *Source = "int model;\n";
  std::string Src = D.file("model.cpp", Source);
  RunResult R = lint({"--export-fixes=" + Src, Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("--export-fixes would overwrite the input"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(Src), Source);
}

TEST(CliHardening, ChecksThatEnableNothingAreAnError) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", "int m;\n");
  // --checks adds to the configuration's globs (as clang-tidy's does); '-*,x' leaves nothing.
  RunResult Flag = lint({"--checks=-*,x", Src, "--", "-std=c++17"});
  EXPECT_EQ(Flag.Code, 2);
  EXPECT_NE(Flag.Err.find("no check is enabled by Checks '"), std::string::npos) << Flag.Err;
  D.file(".graphify.yaml", "Checks: x\n");
  RunResult Config = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(Config.Code, 2);
  EXPECT_NE(Config.Err.find("no check is enabled"), std::string::npos) << Config.Err;
  RunResult One = lint({"--checks=-*,graphify-host-sync", Src, "--", "-std=c++17"});
  EXPECT_EQ(One.Code, 0) << One.Err;
}

TEST(CliHardening, ConfigAndRulePackPathsMustBeFiles) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", "int m;\n");
  RunResult Missing = lint({"--config=typo.yaml", Src, "--", "-std=c++17"});
  EXPECT_EQ(Missing.Code, 2);
  EXPECT_NE(Missing.Err.find("no such --config file: 'typo.yaml'"), std::string::npos) << Missing.Err;
  RunResult DirConfig = lint({"--config=" + D.Path, Src, "--", "-std=c++17"});
  EXPECT_EQ(DirConfig.Code, 2);
  EXPECT_NE(DirConfig.Err.find("--config names a directory"), std::string::npos) << DirConfig.Err;
  RunResult Inline = lint({"--config={Checks: '-*,graphify-host-sync'}", Src, "--", "-std=c++17"});
  EXPECT_EQ(Inline.Code, 0) << Inline.Err;
  RunResult DirPack = lint({"--rules=" + D.Path, Src, "--", "-std=c++17"});
  EXPECT_EQ(DirPack.Code, 2);
  EXPECT_NE(DirPack.Err.find("is a directory, not a YAML file"), std::string::npos) << DirPack.Err;
  EXPECT_EQ(DirPack.Err.find("Stack dump"), std::string::npos) << DirPack.Err;
}

TEST(CliHardening, JobsHaveAnUpperBound) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", "int m;\n");
  RunResult R = lint({"-j", "1000", Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("more than 256 parallel jobs"), std::string::npos) << R.Err;
}

TEST(CliHardening, DeepExpressionsDoNotOverflowTheAnalysis) {
  // Clang accepts a 5000-term sum; the analysis walks it recursively and must not crash.
  ScratchDir D;
  std::string Sum = "x";
  for (int I = 1; I < 5000; ++I)
    Sum += " + x";
  std::string Src = D.file("deep.cpp", "#include <graphify/annotations.h>\n#include <graphify/graphify.h>\n"
                                       "GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) { return " + Sum + "; }\n");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 0) << R.Err.substr(0, 2000);
  EXPECT_NE(R.Err.find("1 file checked, 0 findings"), std::string::npos) << R.Err.substr(0, 2000);
}

TEST(CliHardening, RulesThatRecogniseNothingAreAnError) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", "int m;\n");
  D.file("rules/tags.yaml", readFile(std::string(GRAPHIFY_SOURCE_DIR) + "/rules/tags.yaml"));
  RunResult R = lint({"--rules-dir=" + D.Path + "/rules", Src, "--", "-std=c++17"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("the rule packs here define nothing (only tags.yaml), so nothing would be checked"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("0 findings"), std::string::npos) << R.Err;
}

// A full disk (here /dev/full) gives the tool's own error and exit 2, never "LLVM ERROR" (an
// abort) nor a silent exit code over output that was lost.
TEST(CliHardening, FullDiskIsAnErrorNotAnAbort) {
  ScratchDir D;
  std::string Src = D.file("m.cpp", "#include <graphify/annotations.h>\n#include <graphify/graphify.h>\n"
                                    "GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) {\n"
                                    "  if (x.sum().item<float>() > 0)\n    return x;\n  return -x;\n}\n");
  const std::vector<std::string> Flags = {"--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"};
  auto withFlags = [&](std::vector<std::string> Args) {
    Args.insert(Args.end(), Flags.begin(), Flags.end());
    return Args;
  };
  std::vector<std::string> ToFull = {"-c", "exec \"$0\" \"$@\" > /dev/full", GRAPHIFY_LINT_EXE, Src};
  RunResult Stdout = run("/bin/sh", withFlags(ToFull));
  EXPECT_EQ(Stdout.Code, 2);
  EXPECT_NE(Stdout.Err.find("graphify-lint: error: cannot write the output: No space left on device"),
            std::string::npos)
      << Stdout.Err;
  RunResult Export = lint(withFlags({"--export-fixes=/dev/full", Src}));
  EXPECT_EQ(Export.Code, 2);
  EXPECT_NE(Export.Err.find("/dev/full: cannot write: No space left on device"), std::string::npos) << Export.Err;
  for (const RunResult *R : {&Stdout, &Export})
    EXPECT_EQ(R->Err.find("LLVM ERROR"), std::string::npos) << R->Err;
}

// Found by fuzz_compile_db: an entry with `"arguments": []` indexed past an empty command line.
TEST(CliHardening, EmptyCompileCommandIsAnError) {
  ScratchDir D;
  std::string Src = D.file("k.cu", "int k;\n");
  D.file("compile_commands.json", "[{\"directory\": \"" + D.Path + "\", \"file\": \"k.cu\", \"arguments\": []}]\n");
  RunResult R = lint({"-p", D.Path, Src});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("the compile command for '" + Src + "' is empty"), std::string::npos) << R.Err;
}

TEST(Cli, FindingsNoRewriteIsAboutCarryAManualRecipe) {
  // A printed value, a data-dependent trip count and a buffer sized from data: no rewrite is about
  // them, so each says what to do by hand; the refusal of the print's enclosing if stays with the
  // if's own findings.
  ScratchDir D;
  std::string Src = D.file("recipes.cpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
#include <iostream>
GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) {
  if (x.sum().item<float>() > 0)
    std::cout << x.max().item<float>() << "\n";
  while (x.sum().item<float>() > 1)
    x = x / 2;
  auto n = x.sum().item<int64_t>();
  return gfy::zeros({n});
}
)");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  auto NoteOn = [&](int Line) { return adviceNotesOn(R.Out, Line); };
  EXPECT_NE(NoteOn(5).find("no fix offered: the branch runs host code: 'std::cout <<' (line 6) prints on the host"), std::string::npos) << R.Out;
  EXPECT_NE(NoteOn(6).find("by hand: the value is printed on the host"), std::string::npos) << R.Out;
  EXPECT_EQ(NoteOn(6).find("no fix offered"), std::string::npos) << R.Out;
  EXPECT_NE(NoteOn(7).find("by hand: "), std::string::npos) << R.Out;
  EXPECT_NE(NoteOn(10).find("by hand: use sizes from tensor metadata"), std::string::npos) << R.Out;
}

TEST(Cli, SizesOfSelectionsGetThePaddedRecipe) {
  // A buffer sized from a selection and a loop over its rows: the recipe is the padded form (the
  // static size the selection came from, the mask as validity), not "sizes from metadata".
  ScratchDir D;
  std::string Src = D.file("selection_sizes.cpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) {
  auto sel = x.masked_select(x > 0);
  auto out = gfy::zeros({sel.numel()});
  int64_t i = 0;
  while (i < sel.numel()) {
    out = out + 1;
    ++i;
  }
  return out;
}
)");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  auto NoteOn = [&](int Line) { return adviceNotesOn(R.Out, Line); };
  EXPECT_NE(R.Out.find("size argument of 'zeros' depends on the size of a value-dependent selection"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(NoteOn(5).find("by hand: the size of a selection depends on the values: keep the selection padded"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(NoteOn(7).find("by hand: the loop runs over the rows of a selection"), std::string::npos) << R.Out;
}

TEST(Cli, GreedyLoopIsOneFindingWithTheFixedGreedyForm) {
  // A hand-written greedy suppression loop: one finding at the loop (the reads and selections
  // inside are its notes), whose recipe is the exact fixed-size greedy form, not a refusal of
  // the masked-loop rewrite; a loop over a selection that does not shrink it stays ordinary.
  ScratchDir D;
  std::string Src = D.file("greedy.cpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor scores, gfy::Tensor overlaps) {
  auto order = scores.argsort();
  auto kept = gfy::zeros({8});
  while (order.numel() > 0) {
    int64_t best = order[0].item<int64_t>();
    kept = kept + best;
    order = order.index_select(0, (overlaps.select(0, best) < 0.5f).nonzero().squeeze(1));
  }
  return kept;
}
)");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find(":6:10: warning: greedy loop over the shrinking selection 'order'"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find(":7:29: note: inside it: 'item' copies one element to the host"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find(":7:29: warning:"), std::string::npos) << R.Out;
  EXPECT_NE(adviceNotesOn(R.Out, 6).find("by hand: greedy suppression has an exact fixed-size form"), std::string::npos)
      << R.Out;
  EXPECT_EQ(adviceNotesOn(R.Out, 6).find("no fix offered"), std::string::npos) << R.Out;
}

TEST(Cli, RegionGlobOfAGreedyLoopIsMatched) {
  // Folding the greedy loop's findings into one must not lose which region globs matched: the
  // glob named the function, so no "names no function" warning.
  ScratchDir D;
  std::string Src = D.file("greedy.cpp", R"(#include <graphify/graphify.h>
namespace det {
gfy::Tensor suppress(gfy::Tensor scores, gfy::Tensor overlaps) {
  auto order = scores.argsort();
  auto kept = gfy::zeros({8});
  while (order.numel() > 0) {
    int64_t best = order[0].item<int64_t>();
    kept = kept + best;
    order = order.index_select(0, (overlaps.select(0, best) < 0.5f).nonzero().squeeze(1));
  }
  return kept;
}
} // namespace det
)");
  RunResult R = lint({Src, "--graph-region=det::suppress", "--", "-std=c++20",
                      "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find(":6:10: warning: greedy loop over the shrinking selection 'order'"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Err.find("names no function"), std::string::npos) << R.Err;
}

TEST(Cli, HostReadsGetTheRecipeOfWhatTheirValueBecomes) {
  // The same item() call, three fates: a size, a host buffer, tensor math. Only the last stays a
  // 0-d tensor (a fix: the local is read only by tensor arithmetic); the size gets the padded
  // form, the buffer "write a tensor instead".
  ScratchDir D;
  std::string Src = D.file("reads.cpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
#include <vector>
GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) {
  int64_t n = x.sum().item<int64_t>();
  auto buf = gfy::zeros({n});
  std::vector<float> seen;
  seen.push_back(x.min().item<float>());
  float m = x.mean().item<float>();
  return buf.sum() + m;
}
)");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(adviceNotesOn(R.Out, 5).find("by hand: the value read here becomes a size (line 6)"), std::string::npos)
      << R.Out;
  EXPECT_NE(adviceNotesOn(R.Out, 8).find("by hand: the value is collected into a host container"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find(":9:22: note: fix: the scalar stays a 0-d tensor on the device"), std::string::npos) << R.Out;
  EXPECT_EQ(adviceNotesOn(R.Out, 9), "") << R.Out;
}

TEST(Cli, HostValueSelectGetsAHostRecipeNotWhere) {
  // A ternary that picks between host values on a tensor read: where() cannot select strings or
  // host ints, so the recipe must not suggest it.
  ScratchDir D;
  std::string Src = D.file("host_select.cpp", R"(#include <graphify/annotations.h>
#include <graphify/graphify.h>
GRAPHIFY_GRAPH_REGION gfy::Tensor f(gfy::Tensor x) {
  const char *label = x.sum().item<float>() > 0 ? "up" : "down";
  return x + (label[0] == 'u' ? 1 : 2);
}
)");
  RunResult R = lint({Src, "--", "-std=c++20", "-I" + std::string(GRAPHIFY_SOURCE_DIR) + "/runtime/include"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_NE(R.Out.find("by hand: the branch chooses between host values (not tensors)"), std::string::npos) << R.Out;
}
