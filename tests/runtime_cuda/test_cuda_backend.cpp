// What the CUDA backend does beyond the op table: its counter-based generator's seeding, kernel
// errors reported at the next synchronisation, CPU scalars joining CUDA ops, and the caching
// allocator. That every op of ops.def agrees with the CPU reference on CUDA is the
// backend-consistency suite's job (tests/runtime/test_backend_ops.cpp, built on every machine).
#include "CudaTestUtil.h"

using namespace gfy;
using gfy::cuda_testing::expect_same;

namespace {

TEST(CudaRandom, RangesMomentsAndSeeds) {
  GFY_REQUIRE_CUDA();
  const TensorOptions o = TensorOptions().device(kCUDA);
  gfy::cuda::manual_seed(7);
  Tensor u = rand({100000}, o), n = randn({100001}, o.dtype(kDouble)), r = randint(-3, 4, {100000}, o.dtype(kInt));
  EXPECT_GE(amin(u).item<double>(), 0.0);
  EXPECT_LT(amax(u).item<double>(), 1.0);
  EXPECT_NEAR(mean(u).item<double>(), 0.5, 0.01);
  EXPECT_NEAR(mean(n).item<double>(), 0.0, 0.02);
  EXPECT_NEAR(mean(n * n).item<double>(), 1.0, 0.02);
  EXPECT_GE(amin(r).item<int64_t>(), -3);
  EXPECT_LE(amax(r).item<int64_t>(), 3);
  // Same seed, same numbers; the next draw differs.
  gfy::cuda::manual_seed(7);
  Tensor u2 = rand({100000}, o), u3 = rand({100000}, o);
  EXPECT_TRUE(equal(u.cpu(), u2.cpu()));
  EXPECT_FALSE(equal(u2.cpu(), u3.cpu()));
}

TEST(CudaBackend, NotImplementedNamesTheCudaKernel) {
  GFY_REQUIRE_CUDA();
  Tensor l = tensor({1, 2}).to(kCUDA);
  try {
    (void)hypot(l, l);
    FAIL() << "expected gfy::Error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("\"hypot_cuda\" not implemented for 'Long'"), std::string::npos) << e.what();
  }
}

TEST(CudaBackend, IndexOutOfRangeIsAnError) {
  GFY_REQUIRE_CUDA();
  Tensor a = zeros({3, 4}, TensorOptions().device(kCUDA));
  Tensor bad = tensor(std::vector<int64_t>{0, 7}).to(kCUDA);
  // The kernel cannot throw: the error surfaces at the next synchronisation, with the CPU's text.
  try {
    Tensor r = a.index({bad});
    gfy::cuda::synchronize();
    FAIL() << "expected gfy::Error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("index 7 is out of bounds for dimension 0 with size 3"), std::string::npos) << e.what();
  }
  // The record is cleared: the backend stays usable.
  EXPECT_NO_THROW(gfy::cuda::synchronize());
}

TEST(CudaBackend, CpuScalarJoinsCudaOp) {
  GFY_REQUIRE_CUDA();
  Tensor a = ones({4}, TensorOptions().device(kCUDA));
  Tensor s = scalar_tensor(2.5); // 0-d CPU tensor: LibTorch lets it join a CUDA op
  expect_same(ones({4}) * 3.5, a + s, 0, "a + cpu scalar");
}

TEST(CudaAllocator, CachesFreedMemory) {
  GFY_REQUIRE_CUDA();
  { Tensor warm = empty({1 << 20}, TensorOptions().device(kCUDA)); }
  gfy::cuda::synchronize();
  const AllocatorStats before = allocator_stats(kCUDA);
  for (int i = 0; i < 10; ++i) Tensor t = empty({1 << 20}, TensorOptions().device(kCUDA));
  const AllocatorStats after = allocator_stats(kCUDA);
  EXPECT_EQ(after.allocations - before.allocations, 10u);
  EXPECT_EQ(after.cache_misses, before.cache_misses) << "the pool should serve steady-state allocations";
  empty_cache(kCUDA);
}

TEST(CudaBackend, CpuIndicesIndexACudaTensor) {
  GFY_REQUIRE_CUDA();
  // LibTorch: long indices on the CPU index a tensor on the device (they are copied there).
  const Tensor host = arange(12, dtype(kFloat)).view({4, 3});
  const Tensor rows = tensor(std::vector<int64_t>{2, 0, 3}), cols = tensor(std::vector<int64_t>{1, 1, 0});
  const Tensor x = host.to(kCUDA);
  expect_same(host.index({rows}), x.index({rows}), 0, "index with CPU rows");
  expect_same(host.index({rows, cols}), x.index({rows, cols.to(kCUDA)}), 0, "CPU rows, CUDA columns");
  Tensor y = zeros({4, 3}, TensorOptions().device(kCUDA));
  y.index_put_({rows}, ones({3, 3}, TensorOptions().device(kCUDA)));
  expect_same(zeros({4, 3}).index_put_({rows}, ones({3, 3})), y, 0, "index_put_ with CPU rows");
}

} // namespace
