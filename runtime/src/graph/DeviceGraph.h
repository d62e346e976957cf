#pragma once
// The CUDA half of a graph made by gfy::capture. The CPU half is the tape (Tape.h): kernels that
// run again at replay. CUDA ops are instead recorded by stream capture into one CUDA graph
// (gfy::cuda::CaptureSession, graph-private memory pool), begun at the first CUDA op of the
// capture, ended when the user's function returns, and launched after the tape at replay. CPU and
// CUDA work cannot exchange data inside a capture (a copy between devices reads the host), so the
// two halves are independent and their order at replay does not matter.
//
// Control flow on a CUDA predicate (cond, while_loop) becomes conditional nodes of that graph
// (graph.cpp); only the taken branch runs at replay.
//
// The core does not link against the CUDA backend (a static runtime pulls the backend in only
// through cuda.cmake's anchor, and a program that never names it needs no libcudart): the backend
// hands its capture functions over at start-up (set_device_capture_hooks, beside
// register_backend). Without them nothing here is ever active, as in a build without CUDA.
#include <graphify/core/Backend.h>

#include <functional>
#include <memory>
#include <vector>

namespace gfy::detail {

/// What the CUDA backend lends the core for capture (runtime/src/cuda/CudaCapture.cpp).
struct DeviceCaptureHooks {
  std::shared_ptr<void> (*begin)();       ///< a CaptureSession begun on this thread
  void (*end)(void *session);              ///< ends, instantiates, launches once
  void (*abort)(void *session) noexcept;
  void (*replay)(void *session);
  size_t (*num_nodes)(void *session);
  bool (*capturing)();                     ///< this thread's CUDA work is being stream-captured
  bool (*conditionals)();                  ///< IF/WHILE nodes are available
  void (*capture_if)(const Tensor &pred, const std::function<void()> &then_body,
                     const std::function<void()> &else_body);
  void (*capture_while)(const std::function<Tensor()> &cond_fn, const std::function<void()> &body);
};
/// Called by the CUDA backend when it registers (a device is present).
void set_device_capture_hooks(const DeviceCaptureHooks *hooks);

class DeviceGraph {
public:
  DeviceGraph() = default;
  ~DeviceGraph();
  DeviceGraph(const DeviceGraph &) = delete;
  DeviceGraph &operator=(const DeviceGraph &) = delete;

  /// Begins the stream capture unless this graph (or a gfy::cuda::CaptureSession of the user's)
  /// is already capturing this thread's CUDA work.
  void begin_if_needed();
  /// Whether CUDA ops are being recorded by stream capture now (this graph's or the user's).
  bool capturing() const;
  /// The graph holds `call`'s buffers for its lifetime (their addresses are baked into it).
  void keep(std::shared_ptr<OpCall> call) { calls_.push_back(std::move(call)); }
  /// Ends the capture, instantiates the graph and launches it once (outputs get their
  /// capture-time values, as on the CPU tape, whose ops run while it records).
  void end();
  /// Ends a capture after an exception; never throws.
  void abort() noexcept;
  /// Launches the graph on the CUDA backend's stream (asynchronous); nothing when empty.
  void replay() const;
  size_t num_nodes() const;

private:
  std::shared_ptr<void> session_; ///< ours, when we began the capture
  bool ended_ = false;
  std::vector<std::shared_ptr<OpCall>> calls_;
};

/// Called by run() before a kernel runs under capture (graph.cpp): begins the CUDA capture at the
/// first CUDA op of a gfy::capture, and refuses work a conditional node cannot hold (CUDA ops in a
/// cond on a CPU predicate, CPU ops in the body of one on a CUDA predicate).
void prepare_captured_op(Device device);

/// Whether the CUDA backend can record conditional nodes (capture_if / capture_while).
bool device_conditionals_available();
/// Under a CUDA capture: records an IF node pair that runs `then_body` or `else_body` at replay.
void device_if(const Tensor &pred, const std::function<void()> &then_body, const std::function<void()> &else_body);
/// Under a CUDA capture: records a WHILE node (`cond_fn` runs before the loop and after each body).
void device_while(const std::function<Tensor()> &cond_fn, const std::function<void()> &body);

} // namespace gfy::detail
