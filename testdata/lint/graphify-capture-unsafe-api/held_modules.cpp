// Modules run through their holders in CUDA-graph capture windows: a TORCH_MODULE holder's call,
// a type-erased AnyModule and a Sequential run the forward of the modules they hold, so a first
// matmul there (no warm-up before the capture) is lazy initialisation in the window, and a
// library Linear run through its holder is one too. CUDAGraph is declared as
// ATen/cuda/CUDAGraph.h declares it (Debian's LibTorch is a CPU build).
#include <torch/torch.h>

namespace at::cuda {
struct CUDAGraph {
  void capture_begin(std::pair<unsigned long long, unsigned long long> pool = {0, 0});
  void capture_end();
  void replay();
};
} // namespace at::cuda

struct ProjectImpl : torch::nn::Module {
  torch::Tensor w;
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w); }
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'matmul' may create the cuBLAS handle and its workspace on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
};
TORCH_MODULE(Project);

struct HeadImpl : torch::nn::Module {
  torch::Tensor w;
  torch::Tensor forward(torch::Tensor x) { return torch::mm(x, w); }
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'mm' may create the cuBLAS handle and its workspace on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
};
TORCH_MODULE(Head);

struct ScaleImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
TORCH_MODULE(Scale);

// A type-erased module given in the member's initialiser.
struct ErasedRunner {
  torch::nn::AnyModule body{Project()};
  at::cuda::CUDAGraph graph;
  torch::Tensor capture(torch::Tensor x) {
    graph.capture_begin();
    torch::Tensor y = body.forward(x);
    graph.capture_end();
    return y;
  }
};

// A Sequential filled by push_back after construction; run once before the capture: warmed up.
struct StackRunner {
  torch::nn::Sequential stack;
  at::cuda::CUDAGraph graph;
  StackRunner() {
    stack->push_back(Scale());
    stack->push_back(Head());
  }
  torch::Tensor capture(torch::Tensor x) {
    torch::Tensor warm = stack->forward(x);
    graph.capture_begin();
    torch::Tensor y = stack->forward(x);
    graph.capture_end();
    return y + warm;
  }
};

// The same head in a Sequential built in the initialiser, with no warm-up: its mm is reported.
struct ColdStack {
  torch::nn::Sequential stack{Scale(), Head()};
  at::cuda::CUDAGraph graph;
  torch::Tensor capture(torch::Tensor x) {
    graph.capture_begin();
    torch::Tensor y = stack->forward(x);
    graph.capture_end();
    return y;
  }
};

// A library Linear run through its holder: its forward's first GEMM creates the cuBLAS handle.
struct LinearRunner {
  torch::nn::Linear proj{8, 8};
  at::cuda::CUDAGraph graph;
  torch::Tensor capture(torch::Tensor x) {
    graph.capture_begin();
    torch::Tensor y = proj(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'torch::nn::LinearImpl::forward' may create the cuBLAS handle and its workspace on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
    graph.capture_end();
    return y;
  }
  torch::Tensor captureWarm(torch::Tensor x) {
    proj(x);
    graph.capture_begin();
    torch::Tensor y = proj(x);
    graph.capture_end();
    return y;
  }
};

// What a module parameter holds is not known in this file: said on stderr, not passed over.
// CHECK-STDERR: graphify-lint: note: {{.*}}held_modules.cpp:{{[0-9]+}}:21: 'model' runs the forward of the modules it holds in a capture window, and graphify cannot tell which (no module is given to it in the checked files); that code is not checked
torch::Tensor captureGiven(at::cuda::CUDAGraph &graph, torch::nn::AnyModule &model, torch::Tensor x) {
  graph.capture_begin();
  torch::Tensor y = model.forward(x);
  graph.capture_end();
  return y;
}

// A runner given its model as `AnyModule(Block())` and its head in a Sequential of library
// Linears: the trunk's warm-up creates the cuBLAS handle that every GEMM of the thread shares
// (the packs' lazy_resource: cublas_handle), so neither the block's addmm nor the head, a field
// of its own, initialises anything in the window.
struct BlockImpl : torch::nn::Module {
  torch::Tensor w;
  torch::Tensor forward(torch::Tensor x) { return torch::addmm(x, x, w); }
};
TORCH_MODULE(Block);

class GraphRunner {
public:
  explicit GraphRunner(torch::nn::AnyModule m)
      : model_(std::move(m)), trunk_(torch::nn::Linear(8, 8)), head_(torch::nn::Linear(8, 4)) {}
  void warmup(torch::Tensor x) { trunk_->forward(x); }
  torch::Tensor capture(torch::Tensor x) {
    graph_.capture_begin();
    torch::Tensor y = model_.forward(x);
    y = trunk_->forward(y);
    y = head_->forward(y);
    graph_.capture_end();
    return y;
  }

private:
  torch::nn::AnyModule model_;
  torch::nn::Sequential trunk_, head_;
  at::cuda::CUDAGraph graph_;
};

torch::Tensor runGraphRunner(torch::Tensor x) {
  GraphRunner r{torch::nn::AnyModule(Block())};
  r.warmup(x);
  return r.capture(x);
}

// Heads built as locals of the capturing function: the warm-up of one creates the handle the
// others' GEMMs share. With no warm-up at all (coldHeads), the window's first GEMM creates it —
// reported there, through its holder's call — and the later ones find it.
torch::Tensor localHeads(torch::Tensor x) {
  torch::nn::Linear warmed(8, 8), cold(8, 4);
  torch::nn::Sequential seq_warmed(torch::nn::Linear(8, 8)), seq_cold(torch::nn::Linear(8, 2));
  warmed(x);
  seq_warmed->forward(x);
  at::cuda::CUDAGraph graph;
  graph.capture_begin();
  torch::Tensor y = warmed(x) + seq_warmed->forward(x);
  torch::Tensor z = cold(x);
  torch::Tensor s = seq_cold->forward(x);
  graph.capture_end();
  return y + z.sum() + s.sum();
}

torch::Tensor coldHeads(torch::Tensor x) {
  torch::nn::Linear cold(8, 4);
  torch::nn::Sequential seq_cold(torch::nn::Linear(8, 2));
  at::cuda::CUDAGraph graph;
  graph.capture_begin();
  torch::Tensor z = cold(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'torch::nn::LinearImpl::forward' may create the cuBLAS handle and its workspace on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
  torch::Tensor s = seq_cold->forward(x) + torch::mm(x, x);
  graph.capture_end();
  return z.sum() + s.sum();
}
