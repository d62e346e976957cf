// Graph regions: seeds and the call-graph closure.
#include "AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace graphify {
namespace {

using test::analyze;
using Lines = std::vector<std::string>;

TEST(GraphRegions, ModuleForwardAndItsHelpersOnly) {
  auto A = analyze(R"cpp(
static bool big(const at::Tensor &x) { return x.sum().item<float>() > 1; }
static bool unused(const at::Tensor &x) { return x.sum().item<float>() > 1; }
struct Base : torch::nn::Module {};
struct M : Base {
  at::Tensor forward(at::Tensor x) { return big(x) ? x : x * 2.0; }
};
struct NotModule {
  at::Tensor forward(at::Tensor x) { return x.sum().item<float>() > 0 ? x : x * 2.0; }
};
)cpp");
  EXPECT_EQ(A.findings("graphify-host-sync"), Lines{"2:55"});
  EXPECT_EQ(A.findings("graphify-data-dependent-branch"), Lines{"6:45"});
}

TEST(GraphRegions, ScopeAllChecksEverything) {
  AnalysisConfig Config;
  Config.ScopeKind = Scope::All;
  auto A = analyze(R"cpp(
float read(const at::Tensor &x) { return x.sum().item<float>(); }
)cpp",
                   Config);
  EXPECT_EQ(A.findings("graphify-host-sync"), Lines{"2:50"});
}

TEST(GraphRegions, AnnotationsAndGlobs) {
  AnalysisConfig Config;
  Config.GraphRegionGlobs = {"ns::*"};
  auto A = analyze(R"cpp(
[[clang::annotate("graphify.graph_region")]] float a(const at::Tensor &x) { return x.sum().item<float>(); }
namespace ns { float b(const at::Tensor &x) { return x.sum().item<float>(); } }
float c(const at::Tensor &x) { return x.sum().item<float>(); }
)cpp",
                   Config);
  EXPECT_EQ(A.findings("graphify-host-sync"), (Lines{"2:92", "3:62"}));
}

// Braces list alternatives (LLVM's GlobPattern leaves them literal unless told to expand them).
TEST(GraphRegions, BraceGlobsMatchEachAlternative) {
  AnalysisConfig Config;
  Config.GraphRegionGlobs = {"Engine::{run,decode}"};
  auto A = analyze(R"cpp(
struct Engine {
  float run(const at::Tensor &x) { return x.sum().item<float>(); }
  float decode(const at::Tensor &x) { return x.sum().item<float>(); }
  float log(const at::Tensor &x) { return x.sum().item<float>(); }
};
)cpp",
                   Config);
  EXPECT_EQ(A.findings("graphify-host-sync"), (Lines{"3:51", "4:54"}));
}

} // namespace
} // namespace graphify
