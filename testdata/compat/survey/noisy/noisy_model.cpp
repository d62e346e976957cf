// A model whose forward draws random numbers: LibTorch's generator and the runtime's differ, so
// the forward-match probe must report a mismatch here.
#include <torch/torch.h>

struct NoisyEncoderImpl : public torch::nn::Module {
  NoisyEncoderImpl() : fc(register_module("fc", torch::nn::Linear(16, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x + 0.1 * torch::randn_like(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(NoisyEncoder);

int main() {
  NoisyEncoder enc;
  std::cout << enc->forward(torch::ones({1, 16})) << std::endl;
}
