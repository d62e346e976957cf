#pragma once
/// \file
/// The CUDA side of the gfy:: runtime: device queries, the backend stream, CUDA-graph capture
/// with a graph-private memory pool, conditional graph nodes and the cuDNN LSTM.
///
/// This header needs no CUDA headers (handles are opaque), so the core and user code can include
/// it in plain C++ translation units. Every function throws gfy::Error when the build has no CUDA
/// backend registered (no device found at start-up).
///
/// \code
///   if (gfy::cuda::is_available()) {
///     gfy::Tensor in = gfy::randn({8, 16}).cuda(), out;
///     gfy::cuda::CaptureSession s;
///     s.begin();
///     out = model(in);          // kernels are recorded into a CUDA graph, not run
///     s.end();                  // instantiate once (and launch once, so `out` is valid)
///     in.copy_(next_batch);
///     s.replay();               // cudaGraphLaunch on the backend stream
///   }
/// \endcode

#include <graphify/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

namespace gfy::cuda {

/// Number of CUDA devices; 0 when there is no driver or no device (never throws).
int device_count();
/// Whether the CUDA backend is registered (a device was found when the runtime started).
bool is_available();
/// Waits for all work on the backend stream, then reports any error a kernel recorded
/// (an out-of-range index, ...) as gfy::Error.
void synchronize();
/// Seeds the CUDA generator (counter based: a seed and a running offset, so replays of a
/// captured graph draw fresh numbers).
void manual_seed(uint64_t seed);
/// The backend's stream as a `cudaStream_t` cast to void* (for interop, e.g. PyTorch or cuDNN).
void *current_stream();
/// True while this thread is capturing on the backend stream (CaptureSession::begin .. end).
bool is_stream_capturing();

/// One CUDA graph: stream capture on the backend's non-default stream in thread-local mode,
/// instantiated once, replayed with cudaGraphLaunch. Between begin() and end(), every allocation
/// of the CUDA backend comes from a memory pool private to this session (allocated outside the
/// graph, never released while the session lives), so the addresses baked into the graph stay
/// valid and replays reuse them. Memory freed during capture is only reused inside this capture.
/// Copyable handle (shared state).
class CaptureSession {
public:
  CaptureSession();
  ~CaptureSession();
  CaptureSession(const CaptureSession &) = default;
  CaptureSession &operator=(const CaptureSession &) = default;

  /// Starts capturing. Throws if a capture is already active on this thread.
  void begin();
  /// Ends the capture and instantiates the graph. With `launch_once`, launches it once so that
  /// outputs hold the capture-time values (the CPU capture runs its ops eagerly; this keeps the
  /// two backends' observable behaviour the same).
  void end(bool launch_once = true);
  /// Ends a capture after an exception, discarding the partial graph; never throws.
  void abort() noexcept;
  /// Launches the instantiated graph on the backend stream (asynchronous).
  void replay() const;
  /// Keeps `t`'s buffer alive as long as the session (inputs read by the graph, ...).
  void keep_alive(const Tensor &t);
  bool capturing() const;
  bool instantiated() const;
  /// Nodes in the captured graph (top level), 0 before end().
  size_t num_nodes() const;

  struct Impl;

private:
  std::shared_ptr<Impl> impl_;
};

/// Under an active capture: records an IF conditional node pair (CUDA 12.4+) so that only the
/// branch selected by `pred` (a one-element CUDA tensor, any dtype, read as `!= 0`) runs at replay.
/// `then_body` and `else_body` are each captured into their own body graph; they must not
/// allocate through graph memory nodes (the backend never does). Outputs must be written into
/// buffers allocated before or inside the bodies (see docs/runtime-cuda.md for the pattern).
void capture_if(const Tensor &pred, const std::function<void()> &then_body, const std::function<void()> &else_body);

/// Under an active capture: records `while (cond_fn()) body();` as a WHILE conditional node.
/// `cond_fn` is captured twice (before the node, and at the end of the body) and must return a
/// one-element CUDA tensor; `body` must update the loop state in place (copy_ into the carried
/// buffers) so that the next evaluation of `cond_fn` sees it.
void capture_while(const std::function<Tensor()> &cond_fn, const std::function<void()> &body);

/// Whether conditional nodes are available (runtime and driver >= 12.4).
bool has_conditional_nodes();

/// Options of the cuDNN LSTM.
struct LstmOptions {
  bool batch_first = false; ///< x is (B, T, I) instead of (T, B, I)
  bool allow_tf32 = false;  ///< let cuDNN use TF32 tensor cores for float (PyTorch's default)
};

/// Multi-layer unidirectional LSTM forward on cuDNN 9 (cudnnRNNForward, inference mode).
/// Descriptors and the packed weight space are built once and reused by forward().
///
/// `weights` are LibTorch's, per layer: w_ih (4H, I or H), w_hh (4H, H), b_ih (4H), b_hh (4H),
/// gate order i, f, g, o (the order of cuDNN's linear-layer ids 0-3 / 4-7).
/// \code
///   gfy::cuda::CudnnLstm lstm(128, 256, 3, gfy::kFloat);
///   lstm.set_weights(params);                       // 12 CUDA tensors
///   auto [y, h, c] = lstm.forward(x, h0, c0);       // x (T, B, 128), h0/c0 (3, B, 256)
/// \endcode
class CudnnLstm {
public:
  CudnnLstm(int64_t input_size, int64_t hidden_size, int64_t num_layers, ScalarType dtype, LstmOptions options = {});
  ~CudnnLstm();
  CudnnLstm(const CudnnLstm &) = delete;
  CudnnLstm &operator=(const CudnnLstm &) = delete;
  /// Copies LibTorch-layout weights into cuDNN's weight space (device-to-device, capturable).
  void set_weights(const std::vector<Tensor> &weights);
  /// Returns {y, h_n, c_n}; undefined h0/c0 mean zeros. Capturable after the first call with the
  /// same (T, B) (the first call sizes the workspace).
  std::tuple<Tensor, Tensor, Tensor> forward(const Tensor &x, const Tensor &h0 = Tensor(), const Tensor &c0 = Tensor());

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

/// One-shot form of CudnnLstm: builds descriptors, packs `weights` and runs forward.
std::tuple<Tensor, Tensor, Tensor> lstm_forward(const Tensor &x, const std::vector<Tensor> &weights, int64_t num_layers,
                                                const Tensor &h0 = Tensor(), const Tensor &c0 = Tensor(),
                                                LstmOptions options = {});

/// Whether this build has cuDNN (the LSTM throws gfy::Error otherwise).
bool has_cudnn();

} // namespace gfy::cuda
