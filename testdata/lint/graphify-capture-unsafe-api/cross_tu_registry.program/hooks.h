// A plugin's post-processing hooks: a registry handed out by an accessor defined in hooks.cpp,
// filled there, and run inside the capture in transform.cpp, which sees only the declaration.
#pragma once
#include <functional>
#include <vector>
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);

using PostHook = std::function<void(float *, int, cudaStream_t)>;
std::vector<PostHook> &postHooks();
void registerDefaultHooks();
