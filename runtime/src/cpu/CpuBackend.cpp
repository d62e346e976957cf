// The CPU backend: the readable reference every other backend is checked against (its kernels
// from the kernel table of the CPU's instruction-set level, KernelTable.h), plus the caching
// allocator. Invariant of the allocator: a block handed out is 64-byte aligned and at
// least as large as requested; a freed block goes back to the free list of its exact bucket
// size, so steady-state eager loops and graph replays never reach the system allocator.
#include "KernelTable.h"

#include <graphify/core/Functions.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unordered_map>
#include <vector>

namespace gfy {
namespace cpu {
namespace {

// Buckets: 256-byte granularity up to 1 MiB, then 64 KiB, so that tensors of the same shape
// always share a bucket while odd sizes waste at most a little.
size_t bucket_size(size_t bytes) {
  if (bytes == 0) bytes = 1;
  const size_t g = bytes <= (size_t(1) << 20) ? 256 : (size_t(64) << 10);
  return (bytes + g - 1) / g * g;
}

class CpuBackend final : public Backend {
public:
  DeviceType device_type() const override { return kCPU; }
  const char *name() const override { return "cpu"; }
  bool supports(OpId op, ScalarType dtype) const override {
    return op_table_dtypes(op, dtype);
  }
  void compute(OpCall &call) override { kernels().op[int(call.op)](call); }

  void *allocate(size_t bytes) override {
    const size_t b = bucket_size(bytes);
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.allocations;
    stats_.bytes_in_use += b;
    auto it = free_.find(b);
    if (it != free_.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      stats_.bytes_cached -= b;
      return p;
    }
    ++stats_.cache_misses;
    void *p = system_alloc(b);
    if (!p) {
      // Out of memory: give the cache back once before failing.
      release_all_locked();
      p = system_alloc(b);
    }
    if (!p) {
      stats_.bytes_in_use -= b;
      throw Error("CPU out of memory: tried to allocate " + std::to_string(b) + " bytes");
    }
    return p;
  }
  void deallocate(void *ptr, size_t bytes) override {
    const size_t b = bucket_size(bytes);
    std::lock_guard<std::mutex> lock(mu_);
    stats_.bytes_in_use -= b;
    stats_.bytes_cached += b;
    free_[b].push_back(ptr);
  }
  void copy_to_host(void *dst, const void *src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy_from_host(void *dst, const void *src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  AllocatorStats stats() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }
  void empty_cache() override {
    std::lock_guard<std::mutex> lock(mu_);
    release_all_locked();
  }

private:
  /// Large blocks (a graph's pool, a vocabulary's logits) start on a 2 MiB boundary and ask the
  /// kernel for transparent huge pages: streamed through by a GEMM or a softmax, a buffer of
  /// 4 KiB pages misses the TLB every few KiB, and whether a block happened to get huge pages
  /// (under THP's default `madvise` policy: only when asked) made identical graphs differ by 10%.
  static void *system_alloc(size_t b) {
    constexpr size_t kHuge = size_t(2) << 20;
    if (b < 2 * kHuge) return std::aligned_alloc(64, b);
    void *p = std::aligned_alloc(kHuge, (b + kHuge - 1) / kHuge * kHuge);
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, b, MADV_HUGEPAGE); // advice only: without THP the block is ordinary memory
#endif
    return p;
  }
  void release_all_locked() {
    for (auto &[size, blocks] : free_)
      for (void *p : blocks) std::free(p);
    free_.clear();
    stats_.bytes_cached = 0;
  }
  mutable std::mutex mu_;
  std::unordered_map<size_t, std::vector<void *>> free_;
  AllocatorStats stats_;
};

} // namespace

Backend *make_cpu_backend() { return new CpuBackend(); }

} // namespace cpu

namespace {
// Backends are never destroyed: tensors with static storage duration may release their storage
// after main returns, and they must still find their backend.
Backend *&backend_slot(DeviceType t) {
  static Backend *slots[kNumDeviceTypes] = {cpu::make_cpu_backend(), nullptr};
  return slots[int(t)];
}
} // namespace

Backend &backend_for(DeviceType type) {
  Backend *b = backend_slot(type);
  if (!b)
    throw Error(std::string("no backend for device type ") + (type == kCUDA ? "cuda" : "cpu") +
                ": this build of the graphify runtime has no CUDA backend (or no GPU was found)");
  return *b;
}

bool has_backend(DeviceType type) { return backend_slot(type) != nullptr; }

void register_backend(DeviceType type, std::unique_ptr<Backend> backend) {
  backend_slot(type) = backend.release();
}

AllocatorStats allocator_stats(DeviceType device) { return backend_for(device).stats(); }
void empty_cache(DeviceType device) { backend_for(device).empty_cache(); }

bool op_table_dtypes(OpId op, ScalarType dtype) {
  // Half and bfloat16 are storage types: backends convert them, and every other op on them runs
  // in float (detail::run, src/core/Dispatch.cpp).
  if (isReducedFloatingType(dtype)) return op == OpId::copy;
  const int i = int(op);
  return i >= 0 && i < kNumOps && in_dtype_set(op_dtype_set(op), dtype);
}

std::string_view op_name(OpId op) {
  static constexpr std::string_view names[] = {
#define GFY_OP(name, kind, dtypes, traits) #name,
#include <graphify/ops.def>
#undef GFY_OP
  };
  return names[int(op)];
}

} // namespace gfy
