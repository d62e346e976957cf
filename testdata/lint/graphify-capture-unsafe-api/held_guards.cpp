// Capture guards held by std::unique_ptr and std::optional: the holder's calls run the guard's
// constructor and destroyer (rules/std.yaml, constructs_held and destroys_held). A guard made by
// `new`, make_unique or emplace begins its capture there; reset(), an assignment that empties
// the holder, or the holder's end of scope runs the guard's destructor, or the holder's deleter
// (a class or a function pointer of the project), which ends it.
#include <memory>
#include <optional>
#include <utility>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
void launchNodes(cudaStream_t s);

struct CaptureGuard {
  CaptureGuard(cudaStream_t s, cudaGraph_t *g) : stream(s), graph(g) {
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  }
  ~CaptureGuard() { cudaStreamEndCapture(stream, graph); }
  cudaStream_t stream;
  cudaGraph_t *graph;
};

void ownedByNew(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  std::unique_ptr<CaptureGuard> guard(new CaptureGuard(s, g));
  launchNodes(s);
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  guard.reset();
  cudaStreamSynchronize(s); // reset() ran the destructor: the capture is over
}

void madeUnique(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaStreamSynchronize(s); // before the guard is made
  {
    auto guard = std::make_unique<CaptureGuard>(s, g);
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStreamSynchronize(s); // the holder's end of scope destroyed the guard
}

void emptiedByAssignment(cudaStream_t s, cudaGraph_t *g) {
  std::unique_ptr<CaptureGuard> guard = std::make_unique<CaptureGuard>(s, g);
  launchNodes(s);
  guard = nullptr;
  cudaStreamSynchronize(s); // emptied: the guard is destroyed
}

void heldInOptional(cudaStream_t s, cudaGraph_t *g) {
  std::optional<CaptureGuard> guard;
  cudaStreamSynchronize(s); // nothing is held yet
  guard.emplace(s, g);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  guard.reset();
  cudaStreamSynchronize(s); // reset() destroyed it
}

// A runner that keeps its guard in a field: begin() makes it, end() destroys it, and the caller's
// code between the two calls is captured.
class Runner {
public:
  explicit Runner(cudaStream_t s) : stream_(s) {}
  void begin() { guard_ = std::make_unique<CaptureGuard>(stream_, &graph_); }
  void end() { guard_.reset(); }

private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  std::unique_ptr<CaptureGuard> guard_;
};

void runWithFieldGuard(Runner &r, cudaStream_t s, void *scratch) {
  r.begin();
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  r.end();
  cudaStreamSynchronize(s); // end() destroyed the guard
}

// Deleters that end a capture begun by hand: a class, a function pointer. (A lambda is analysed
// where it is written, so its end call counts there, not where the holder runs it.)
struct EndCapture {
  cudaStream_t stream;
  void operator()(cudaGraph_t *g) const { cudaStreamEndCapture(stream, g); }
};

void deleterClass(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    std::unique_ptr<cudaGraph_t, EndCapture> capture(g, EndCapture{s});
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStreamSynchronize(s); // the deleter ended the capture
}

static cudaStream_t captured_stream;
static void endCaptured(cudaGraph_t *g) { cudaStreamEndCapture(captured_stream, g); }

void deleterFunction(cudaGraph_t *g) {
  cudaStreamBeginCapture(captured_stream, cudaStreamCaptureModeGlobal);
  std::unique_ptr<cudaGraph_t, void (*)(cudaGraph_t *)> capture(g, &endCaptured);
  launchNodes(captured_stream);
  cudaStreamSynchronize(captured_stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  capture.reset();
  cudaStreamSynchronize(captured_stream); // the function pointer ended it
}

// A holder moved away is not emptied by the assignment that moves it: the capture goes on.
void movedHolder(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  std::unique_ptr<CaptureGuard> first = std::make_unique<CaptureGuard>(s, g);
  std::unique_ptr<CaptureGuard> second;
  second = std::move(first);
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  second.reset();
}

// An optional emptied by assigning std::nullopt.
void optionalAssigned(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  std::optional<CaptureGuard> guard;
  guard.emplace(s, g);
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  guard = std::nullopt;
  cudaStreamSynchronize(s); // emptied: the guard is destroyed
}
