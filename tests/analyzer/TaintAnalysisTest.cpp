// The taint engine on small functions: sources, propagation, kills, joins, loops, summaries.
#include "AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace graphify {
namespace {

using test::analyze;

constexpr const char *Branch = "graphify-data-dependent-branch";
using Lines = std::vector<std::string>;

TEST(TaintAnalysis, ItemIsASourceAndShapesStayClean) {
  auto A = analyze(R"cpp(
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    float s = x.sum().item<float>();
    long n = x.size(0);
    if (n > 2) x = x * 2.0;
    if (s > 0) x = x * 3.0;
    return x;
  }
};
)cpp");
  EXPECT_EQ(A.findings(Branch), Lines{"7:9"});
  ASSERT_NE(A.exprAt("s > 0"), nullptr);
  EXPECT_NE(A.Result.Facts->taintOf(A.exprAt("s > 0")), nullptr);
  EXPECT_EQ(A.Result.Facts->taintOf(A.exprAt("n > 2")), nullptr);
}

TEST(TaintAnalysis, OverwriteClearsAndJoinKeeps) {
  auto A = analyze(R"cpp(
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x, bool flag) {
    float a = x.sum().item<float>();
    a = 1.0f;
    if (a > 0) x = x * 2.0;
    float b = 0;
    if (flag) b = x.max().item<float>();
    if (b > 0) x = x * 3.0;
    return x;
  }
};
)cpp");
  EXPECT_EQ(A.findings(Branch), Lines{"9:9"});
}

TEST(TaintAnalysis, LoopCarriedTaintReachesTheFixpoint) {
  auto A = analyze(R"cpp(
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    float a = 0, b = 0;
    for (int i = 0; i < 3; ++i) {
      if (b > 0) x = x * 2.0;
      b = a;
      a = x.sum().item<float>();
    }
    return x;
  }
};
)cpp");
  // `b` is tainted only from the third iteration on: the fixpoint must find it.
  EXPECT_EQ(A.findings(Branch), Lines{"6:11"});
}

TEST(TaintAnalysis, SummariesCarryReturnsAndOutParameters) {
  auto A = analyze(R"cpp(
static float peek(const at::Tensor &t) { return t.max().item<float>(); }
static float twice(float v) { return v * 2; }
static void fill(const at::Tensor &t, float &out) { out = t.sum().item<float>(); }
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    if (twice(1.0f) > 0) x = x * 2.0;
    if (twice(peek(x)) > 0) x = x * 3.0;
    float o = 0;
    fill(x, o);
    if (o > 1) x = x * 4.0;
    return x;
  }
};
)cpp");
  EXPECT_EQ(A.findings(Branch), (Lines{"8:9", "11:9"}));
}

TEST(TaintAnalysis, FieldsAreFieldSensitive) {
  auto A = analyze(R"cpp(
struct S { float v = 0; int k = 3; };
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    S s;
    s.v = x.sum().item<float>();
    if (s.k > 1) x = x * 2.0;
    if (s.v > 1) x = x * 3.0;
    return x;
  }
};
)cpp");
  EXPECT_EQ(A.findings(Branch), Lines{"8:9"});
}

TEST(TaintAnalysis, MasksComeFromComparisonsAndStayMasksThroughBitOps) {
  auto A = analyze(R"cpp(
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x, at::Tensor maybe) {
    auto m = x > 0.0;
    auto a = x.index(~m & (x > 1.0));
    auto b = x.index(x.argmax());
    auto c = x.index(maybe);
    auto d = x.index(maybe.to(at::kBool));
    return a * 1.0;
  }
};
)cpp");
  EXPECT_TRUE(A.Result.Facts->isBoolMask(A.exprAt("~m & (x > 1.0)")));
  EXPECT_FALSE(A.Result.Facts->isBoolMask(A.exprAt("x.argmax()")));
  EXPECT_FALSE(A.Result.Facts->isBoolMask(A.exprAt("maybe)")));
  EXPECT_TRUE(A.Result.Facts->isBoolMask(A.exprAt("maybe.to(at::kBool)")));
}

TEST(TaintAnalysis, TraceProfileReportsOnlyReadsThatReachTheGraph) {
  AnalysisConfig Config;
  Config.ProfileKind = Profile::Trace;
  auto A = analyze(R"cpp(
void logValue(float);
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    logValue(x.sum().item<float>());
    float s = x.max().item<float>();
    return x * s;
  }
};
)cpp",
                   Config);
  EXPECT_EQ(A.findings("graphify-host-sync"), Lines{"6:23"});
}

TEST(TaintAnalysis, HelpersAreBlamedOnlyForWhatGraphCodePassesThem) {
  const char *Helper = R"cpp(
static at::Tensor grow(at::Tensor x, long n) { return x.view(n, -1); }
void train(at::Tensor loss, at::Tensor x) { grow(x, loss.item<long>()); }
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) { return grow(x, 4); }
};
)cpp";
  EXPECT_EQ(analyze(Helper).findings("graphify-data-dependent-size"), Lines{});
  std::string FromGraph = std::string(Helper) + R"cpp(
struct N : torch::nn::Module {
  at::Tensor forward(at::Tensor x) { return grow(x, x.sum().item<long>()); }
};
)cpp";
  EXPECT_EQ(analyze(FromGraph).findings("graphify-data-dependent-size"), Lines{"2:62"});
}

TEST(TaintAnalysis, GlobalFunctionsNamedLikeTensorOpsAreNotTheApi) {
  auto A = analyze(R"cpp(
void print(const char *);
float log(float);
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    print("step");
    return x * log(2.0f);
  }
};
)cpp");
  EXPECT_TRUE(A.Result.Findings.empty());
}

TEST(TaintAnalysis, TensorReferenceParametersCarryHostResidency) {
  // What a helper leaves in a `Tensor&` parameter: a host tensor it made (fill), what another
  // parameter held at the call (pass: host for `host`, not for the parameter `x`), or a device
  // tensor (upload). The placeholder a parameter starts with is never reported inside a helper;
  // upload's only call gives it a host tensor (fill's), so its copy is reported there (4:36).
  auto A = analyze(R"cpp(
void fill(at::Tensor &out) { out = at::zeros(4); }
void pass(const at::Tensor &in, at::Tensor &out) { out = in * 2.0; }
void upload(at::Tensor &t) { t = t.to(c10::DeviceType::CUDA); }
struct M : torch::nn::Module {
  at::Tensor forward(at::Tensor x) {
    at::Tensor host, copied, fromx, moved;
    fill(host);
    pass(host, copied);
    pass(x, fromx);
    fill(moved);
    upload(moved);
    auto a = host.to(c10::DeviceType::CUDA);
    auto b = copied.to(c10::DeviceType::CUDA);
    auto c = fromx.to(c10::DeviceType::CUDA);
    auto d = moved.to(c10::DeviceType::CUDA);
    return a * 1.0;
  }
};
)cpp");
  EXPECT_EQ(A.findings("graphify-host-sync"), (Lines{"4:36", "13:19", "14:21"}));
}

} // namespace
} // namespace graphify
