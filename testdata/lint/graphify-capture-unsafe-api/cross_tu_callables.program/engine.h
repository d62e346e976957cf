// What the program's translation units share: the CUDA prototypes, declared by hand; an engine
// whose capture (engine.cpp) runs a hook that app.cpp registers and a dispatch table that ops.cpp
// defines; a logger whose callback app.cpp sets but no capture runs.
#pragma once
#include <functional>
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);

enum Op { OpAdd, OpArgmax, OpCount };
using OpFn = void (*)(cudaStream_t);
extern OpFn opTable[OpCount];

class Engine {
public:
  using Hook = std::function<void(int layer, cudaStream_t s)>;
  void onLayer(Hook h);
  void capture(cudaStream_t s, cudaGraph_t *g, int layers);

private:
  Hook hook_;
};

void setLogger(std::function<void(const char *)> log);
void log(const char *what);
