// Library calls that capture forbids, with the prototypes declared by hand: creating or
// destroying a cuBLAS or cuDNN handle (allocations, a device synchronisation) and TensorRT's
// synchronous execution, inside a capture window; the same calls before the capture are fine. A
// library's own module, declared by hand in the checked file, is the library's: its forward is not
// a graph region of the user's (the packs describe it).
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct cublasContext *cublasHandle_t;
typedef struct cudnnContext *cudnnHandle_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" int cublasCreate_v2(cublasHandle_t *);
extern "C" int cublasDestroy_v2(cublasHandle_t);
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
extern "C" int cudnnCreate(cudnnHandle_t *);
extern "C" int cudnnDestroy(cudnnHandle_t);

namespace nvinfer1 {
class IExecutionContext {
public:
  bool executeV2(void *const *bindings) noexcept;
  bool enqueueV3(cudaStream_t stream) noexcept;
};
} // namespace nvinfer1

static cudnnHandle_t dnn = nullptr;
static cudnnHandle_t dnnHandle() {
  if (!dnn)
    cudnnCreate(&dnn);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudnnCreate' creates a cuDNN handle, which allocates host and device resources; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return dnn;
}

void captureWithHandles(cudaStream_t s, cudaGraph_t *g) {
  cublasHandle_t early;
  cublasCreate(&early); // before the capture
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  dnnHandle();
  cublasHandle_t late;
  cublasCreate(&late);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cublasDestroy(early);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasDestroy' destroys a cuBLAS handle, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  cudnnDestroy(dnn); // after the capture
}

// executeV2 runs the engine and waits for it; enqueueV3 enqueues it on the stream (warmed up).
void captureEngine(nvinfer1::IExecutionContext &context, void *const *bindings, cudaStream_t s, cudaGraph_t *g) {
  context.enqueueV3(s);
  context.executeV2(bindings);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  context.enqueueV3(s);
  context.executeV2(bindings);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'executeV2' runs the engine synchronously, waiting for it on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}

namespace torch::nn {
struct Module {};
struct SequentialImpl : Module {
  void forward() { cudnnDestroy(nullptr); } // the library's body, not checked
};
} // namespace torch::nn

// The other math libraries' handles and generators, created in the window (a solver set up
// lazily by the step it serves) or before it.
typedef struct cusolverDnContext *cusolverDnHandle_t;
typedef struct cusparseContext *cusparseHandle_t;
typedef struct curandGenerator_st *curandGenerator_t;
extern "C" int cusolverDnCreate(cusolverDnHandle_t *);
extern "C" int cusparseCreate(cusparseHandle_t *);
extern "C" int curandCreateGenerator(curandGenerator_t *, int);
void captureSolverStep(cudaStream_t s, cudaGraph_t *g) {
  cusparseHandle_t sparse;
  cusparseCreate(&sparse); // before the capture
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cusolverDnHandle_t dense;
  cusolverDnCreate(&dense);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cusolverDnCreate' creates a cuSOLVER handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  curandGenerator_t gen;
  curandCreateGenerator(&gen, 100);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'curandCreateGenerator' creates a cuRAND generator, which allocates its state on the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}
