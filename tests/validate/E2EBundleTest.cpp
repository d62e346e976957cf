// End-to-end: harnesses run elsewhere (--harness-bundle, then the bundle's run script, then
// --harness-results), as scripts/gpu-check does on a GPU machine, give the same report as a local
// run; results of another plan are refused.
#include "../support/TestScratch.h"
#include "graphify/validate/Runner.h"

#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <fstream>

using namespace graphify::validate;

namespace {

const std::string Models = GRAPHIFY_VALIDATE_TEST_MODELS;

RunResult validate(std::vector<std::string> Args) {
  Args.insert(Args.begin(), "--cache-dir=" GRAPHIFY_VALIDATE_TEST_CACHE);
  Args.insert(Args.begin(), GRAPHIFY_VALIDATE_EXE);
  return runIsolated(Args, 1500);
}

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

} // namespace
