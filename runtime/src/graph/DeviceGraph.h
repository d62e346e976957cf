#pragma once
// The CUDA half of a graph made by gfy::capture. The CPU half is the tape (Tape.h): kernels that
// run again at replay. CUDA ops are instead recorded by stream capture into one CUDA graph
// (gfy::cuda::CaptureSession, graph-private memory pool), begun at the first CUDA op of the
// capture, ended when the user's function returns, and launched after the tape at replay. CPU and
// CUDA work cannot exchange data inside a capture (a copy between devices reads the host), so the
// two halves are independent and their order at replay does not matter.
//
// Control flow on a CUDA predicate (cond, while_loop) becomes conditional nodes of that graph
// (graph.cpp); only the taken branch runs at replay. Builds without the CUDA backend compile the
// same interface, never active.
#include <graphify/core/Backend.h>

#include <memory>
#include <vector>

namespace gfy::detail {

class DeviceGraph {
public:
  DeviceGraph();
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

  struct Session;

private:
  std::unique_ptr<Session> session_;
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
