// CUDA-graph capture and conditional nodes.
//
// Invariant: between begin() and end() (or abort()), this thread's CUDA allocations come from the
// session's PrivatePool and its kernels are recorded, not run; a conditional body is recorded by
// capturing a second stream into the body graph (cudaStreamBeginCaptureToGraph) while the
// backend's launches are redirected to that stream. Because the backend never allocates through
// graph memory nodes, bodies satisfy the conditional-graph rule (kernels, memcpy, memset only).
#include "CudaBackend.h"
#include "../graph/DeviceGraph.h"

#include <graphify/cuda/Cuda.h>

#include <vector>

// The graph-editing calls changed names across toolkits: CUDA 12.3-12.9 spell the edge-data forms
// `_v3`/`_v2`, CUDA 13 gives them the plain names. Conditional nodes need 12.3 headers (12.4 at
// run time); older toolkits build without them and the helpers throw.
#if CUDART_VERSION >= 12030
#define GFY_HAVE_CONDITIONAL_NODES 1
#if CUDART_VERSION >= 13000
#define GFY_GET_CAPTURE_INFO cudaStreamGetCaptureInfo
#define GFY_GRAPH_ADD_NODE cudaGraphAddNode
#define GFY_UPDATE_CAPTURE_DEPS cudaStreamUpdateCaptureDependencies
#else
#define GFY_GET_CAPTURE_INFO cudaStreamGetCaptureInfo_v3
#define GFY_GRAPH_ADD_NODE cudaGraphAddNode_v2
#define GFY_UPDATE_CAPTURE_DEPS cudaStreamUpdateCaptureDependencies_v2
#endif
#else
#define GFY_HAVE_CONDITIONAL_NODES 0
#endif

namespace gfy::cuda {
namespace detail {
namespace {

thread_local CaptureSession::Impl *t_active = nullptr; ///< the session capturing on this thread
thread_local int t_body_depth = 0;                     ///< nesting of conditional bodies

void check_predicate(const Tensor &pred, const char *what) {
  GFY_CHECK(pred.defined(), what, ": predicate is an undefined tensor");
  GFY_CHECK(pred.numel() == 1, what, ": predicate must have exactly one element, got ", pred.numel());
  GFY_CHECK(pred.is_cuda(), what, ": under CUDA capture the predicate must be a CUDA tensor, got ", pred.device().str());
}

void require_conditional_nodes() {
  if (!has_conditional_nodes())
    throw Error("data-dependent control flow inside a CUDA graph needs conditional nodes (CUDA runtime and driver 12.4 "
                "or newer)");
}

#if GFY_HAVE_CONDITIONAL_NODES
struct CaptureState {
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t num_deps = 0;
};

CaptureState capture_state(cudaStream_t s, const char *what) {
  CaptureState st;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CUDA_CHECK(GFY_GET_CAPTURE_INFO(s, &status, nullptr, &st.graph, &st.deps, nullptr, &st.num_deps));
  if (status != cudaStreamCaptureStatusActive)
    throw Error(std::string(what) + " is only valid while a CUDA graph is being captured (gfy::cuda::CaptureSession)");
  return st;
}

/// Adds a conditional node of `type` after the current capture dependencies of `s`, makes it the
/// only dependency of what `s` captures next, and captures `body` into its body graph.
void add_conditional(cudaStream_t s, cudaGraphConditionalHandle handle, cudaGraphConditionalNodeType type,
                     const std::function<void()> &body) {
  const CaptureState st = capture_state(s, "a conditional node");
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(GFY_GRAPH_ADD_NODE(&node, st.graph, st.deps, nullptr, st.num_deps, &params));
  cudaGraph_t body_graph = params.conditional.phGraph_out[0];
  CUDA_CHECK(GFY_UPDATE_CAPTURE_DEPS(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));

  const cudaStream_t bs = body_stream(t_body_depth);
  CUDA_CHECK(cudaStreamBeginCaptureToGraph(bs, body_graph, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  struct Depth {
    Depth() { ++t_body_depth; }
    ~Depth() { --t_body_depth; }
  } depth;
  try {
    StreamOverride redirect(bs);
    body();
  } catch (...) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(bs, &partial);
    throw;
  }
  cudaGraph_t ended = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(bs, &ended));
}

#endif

} // namespace
} // namespace detail

using namespace detail;

struct CaptureSession::Impl {
  std::shared_ptr<PrivatePool> pool;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStream_t stream = nullptr;
  bool capturing = false;
  std::vector<Tensor> keep;

