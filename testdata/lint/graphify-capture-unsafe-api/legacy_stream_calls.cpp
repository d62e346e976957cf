// Work enqueued on the legacy default stream inside a capture window: an omitted stream argument,
// 0, NULL or cudaStreamLegacy. The legacy stream synchronises with the stream being captured,
// which is illegal in every capture mode; an explicit stream and cudaStreamPerThread are fine.
// Which argument is the stream, and which names mean the legacy stream, is rules/cuda.yaml's
// (stream_ordered, stream_arg, legacy_streams). Prototypes as the toolkit declares them.
#include <cstddef>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUevent_st *cudaEvent_t;
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                       cudaStream_t stream = 0);
extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                        cudaStream_t stream);
extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);

#define CUDA_TRY(call)                                                                             \
  do {                                                                                             \
    if ((call) != 0)                                                                               \
      return;                                                                                      \
  } while (0)

void copyInGlobalCapture(float *dst, const float *src, size_t n, cudaStream_t s, cudaGraph_t *g) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice); // before capture: fine
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' without a stream enqueues the copy on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' without a stream enqueues the copy on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cudaStreamLegacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' on stream 'cudaStreamLegacy' enqueues the copy on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  CUDA_TRY(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cudaStreamLegacy));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cudaMemcpyAsync' on stream 'cudaStreamLegacy' enqueues the copy on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cudaStreamPerThread);
  cudaStreamEndCapture(s, g);
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost); // after capture: fine
}

void launchInGlobalCapture(const void *kernel, void **args, cudaStream_t s, cudaGraph_t *g) {
  dim3 grid, block;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaLaunchKernel(kernel, grid, block, args, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' without a stream launches the kernel on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaLaunchKernel(kernel, grid, block, args, 0, NULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' without a stream launches the kernel on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaLaunchKernel(kernel, grid, block, args, 0, cudaStreamLegacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' on stream 'cudaStreamLegacy' launches the kernel on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaLaunchKernel(kernel, grid, block, args, 0, s);
  cudaLaunchKernel(kernel, grid, block, args, 0, cudaStreamPerThread);
  cudaStreamEndCapture(s, g);
  cudaLaunchKernel(kernel, grid, block, args, 0, 0);
}

// Relaxed mode relaxes which calls are allowed, not which stream may be used.
void recordInRelaxedCapture(cudaEvent_t ev, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaEventRecord(ev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventRecord' without a stream records the event on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaEventRecord(ev, s);
  cudaStreamEndCapture(s, g);
  cudaEventRecord(ev);
}
