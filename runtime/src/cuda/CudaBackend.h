#pragma once
// Private interface of the CUDA backend: the launch context every kernel wrapper receives, the
// device-side error record, the kernel entry points (one per ops.def line) and the pieces of
// the backend the capture helpers need (stream override, allocator capture pool).
//
// Invariant: every kernel runs on `LaunchContext::stream`, which is the backend stream or, while
// a conditional body is being captured, the body's capture stream. Nothing in the backend ever
// synchronises the device except the host copies and explicit synchronize(), so eager execution
// and stream capture share one code path (STYLE.md §9).
#include "CudaCheck.h"

#include <graphify/core/Backend.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <memory>

namespace gfy::detail {
struct DeviceCaptureHooks;
}

namespace gfy::cuda::detail {

/// gfy::capture's access to this backend's stream capture and conditional nodes (CudaCapture.cpp),
/// handed to the core when the backend registers.
const gfy::detail::DeviceCaptureHooks &device_capture_hooks();


/// Written by kernels that find bad data (an index out of range) into mapped pinned memory; the
/// host turns it into a gfy::Error at the next synchronisation point (kernels cannot throw).
struct DeviceErrorRecord {
  int code;        ///< 0 = none, 1 = index out of range, 2 = negative integer power,
                   ///< 3 = integer division by zero (fmod, remainder, floor_divide),
                   ///< 4 = nll_loss target out of bounds
  int dim;
  long long value; ///< the offending index
  long long size;  ///< the size of the indexed dimension
  int *claim;      ///< device memory: the first reporting thread claims the record (atomicCAS
                   ///< there; atomics on mapped host memory are not guaranteed over PCIe)
};
enum DeviceErrorCode {
  kNoError = 0,
  kIndexOutOfRange = 1,
  kNegativeIntegerPower = 2,
  kIntegerDivisionByZero = 3,
  kTargetOutOfBounds = 4, ///< a class target of nll_loss outside [0, C) (`value`)
};

/// Everything a kernel wrapper needs besides the OpCall.
struct LaunchContext {
  cudaStream_t stream;
  DeviceErrorRecord *error;   ///< device pointer of the mapped error record
  cublasHandle_t blas;        ///< bound to `stream`, workspace set
  Backend *backend;           ///< for temporary workspace (allocate/deallocate)
  uint64_t seed;              ///< generator seed
  unsigned long long *offset; ///< device counter of random numbers drawn (advanced by kernels)
};

#define GFY_OP(name, kind, dtypes, traits) void name##_cuda(OpCall &call, const LaunchContext &ctx);
#include <graphify/ops.def>
#undef GFY_OP

/// The backend's private-pool hooks used by CaptureSession (src/cuda/CudaCapture.cpp).
struct PrivatePool;
std::shared_ptr<PrivatePool> make_private_pool();
/// Routes allocations of this thread's capture into `pool` (null restores the default pool).
void set_capture_pool(std::shared_ptr<PrivatePool> pool);

/// The stream kernels of this thread currently launch on.
cudaStream_t current_stream();
/// The backend's own stream (the one captures start on).
cudaStream_t backend_stream();
/// While alive, kernels of this thread launch on `s` (conditional body capture).
class StreamOverride {
public:
  explicit StreamOverride(cudaStream_t s);
  ~StreamOverride();
  StreamOverride(const StreamOverride &) = delete;
  StreamOverride &operator=(const StreamOverride &) = delete;

private:
  cudaStream_t previous_;
};
/// A stream for capturing conditional bodies at nesting `depth` (created on first use).
cudaStream_t body_stream(int depth);

/// Throws gfy::Error when a kernel recorded a data error (clearing the record).
void check_device_errors();
/// The registered backend (throws when CUDA is unavailable).
Backend &cuda_backend();

/// Runs `fn` with the thread's stream-capture mode relaxed, so that allocation calls that are
/// "potentially unsafe" under thread-local capture (cudaStreamSynchronize of a side stream,
/// cudaStreamCreate) are allowed; the mode is restored even when `fn` throws.
template <class Fn> void with_relaxed_capture_mode(Fn &&fn) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  struct Restore {
    cudaStreamCaptureMode m;
    ~Restore() { cudaThreadExchangeStreamCaptureMode(&m); }
  } restore{mode};
  fn();
}

/// Small host-to-device copies (scalars wrapped as 0-d tensors, index lists) travel as kernel
/// arguments: the bytes are captured by value into the launch, so they are stream-ordered, legal
/// inside a CUDA graph, and the host buffer may die right after the call.
struct SmallCopy {
  static constexpr size_t kMax = 256;
  unsigned char bytes[kMax];
};
void launch_small_copy(cudaStream_t s, void *dst, const SmallCopy &src, size_t n);

/// Launches the kernel that sets conditional handles from a one-element device predicate.
/// `negate` sets `h_else` (if not 0) to the negation, for the else branch.
void launch_set_conditional(cudaStream_t s, unsigned long long h_then, unsigned long long h_else, const void *pred,
                            ScalarType dtype);

} // namespace gfy::cuda::detail
