// Both `using namespace torch;` and `using namespace at;`: the two namespaces must name one
// Tensor, one `indexing`, one set of dtypes and devices.
#include <ATen/ATen.h>
#include <torch/torch.h>

using namespace at;
using namespace torch;

struct GateImpl : torch::nn::Module {
  explicit GateImpl(int64_t n) : proj(register_module("proj", torch::nn::Linear(n, n))) {}
  Tensor forward(const Tensor& x) { return torch::sigmoid(proj(x)) * x; }
  torch::nn::Linear proj;
};
TORCH_MODULE(Gate);

Tensor tail(const Tensor& x) { return x.index({indexing::Slice(1, indexing::None)}); }

Tensor pick(const Tensor& x, const Tensor& idx) {
  IntArrayRef sizes = x.sizes();
  Device device = x.device();
  ScalarType dtype = kFloat;
  TensorOptions opts = TensorOptions().dtype(dtype).device(device);
  Tensor out = at::empty(sizes, opts);
  out.copy_(x.index_select(0, idx.to(kLong)));
  return out;
}

Scalar total(const Tensor& x) { return x.sum().item(); }
