// RUN-ARGS: --graph-region=*::forward
// A tensor registered as a module's parameter or buffer (register_parameter, register_buffer; also
// a field registered after it was filled) moves with the module: `module->to(device)` moves it, so
// its `to(x.device())` in forward copies nothing. A plain field filled in host memory by the
// constructor is a host table: its copy to the device in forward waits for the host.
#include <torch/torch.h>

static torch::Tensor sinusoids(int64_t n, int64_t d) {
  auto pos = torch::arange(n, torch::kFloat).unsqueeze(1);
  return torch::sin(pos * torch::arange(d, torch::kFloat)).unsqueeze(0);
}

struct TextDecoderImpl : torch::nn::Module {
  TextDecoderImpl() {
    positions = register_parameter("positions", torch::zeros({1, 448, 64}));
    steps = register_buffer("steps", torch::arange(448));
    encoding = sinusoids(448, 64);
    register_buffer("encoding", encoding);
    offsets = torch::arange(64);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto L = x.size(1);
    auto y = x + positions.to(x.device()).slice(1, 0, L) + encoding.to(x.device()).slice(1, 0, L);
    return y + steps.to(x.device()).sum() + offsets.to(x.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'to' copies a tensor built in host memory ('arange', line 19) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
  torch::Tensor positions, steps, encoding, offsets;
};
TORCH_MODULE(TextDecoder);