  ~Impl() {
    if (capturing) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(stream, &partial);
      if (partial) cudaGraphDestroy(partial);
      if (t_active == this) {
        t_active = nullptr;
        set_capture_pool(nullptr);
      }
    }
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    // `pool` goes last (member destruction): it waits for launched replays before freeing.
  }
};

CaptureSession::CaptureSession() : impl_(std::make_shared<Impl>()) {}
CaptureSession::~CaptureSession() = default;

void CaptureSession::begin() {
  GFY_CHECK(!impl_->capturing && !impl_->exec, "CaptureSession::begin(): this session already holds a graph");
  GFY_CHECK(t_active == nullptr, "CaptureSession::begin(): a CUDA graph is already being captured on this thread");
  impl_->stream = backend_stream();
  if (!impl_->stream) cuda_backend(); // throws the "not available" error
  impl_->pool = make_private_pool();
  set_capture_pool(impl_->pool);
  const cudaError_t err = cudaStreamBeginCapture(impl_->stream, cudaStreamCaptureModeThreadLocal);
  if (err != cudaSuccess) {
    set_capture_pool(nullptr);
    CUDA_CHECK(err);
  }
  impl_->capturing = true;
  t_active = impl_.get();
}

void CaptureSession::end(bool launch_once) {
  GFY_CHECK(impl_->capturing, "CaptureSession::end() without begin()");
  impl_->capturing = false;
  t_active = nullptr;
  set_capture_pool(nullptr);
  cudaGraph_t g = nullptr;
  const cudaError_t err = cudaStreamEndCapture(impl_->stream, &g);
  if (err != cudaSuccess) {
    if (g) cudaGraphDestroy(g);
    CUDA_CHECK(err);
  }
  impl_->graph = g;
  CUDA_CHECK(cudaGraphInstantiate(&impl_->exec, impl_->graph, 0));
  if (launch_once) CUDA_CHECK(cudaGraphLaunch(impl_->exec, impl_->stream));
}

void CaptureSession::abort() noexcept {
  if (!impl_->capturing) return;
  impl_->capturing = false;
  if (t_active == impl_.get()) t_active = nullptr;
  set_capture_pool(nullptr);
  cudaGraph_t partial = nullptr;
  cudaStreamEndCapture(impl_->stream, &partial);
  if (partial) cudaGraphDestroy(partial);
  cudaGetLastError();
}

void CaptureSession::replay() const {
  GFY_CHECK(impl_->exec != nullptr, "CaptureSession::replay(): no instantiated graph (call begin() and end() first)");
  GFY_CHECK(t_active == nullptr, "CaptureSession::replay() cannot run while a graph is being captured");
  CUDA_CHECK(cudaGraphLaunch(impl_->exec, impl_->stream));
}

void CaptureSession::keep_alive(const Tensor &t) { impl_->keep.push_back(t); }
bool CaptureSession::capturing() const { return impl_->capturing; }
bool CaptureSession::instantiated() const { return impl_->exec != nullptr; }
size_t CaptureSession::num_nodes() const {
  if (!impl_->graph) return 0;
  size_t n = 0;
  CUDA_CHECK(cudaGraphGetNodes(impl_->graph, nullptr, &n));
  return n;
}

