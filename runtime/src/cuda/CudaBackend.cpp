// The CUDA backend: one non-blocking stream, a stream-ordered caching allocator on the device's
// default memory pool, the per-capture private pools, host copies and the registration.
//
// Invariants. (1) Every launch and every stream-ordered free goes to current_stream(), so memory
// freed by an eager op is reused only by work ordered after it. (2) Eager allocations use
// cudaMallocFromPoolAsync on the default pool whose release threshold is "never", which makes
// the pool itself the cache: steady-state loops never reach the driver. (3) While a capture is
// active on this thread, allocations come from the capture's PrivatePool, whose blocks are
// allocated outside the graph and kept until the pool dies, so addresses baked into the graph
// stay valid for every replay; frees of older memory during capture are deferred to the pool.
#include "CudaBackend.h"
#include "../graph/DeviceGraph.h"

#include <graphify/core/Functions.h>
#include <graphify/cuda/Cuda.h>

#include <cublas_v2.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace gfy::cuda {
namespace detail {

// --- error reporting -----------------------------------------------------------------------------

std::string capture_error_hint(cudaError_t err) {
  switch (int(err)) {
  case 900: return "this operation is not permitted while a stream is being captured into a CUDA graph "
                   "(synchronous copies, cudaMalloc, cudaStreamSynchronize, host reads); keep the captured region "
                   "free of host synchronisation [graphify-host-sync]";
  case 901: return "the stream capture was invalidated by an earlier illegal operation; the graph is discarded";
  case 902: return "two independent captures were merged (an event from one capture waited on in another)";
  case 903: return "the capture was not started on this stream or was ended on a different stream";
  case 904: return "a stream forked from the capture stream was not joined back before the capture ended";
  case 905: return "a dependency crosses the capture boundary (work captured on one side, waited on the other)";
  case 906: return "an operation implicitly synchronised with the legacy default stream during capture; use the "
                   "backend's non-blocking stream";
  case 907: return "an event recorded during capture was used in a non-captured operation";
  case 908: return "a capture started in thread-local mode was used from another thread";
  default: return "";
  }
}

void throw_cuda_error(cudaError_t err, const char *expr, const char *file, int line) {
  cudaGetLastError(); // clear the sticky-free error so later calls do not report it again
  std::string msg = std::string("CUDA error: ") + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ", " +
                    std::to_string(int(err)) + ") in " + expr + " at " + file + ":" + std::to_string(line);
  const std::string hint = capture_error_hint(err);
  if (!hint.empty()) msg += ": " + hint;
  throw Error(msg);
}

void throw_cublas_error(int status, const char *expr, const char *file, int line) {
  throw Error(std::string("cuBLAS error: ") + cublasGetStatusString(cublasStatus_t(status)) + " (" +
              std::to_string(status) + ") in " + expr + " at " + file + ":" + std::to_string(line));
}

// --- the private pool of a capture ----------------------------------------------------------------

/// Memory of one captured graph. Blocks are allocated from an own cudaMemPool on a side stream
/// (outside the graph: no graph memory nodes, which conditional bodies forbid and which would
/// make relaunching impossible while outputs are alive) and only return to this pool's free
/// lists, never to the device, until the pool is destroyed with the last graph/tensor using it.
struct PrivatePool {
  cudaMemPool_t pool = nullptr;
  cudaStream_t side = nullptr;
  std::unordered_map<size_t, std::vector<void *>> free_blocks;
  std::vector<void *> blocks;  ///< every block ever allocated here
  std::vector<void *> adopted; ///< default-pool memory freed during capture (the graph may use it)
  size_t bytes = 0;

  PrivatePool() {
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
    CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  }
  ~PrivatePool() {
    // Destructors must not throw, and may run after the CUDA runtime unloaded at exit: errors
    // are ignored. The backend stream is drained first so that no launched replay still uses
    // the memory.
    cudaStreamSynchronize(backend_stream());
    for (void *p : blocks) cudaFreeAsync(p, side);
    for (void *p : adopted) cudaFreeAsync(p, side);
    cudaStreamSynchronize(side);
    cudaStreamDestroy(side);
    cudaMemPoolDestroy(pool);
  }
  void *allocate(size_t b) {
    auto &fl = free_blocks[b];
    if (!fl.empty()) {
      void *p = fl.back();
      fl.pop_back();
      return p;
    }
    void *p = nullptr;
    with_relaxed_capture_mode([&] {
      CUDA_CHECK(cudaMallocFromPoolAsync(&p, b, pool, side));
      CUDA_CHECK(cudaStreamSynchronize(side));
    });
    blocks.push_back(p);
    bytes += b;
    return p;
  }
};

namespace {

size_t bucket_size(size_t bytes) {
  if (bytes == 0) bytes = 1;
  const size_t g = bytes <= (size_t(1) << 20) ? 512 : (size_t(64) << 10);
  return (bytes + g - 1) / g * g;
}

thread_local cudaStream_t t_stream_override = nullptr;
thread_local std::shared_ptr<PrivatePool> t_capture_pool;

class CudaBackend final : public Backend {
public:
  // Construction is free: the CUDA context, stream, pool settings and cuBLAS handle are made on
  // first use (ready()), so a process that links the runtime but never touches CUDA pays only the
  // device count at start-up.
  CudaBackend() = default;

