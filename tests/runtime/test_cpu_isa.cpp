// The CPU kernels' instruction-set levels (src/cpu/IsaRegion.h, src/cpu/KernelDispatch.cpp): which
// level runs, switching levels, the errors, and that every level computes what the lowest does.
// ctest also runs this whole binary at every level the build has (runtime.isa.*), so every suite,
// the backend-consistency table and the captured-graph bit checks included, runs at each level.
#include "TestUtil.h"

#include <graphify/core/Backend.h>

#include <cstdlib>
#include <string>

using namespace gfy;
using namespace gfy::testing;

namespace {

/// Puts back the level in use when a test that switches levels ends.
struct RestoreCpuIsa {
  std::string level{cpu_isa()};
  ~RestoreCpuIsa() { set_cpu_isa(level); }
};

std::string error_of(std::string_view level) {
  try {
    set_cpu_isa(level);
  } catch (const Error &e) {
    return e.what();
  }
  return "no error";
}

TEST(CpuIsa, TheLevelInUseIsTheHighestTheCpuRunsUnlessTheEnvironmentNamesOne) {
  const std::vector<std::string_view> levels = cpu_isas();
  ASSERT_FALSE(levels.empty());
  const char *env = std::getenv("GRAPHIFY_CPU_ISA");
  EXPECT_EQ(cpu_isa(), env && *env ? std::string_view(env) : levels.back());
}

TEST(CpuIsa, EveryLevelComputesWhatTheLowestComputes) {
  RestoreCpuIsa restore;
  manual_seed(3);
  const Tensor x = randn({3, 257}), w = randn({257, 19}), img = randn({2, 3, 9, 40}), k = randn({8, 3, 3, 3});
  auto run = [&] {
    return std::vector<Tensor>{tanh(x) * sigmoid(x) + exp(x), mm(x, w), log_softmax(x, 1), conv2d(img, k, {}, 1, 1),
                               x.sum(1), (x > 0.5).sum(), x.to(kInt).abs()};
  };
  set_cpu_isa(cpu_isas().front());
  const std::vector<Tensor> lowest = run();
  for (std::string_view level : cpu_isas()) {
    set_cpu_isa(level);
    EXPECT_EQ(cpu_isa(), level);
    const std::vector<Tensor> got = run();
    for (size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE(std::string(level) + ", result " + std::to_string(i));
      expect_near(got[i], values(lowest[i]), 1e-4);
    }
  }
}

TEST(CpuIsa, ALevelThisBuildLacksIsAnErrorNamingTheLevelsItHas) {
  RestoreCpuIsa restore;
  const std::string error = error_of("avx9");
  EXPECT_NE(error.find("set_cpu_isa(\"avx9\"): not a CPU kernel level of this build"), std::string::npos) << error;
  for (std::string_view level : cpu_isas()) EXPECT_NE(error.find(std::string(level)), std::string::npos) << error;
  EXPECT_EQ(cpu_isa(), restore.level) << "a refused level must leave the level in use alone";
}

} // namespace