bool has_conditional_nodes() {
  if (!GFY_HAVE_CONDITIONAL_NODES) return false;
  int rt = 0, drv = 0;
  if (cudaRuntimeGetVersion(&rt) != cudaSuccess || cudaDriverGetVersion(&drv) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return rt >= 12040 && drv >= 12040;
}

#if GFY_HAVE_CONDITIONAL_NODES
void capture_if(const Tensor &pred, const std::function<void()> &then_body, const std::function<void()> &else_body) {
  check_predicate(pred, "cond");
  require_conditional_nodes();
  const cudaStream_t s = detail::current_stream();
  const CaptureState st = capture_state(s, "gfy::cuda::capture_if");
  // Two IF nodes (then, else) set by one kernel from one read of the predicate: works from CUDA
  // 12.4 (IF with an else body needs 12.8) and the then-body cannot change which branch runs.
  cudaGraphConditionalHandle h_then = 0, h_else = 0;
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h_then, st.graph, 0, 0));
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h_else, st.graph, 0, 0));
  launch_set_conditional(s, h_then, h_else, pred.unsafeGetTensorImpl()->data(), pred.scalar_type());
  add_conditional(s, h_then, cudaGraphCondTypeIf, then_body);
  add_conditional(s, h_else, cudaGraphCondTypeIf, else_body);
}

void capture_while(const std::function<Tensor()> &cond_fn, const std::function<void()> &body) {
  require_conditional_nodes();
  const cudaStream_t s = detail::current_stream();
  const CaptureState st = capture_state(s, "gfy::cuda::capture_while");
  // The first test runs before the node (a WHILE body runs only while its handle is non-zero);
  // the body re-evaluates the condition as its last step.
  const Tensor first = cond_fn();
  check_predicate(first, "while_loop");
  cudaGraphConditionalHandle h = 0;
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h, st.graph, 0, 0));
  launch_set_conditional(s, h, 0, first.unsafeGetTensorImpl()->data(), first.scalar_type());
  add_conditional(s, h, cudaGraphCondTypeWhile, [&] {
    body();
    const Tensor next = cond_fn();
    check_predicate(next, "while_loop");
    launch_set_conditional(detail::current_stream(), h, 0, next.unsafeGetTensorImpl()->data(), next.scalar_type());
  });
}
#else
void capture_if(const Tensor &pred, const std::function<void()> &, const std::function<void()> &) {
  check_predicate(pred, "cond");
  require_conditional_nodes();
}
void capture_while(const std::function<Tensor()> &, const std::function<void()> &) { require_conditional_nodes(); }
#endif

namespace detail {

/// The functions gfy::capture's DeviceGraph calls (runtime/src/graph/DeviceGraph.h): the core
/// reaches this backend only through them, so it links without CUDA.
const gfy::detail::DeviceCaptureHooks &device_capture_hooks() {
  static const gfy::detail::DeviceCaptureHooks hooks = {
      /*begin=*/[]() -> std::shared_ptr<void> {
        auto s = std::make_shared<CaptureSession>();
        s->begin();
        return s;
      },
      /*end=*/[](void *s) { static_cast<CaptureSession *>(s)->end(/*launch_once=*/true); },
      /*abort=*/[](void *s) noexcept { static_cast<CaptureSession *>(s)->abort(); },
      /*replay=*/[](void *s) { static_cast<CaptureSession *>(s)->replay(); },
      /*num_nodes=*/[](void *s) { return static_cast<CaptureSession *>(s)->num_nodes(); },
      /*capturing=*/[] { return is_stream_capturing(); },
      /*conditionals=*/[] { return has_conditional_nodes(); },
      /*capture_if=*/[](const Tensor &p, const std::function<void()> &t, const std::function<void()> &e) {
        capture_if(p, t, e);
      },
      /*capture_while=*/[](const std::function<Tensor()> &c, const std::function<void()> &b) { capture_while(c, b); },
  };
  return hooks;
}

} // namespace detail
} // namespace gfy::cuda