  /// Initialises the device state once; every entry point that touches CUDA calls it first.
  void ready() const {
    std::call_once(once_, [this] { const_cast<CudaBackend *>(this)->init(); });
  }
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }

private:
  void init() {
    CUDA_CHECK(cudaGetDevice(&device_));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool_, device_));
    // Keep freed memory in the pool: this is what makes the pool a caching allocator.
    uint64_t threshold = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold));
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&host_error_), sizeof(DeviceErrorRecord), cudaHostAllocMapped));
    std::memset(host_error_, 0, sizeof(DeviceErrorRecord));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&device_error_), host_error_, 0));
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&host_error_->claim), sizeof(int)));
    CUDA_CHECK(cudaMemsetAsync(host_error_->claim, 0, sizeof(int), stream_));
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&rng_offset_), sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemsetAsync(rng_offset_, 0, sizeof(unsigned long long), stream_));
    CUBLAS_CHECK(cublasCreate(&blas_));
    // A fixed cuBLAS workspace: cuBLAS must not allocate during stream capture.
    CUDA_CHECK(cudaMalloc(&blas_workspace_, kBlasWorkspace));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    initialized_.store(true, std::memory_order_release);
  }

public:
  DeviceType device_type() const override { return kCUDA; }
  const char *name() const override { return "cuda"; }
  bool supports(OpId op, ScalarType dtype) const override;
  void compute(OpCall &call) override;

  void *allocate(size_t bytes) override {
    ready();
    const size_t b = bucket_size(bytes);
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.allocations;
    void *p = nullptr;
    if (t_capture_pool) {
      const size_t before = t_capture_pool->bytes;
      p = t_capture_pool->allocate(b);
      if (t_capture_pool->bytes != before) ++stats_.cache_misses;
      live_[p] = {b, t_capture_pool};
    } else {
      cudaError_t err = cudaMallocFromPoolAsync(&p, b, pool_, current_stream());
      if (err == cudaErrorMemoryAllocation) {
        // Out of memory: return the pool's unused memory to the device once, then retry.
        cudaGetLastError();
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        CUDA_CHECK(cudaMemPoolTrimTo(pool_, 0));
        pool_peak_ = pool_live_;
        err = cudaMallocFromPoolAsync(&p, b, pool_, current_stream());
      }
      if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw Error("CUDA out of memory: tried to allocate " + std::to_string(b) + " bytes (" +
                    std::to_string(stats_.bytes_in_use) + " bytes in use)");
      }
      CUDA_CHECK(err);
      // A miss is an allocation that takes the pool's live bytes past their previous peak: the pool
      // had to grow. (Asking the pool for its reserved size costs a driver call per allocation.)
      pool_live_ += b;
      if (pool_live_ > pool_peak_) {
        pool_peak_ = pool_live_;
        ++stats_.cache_misses;
      }
      live_[p] = {b, nullptr};
    }
    stats_.bytes_in_use += b;
    return p;
  }

  void deallocate(void *ptr, size_t) override {
    // Runs from Storage destructors: never throws, tolerates a runtime that already unloaded.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(ptr);
    if (it == live_.end()) return;
    const Block blk = it->second;
    live_.erase(it);
    stats_.bytes_in_use -= blk.bytes;
    if (blk.pool) {
      // Back to its capture's free list: reusable by later allocations of the same capture only.
      blk.pool->free_blocks[blk.bytes].push_back(ptr);
      return;
    }
    pool_live_ -= blk.bytes;
    if (t_capture_pool) {
      // The graph being captured may read this buffer at replay: keep it until the graph dies.
      t_capture_pool->adopted.push_back(ptr);
      return;
    }
    cudaFreeAsync(ptr, current_stream());
  }

  void copy_to_host(void *dst, const void *src, size_t bytes) override {
    ready();
    refuse_under_capture("a device-to-host copy");
    if (bytes == 0) return;
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, current_stream()));
    CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    check_device_errors();
  }

  void copy_from_host(void *dst, const void *src, size_t bytes) override;

  AllocatorStats stats() const override {
    ready();
    std::lock_guard<std::mutex> lock(mu_);
    AllocatorStats s = stats_;
    uint64_t used = 0;
    cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemCurrent, &used);
    const uint64_t reserved = pool_reserved();
    s.bytes_cached = reserved > used ? reserved - used : 0;
    return s;
  }

  void empty_cache() override {
    ready();
    std::lock_guard<std::mutex> lock(mu_);
    if (t_capture_pool) return; // nothing may be released while a graph is being built
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    CUDA_CHECK(cudaMemPoolTrimTo(pool_, 0));
    pool_peak_ = pool_live_;
  }

  LaunchContext context() {
    ready();
    const cudaStream_t s = current_stream();
    if (s != blas_stream_) {
      // cublasSetStream resets the workspace to cuBLAS's own pool; set ours again each time.
      CUBLAS_CHECK(cublasSetStream(blas_, s));
      CUBLAS_CHECK(cublasSetWorkspace(blas_, blas_workspace_, kBlasWorkspace));
      blas_stream_ = s;
    }
    return LaunchContext{s, device_error_, blas_, this, seed_.load(), rng_offset_};
  }

  cudaStream_t stream() const {
    ready();
    return stream_;
  }
  DeviceErrorRecord *host_error() const { return host_error_; }
  void seed(uint64_t s) {
    ready();
    seed_ = s;
    CUDA_CHECK(cudaMemsetAsync(rng_offset_, 0, sizeof(unsigned long long), current_stream()));
  }
  cudaStream_t body_stream(int depth) {
    ready();
    std::lock_guard<std::mutex> lock(mu_);
    while (int(body_streams_.size()) <= depth) {
      cudaStream_t s = nullptr;
      with_relaxed_capture_mode([&] { CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); });
      body_streams_.push_back(s);
    }
    return body_streams_[size_t(depth)];
  }

