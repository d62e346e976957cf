// End-to-end: harnesses run elsewhere (--harness-bundle, then the bundle's run script, then
// --harness-results), as scripts/gpu-check does on a GPU machine, give the same report as a local
// run; results of another plan are refused.
#include "../support/TestScratch.h"
#include "E2ESupport.h"
#include "graphify/validate/Runner.h"

#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

using namespace graphify::validate;

namespace {

const std::string Models = GRAPHIFY_VALIDATE_TEST_MODELS;

RunResult validate(std::vector<std::string> Args) { return graphify::validate::e2e::runValidate(std::move(Args)); }

TEST(E2EBundle, RunElsewhereGivesTheLocalReport) {
  const std::string Dir = graphify::testing::scratchDirectory("graphify-validate-bundle");
  const std::string Bundle = Dir + "/bundle", Results = Dir + "/results";
  const std::vector<std::string> Files = {Models + "/if_else_assign.cpp", Models + "/non_traceable.cpp"};
  auto with = [&](std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--trials=3", "--seed=2", "--quiet"});
    Args.insert(Args.end(), Files.begin(), Files.end());
    return validate(Args);
  };
  RunResult Made = with({"--harness-bundle=" + Bundle});
  ASSERT_TRUE(Made.succeeded()) << Made.describe() << Made.Stderr;
  EXPECT_NE(Made.Stdout.find("harnesses written to " + Bundle), std::string::npos) << Made.Stdout;
  // The bundle stands alone: executables, inputs, the shared runtime they load, the script.
  for (const char *F : {"/run", "/MANIFEST", "/inputs0", "/harness0-original", "/libgraphify_runtime.so"})
    EXPECT_TRUE(llvm::sys::fs::exists(Bundle + F)) << F;
  EXPECT_FALSE(with({"--harness-bundle=" + Bundle}).succeeded()) << "an existing folder is not overwritten";

  RunResult Ran = runIsolated({"/bin/sh", Bundle + "/run", Results}, 600);
  ASSERT_TRUE(Ran.succeeded()) << Ran.describe() << Ran.Stdout << Ran.Stderr;
  RunResult Remote = with({"--harness-results=" + Results});
  RunResult Local = with({});
  EXPECT_EQ(Remote.ExitCode, Local.ExitCode) << Remote.Stderr;
  EXPECT_EQ(Remote.Stdout, Local.Stdout);
  EXPECT_NE(Remote.Stdout.find("NonTraceableModel"), std::string::npos) << Remote.Stdout << Remote.Stderr;

  // Results of another plan (another seed: other inputs) are refused, not misread.
  RunResult Other = validate({"--harness-results=" + Results, "--trials=3", "--quiet", Files[0], Files[1]});
  EXPECT_EQ(Other.ExitCode, 2);
  std::ofstream(Results + "/MANIFEST") << "run0 elsewhere.cpp Model original eager\n";
  RunResult Foreign = with({"--harness-results=" + Results});
  EXPECT_EQ(Foreign.ExitCode, 2);
  EXPECT_NE(Foreign.Stderr.find("belong to another plan"), std::string::npos) << Foreign.Stderr;
}

TEST(E2EBundle, BundleAndResultsTogetherIsAUsageError) {
  RunResult R = validate({"--harness-bundle=/tmp/a", "--harness-results=/tmp/b", Models + "/if_else_assign.cpp"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("give one"), std::string::npos) << R.Stderr;
}

/// Rewrites `Path`'s text with every occurrence of `From` replaced by `To`.
void replaceInFile(const std::string &Path, const std::string &From, const std::string &To) {
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To);
  std::ofstream(Path) << Text;
}

/// The run of `Entry`'s original in `Mode` that MANIFEST names ("run7").
std::string runOf(const std::string &Manifest, const std::string &Entry, const std::string &Mode) {
  const std::string Tail = " " + Entry + " original " + Mode;
  std::ifstream In(Manifest);
  for (std::string Line; std::getline(In, Line);)
    if (llvm::StringRef(Line).ends_with(Tail))
      return Line.substr(0, Line.find(' '));
  return "";
}

// With --device=cuda an original that cannot run on the device (a host kernel over data_ptr()
// crashes on device memory) is compared from its run on the CPU, and the report says so. The
// device is simulated: the bundle's runs are made on the CPU, then the original's eager run is
// marked as killed by signal 11 with no results.
TEST(E2EBundle, AnOriginalThatCrashesOnTheDeviceIsComparedFromItsCpuRun) {
  if (!GRAPHIFY_VALIDATE_TEST_HAVE_CUDA)
    GTEST_SKIP() << "graphify was built without its CUDA backend";
  const std::string Dir = graphify::testing::scratchDirectory("graphify-validate-host-reference");
  const std::string Bundle = Dir + "/bundle", Results = Dir + "/results", File = Models + "/if_else_assign.cpp";
  auto with = [&](const std::string &Flag) {
    return validate({"--device=cuda", Flag, "--trials=3", "--seed=2", "--quiet", "--entry", "IfElseAssign", File});
  };
  RunResult Made = with("--harness-bundle=" + Bundle);
  ASSERT_TRUE(Made.succeeded()) << Made.describe() << Made.Stderr;
  replaceInFile(Bundle + "/run", " cuda ", " cpu ");
  ASSERT_TRUE(runIsolated({"/bin/sh", Bundle + "/run", Results}, 600).succeeded());
  const std::string DeviceRun = runOf(Results + "/MANIFEST", "IfElseAssign", "eager");
  ASSERT_FALSE(DeviceRun.empty()) << "no eager run of the original in the manifest";
  ASSERT_FALSE(runOf(Results + "/MANIFEST", "IfElseAssign", "eager-on-cpu").empty());

  RunResult Clean = with("--harness-results=" + Results);
  EXPECT_EQ(Clean.ExitCode, 0) << Clean.Stdout << Clean.Stderr;
  EXPECT_EQ(Clean.Stdout.find("cannot run on cuda"), std::string::npos) << Clean.Stdout;

  std::ofstream(Results + "/" + DeviceRun + ".status") << "139 0 0\n";
  std::ofstream(Results + "/" + DeviceRun + ".results") << "";
  RunResult Fallback = with("--harness-results=" + Results);
  EXPECT_EQ(Fallback.ExitCode, 0) << Fallback.Stdout << Fallback.Stderr;
  EXPECT_NE(Fallback.Stdout.find("the original cannot run on cuda (its eager run crashed with signal 11"),
            std::string::npos)
      << Fallback.Stdout;
  EXPECT_NE(Fallback.Stdout.find("IfElseAssign  3/3"), std::string::npos) << Fallback.Stdout;

  // When the CPU run fails too, nothing stands in: the crash is reported.
  const std::string HostRun = runOf(Results + "/MANIFEST", "IfElseAssign", "eager-on-cpu");
  std::ofstream(Results + "/" + HostRun + ".status") << "139 0 0\n";
  std::ofstream(Results + "/" + HostRun + ".results") << "";
  RunResult Both = with("--harness-results=" + Results);
  EXPECT_EQ(Both.ExitCode, 1) << Both.Stdout << Both.Stderr;
  EXPECT_NE(Both.Stdout.find("crashed with signal 11"), std::string::npos) << Both.Stdout;
}

} // namespace
