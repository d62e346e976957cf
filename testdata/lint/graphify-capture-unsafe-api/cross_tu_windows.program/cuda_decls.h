// The CUDA prototypes the program uses, declared by hand (no toolkit needed), and the classes its
// translation units share: a capture wrapper defined in recorder.cpp, a model interface whose
// overrider is defined in heads.cpp, a helper that ends the capture in finish.cpp, and a provider
// interface whose CUDA overriders (recorder.cpp) begin and end a capture.
#pragma once
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeRelaxed = 2 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);

class Recorder {
public:
  explicit Recorder(cudaStream_t s) : stream_(s) {}
  void begin();
  void end();

private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
};

struct Head {
  virtual ~Head() = default;
  virtual void run(cudaStream_t s) = 0;
};

void runNodesAndEnd(cudaStream_t s, cudaGraph_t *g, int nodes);

// An execution provider's interface: the CUDA provider (recorder.cpp) captures between
// OnRunStart and OnRunEnd; sessions (main.cpp) call it through the interface.
struct Provider {
  virtual ~Provider() = default;
  virtual void OnRunStart() {}
  virtual void OnRunEnd() {}
};
