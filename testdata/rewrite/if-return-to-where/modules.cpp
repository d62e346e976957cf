// if-return-to-where with the user's own modules and helpers: a call is pure when its body is.
#include <torch/torch.h>

struct BlockImpl : torch::nn::Module {
  BlockImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))), norm(register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({4})))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h = fc->forward(x);
    h = torch::gelu(h);
    return norm(h) + x;
  }
  torch::nn::Linear fc;
  torch::nn::LayerNorm norm;
};
TORCH_MODULE(Block);

struct CountingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    calls = calls + 1;
    return x * 2;
  }
  int64_t calls = 0;
};
TORCH_MODULE(Counting);

torch::Tensor scaled(torch::Tensor x, double s) { return x * s; }

struct GateImpl : torch::nn::Module {
  GateImpl() : block(register_module("block", Block())), counting(register_module("counting", Counting())) {}
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
      return block(x);
    return scaled(x, 0.5);
  }
  torch::Tensor impure(torch::Tensor x) {
    if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'forward' \(line 36\), which writes the field 'calls' \(line 18\)$
      return counting(x);
    return x;
  }
  Block block;
  Counting counting;
};

// Autograd mutators are const methods without the trailing underscore; the pack marks them.
torch::Tensor backward_in_branch(torch::Tensor x) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the then branch calls 'backward', which changes state \(line 46\)$
    x.backward();
    return x;
  }
  return -x;
}
