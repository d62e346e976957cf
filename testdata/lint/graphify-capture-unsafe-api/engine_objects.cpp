// A TensorRT inference function that makes its execution context on each call, as a detector's
// `infer` does when it keeps only the engine, with the TensorRT classes declared by hand. Making
// the context allocates its device memory, which capture forbids; enqueueing on a context made
// before the region is the captured work.
// RUN-ARGS: --graph-region=infer
typedef struct CUstream_st *cudaStream_t;

namespace nvinfer1 {
class IExecutionContext {
public:
  bool enqueueV3(cudaStream_t stream);
};
class ICudaEngine {
public:
  IExecutionContext *createExecutionContext();
};
} // namespace nvinfer1

bool infer(nvinfer1::ICudaEngine *engine, nvinfer1::IExecutionContext *warm, cudaStream_t stream) {
  nvinfer1::IExecutionContext *context = engine->createExecutionContext();
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'createExecutionContext' creates an execution context, which allocates its device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  bool ok = context->enqueueV3(stream);
  return ok && warm->enqueueV3(stream);
}