private:
  static constexpr size_t kBlasWorkspace = size_t(32) << 20;
  struct Block {
    size_t bytes;
    std::shared_ptr<PrivatePool> pool;
  };
  uint64_t pool_reserved() const {
    uint64_t r = 0;
    cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &r);
    return r;
  }
  void refuse_under_capture(const char *what) const {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    CUDA_CHECK(cudaStreamIsCapturing(current_stream(), &st));
    if (st != cudaStreamCaptureStatusNone)
      throw Error(std::string(what) + " needs the host to wait for the device, which cannot happen inside a "
                                      "captured CUDA graph [graphify-host-sync]");
  }

  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaMemPool_t pool_ = nullptr;
  DeviceErrorRecord *host_error_ = nullptr, *device_error_ = nullptr;
  unsigned long long *rng_offset_ = nullptr;
  std::atomic<uint64_t> seed_{67280421310721ULL};
  cublasHandle_t blas_ = nullptr;
  cudaStream_t blas_stream_ = nullptr;
  void *blas_workspace_ = nullptr;
  std::vector<cudaStream_t> body_streams_;
  mutable std::once_flag once_;
  std::atomic<bool> initialized_{false};
  mutable std::mutex mu_;
  std::unordered_map<void *, Block> live_;
  uint64_t pool_live_ = 0, pool_peak_ = 0; ///< default-pool bytes handed out, and their peak
  AllocatorStats stats_;
};

// --- op table --------------------------------------------------------------------------------------

// The CUDA backend implements exactly the CPU reference's dtype sets (STYLE.md §8): op_table_dtypes.
using KernelFn = void (*)(OpCall &, const LaunchContext &);
constexpr KernelFn kKernels[] = {
#define GFY_OP(name, kind, dtypes, traits) &name##_cuda,
#include <graphify/ops.def>
#undef GFY_OP
};

bool CudaBackend::supports(OpId op, ScalarType dtype) const {
  return op_table_dtypes(op, dtype);
}

void CudaBackend::compute(OpCall &call) {
  // Errors of kernels that already finished surface here for free (a read of mapped memory);
  // the rest surface at the next synchronize()/host copy.
  if (!t_capture_pool) check_device_errors();
  for (Tensor &t : call.in) {
    if (!t.defined() || t.is_cuda() || t.numel() == 0) continue;
    // LibTorch lets a CPU 0-d tensor join a CUDA op (common_device allows it); it arrives here
    // broadcast (all strides 0). Its one value moves to the device through a kernel argument,
    // which is also legal under capture, where it becomes a constant of the graph.
    const TensorImpl &ti = *t.unsafeGetTensorImpl();
    bool scalar = true;
    for (int64_t s : ti.strides) scalar = scalar && s == 0;
    if (!scalar)
      throw Error(std::string("op ") + std::string(op_name(call.op)) + ": input on " + t.device().str() +
                  " given to the CUDA backend; expected all tensors to be on the same device");
    Tensor one = gfy::detail::make_tensor({}, ti.dtype, Device(kCUDA));
    copy_from_host(one.unsafeGetTensorImpl()->data(), ti.data(), element_size(ti.dtype));
    t = gfy::detail::make_view(one, ti.sizes, std::vector<int64_t>(ti.sizes.size(), 0), 0);
  }
  const LaunchContext ctx = context();
  kKernels[int(call.op)](call, ctx);
}

