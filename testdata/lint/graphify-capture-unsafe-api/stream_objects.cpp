// LibTorch's stream, event and module objects inside a capture window, declared by hand in their
// namespaces as the Debian headers spell them (c10/cuda/CUDAStream.h, ATen/cuda/CUDAEvent.h,
// torch/nn/module.h, torch/csrc/jit/api/module.h): waiting on the capturing stream or an event,
// querying them, and moving a whole module between devices inside the window.
namespace c10 {
struct Device {
  int index = 0;
};
namespace cuda {
struct CUDAStream {
  bool query() const;
  void synchronize() const;
};
CUDAStream getCurrentCUDAStream(int device = -1);
} // namespace cuda
} // namespace c10

namespace at::cuda {
struct CUDAGraph {
  void capture_begin();
  void capture_end();
  void replay();
};
struct CUDAEvent {
  void record(const c10::cuda::CUDAStream &stream);
  bool query() const;
  void synchronize() const;
};
} // namespace at::cuda

namespace torch {
namespace nn {
struct Module {
  virtual ~Module() = default;
  void to(c10::Device device, bool non_blocking = false);
};
} // namespace nn
namespace jit {
struct Module {
  void to(c10::Device device, bool non_blocking = false);
};
} // namespace jit
} // namespace torch

void captureStep(at::cuda::CUDAGraph &graph, at::cuda::CUDAEvent &done, torch::nn::Module &net,
                 torch::jit::Module &scripted, c10::Device device) {
  net.to(device); // before the window: the parameters are moved once
  graph.capture_begin();
  c10::cuda::getCurrentCUDAStream().synchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'synchronize' waits for the stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  done.record(c10::cuda::getCurrentCUDAStream());
  if (done.query())
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'query' queries work that is being captured, not run; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    done.synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'synchronize' waits for the event on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  if (!c10::cuda::getCurrentCUDAStream().query())
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'query' queries work that is being captured, not run; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    net.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'to' moves or converts the module's parameters and buffers, copying them from pageable host memory when they are there; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  scripted.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' moves or converts the module's parameters and buffers, copying them from pageable host memory when they are there; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  graph.capture_end();
  graph.replay();
}
