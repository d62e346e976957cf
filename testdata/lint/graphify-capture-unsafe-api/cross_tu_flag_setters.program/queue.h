// A device queue's "graph capturing" flags, set through setters the render loop calls.
#pragma once
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
void launchSample(cudaStream_t s);

void setGraphCapturing(bool on);
void setRecording(bool on);
void queueSynchronize(cudaStream_t s);
void recorderSynchronize(cudaStream_t s);

// Flags the solver tests and other files write: one through a setter defined beside it, one
// directly.
extern bool inGraph;
extern bool tracing;
void setInGraph(bool on);
void solverStep(cudaStream_t s);