void CudaBackend::copy_from_host(void *dst, const void *src, size_t bytes) {
  ready();
  if (bytes == 0) return;
  if (bytes <= SmallCopy::kMax) {
    SmallCopy c;
    std::memcpy(c.bytes, src, bytes);
    launch_small_copy(current_stream(), dst, c, bytes);
    return;
  }
  refuse_under_capture("a host-to-device copy of more than 256 bytes");
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, current_stream()));
  // The source is pageable host memory the caller may free on return.
  CUDA_CHECK(cudaStreamSynchronize(current_stream()));
}

CudaBackend *g_backend = nullptr;

/// Registers the backend when the process starts, if a device is present. The anchor symbol
/// below is what cuda.cmake forces the linker to keep (the runtime is a static library).
struct Registrar {
  Registrar() {
    if (device_count() <= 0) return;
    try {
      auto b = std::make_unique<CudaBackend>();
      g_backend = b.get();
      register_backend(kCUDA, std::move(b));
      gfy::detail::set_device_capture_hooks(&device_capture_hooks()); // gfy::capture's CUDA graphs
    } catch (const std::exception &) {
      // A device that cannot be initialised (driver mismatch, MIG without access, ...) means no
      // CUDA backend; backend_for(kCUDA) then explains that no backend is registered.
      g_backend = nullptr;
    }
  }
};
Registrar g_registrar;

CudaBackend &the_backend() {
  if (!g_backend)
    throw Error("the CUDA backend is not available: no CUDA device was found when the runtime started");
  return *g_backend;
}

} // namespace

std::shared_ptr<PrivatePool> make_private_pool() {
  the_backend();
  return std::make_shared<PrivatePool>();
}
void set_capture_pool(std::shared_ptr<PrivatePool> pool) { t_capture_pool = std::move(pool); }

cudaStream_t current_stream() { return t_stream_override ? t_stream_override : the_backend().stream(); }
cudaStream_t backend_stream() { return g_backend ? g_backend->stream() : nullptr; }
StreamOverride::StreamOverride(cudaStream_t s) : previous_(t_stream_override) { t_stream_override = s; }
StreamOverride::~StreamOverride() { t_stream_override = previous_; }
cudaStream_t body_stream(int depth) { return the_backend().body_stream(depth); }
Backend &cuda_backend() { return the_backend(); }

void check_device_errors() {
  if (!g_backend || !g_backend->initialized()) return;
  volatile DeviceErrorRecord *e = g_backend->host_error();
  if (e->code == kNoError) return;
  const DeviceErrorRecord r{e->code, e->dim, e->value, e->size, nullptr};
  e->code = kNoError;
  // Release the claim after everything already queued (the failing kernel is long done).
  cudaMemsetAsync(g_backend->host_error()->claim, 0, sizeof(int), backend_stream());
  if (r.code == kIndexOutOfRange)
    throw Error(gfy::detail::str_cat("index ", int64_t(r.value), " is out of bounds for dimension ", r.dim,
                                     " with size ", int64_t(r.size), " (reported by a CUDA kernel)"));
  if (r.code == kTargetOutOfBounds)
    throw Error(gfy::detail::str_cat("Target ", int64_t(r.value), " is out of bounds. (reported by a CUDA kernel)"));
  if (r.code == kNegativeIntegerPower)
    throw Error("Integers to negative integer powers are not allowed. (reported by a CUDA kernel)");
  if (r.code == kIntegerDivisionByZero) throw Error("ZeroDivisionError (reported by a CUDA kernel)");
  throw Error("a CUDA kernel reported error code " + std::to_string(r.code));
}

extern "C" {
/// Referenced by the link option in runtime/cuda.cmake so that this object (and its registrar) is
/// kept when the static runtime is linked.
int gfy_cuda_backend_anchor = 0;
}

} // namespace detail

using namespace detail;

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

bool is_available() { return g_backend != nullptr; }

void synchronize() {
  CUDA_CHECK(cudaStreamSynchronize(the_backend().stream()));
  check_device_errors();
}

void manual_seed(uint64_t seed) { the_backend().seed(seed); }
void *current_stream() { return static_cast<void *>(detail::current_stream()); }

bool is_stream_capturing() {
  if (!g_backend) return false;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  CUDA_CHECK(cudaStreamIsCapturing(detail::current_stream(), &st));
  return st == cudaStreamCaptureStatusActive;
}

} // namespace gfy::cuda
