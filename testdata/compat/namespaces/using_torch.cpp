// `using namespace torch;` at file scope, then `nn::`, `indexing::`, `at::` and `torch::` mixed, as
// model files written against LibTorch's examples do.
#include <torch/torch.h>

using namespace torch;

struct ClassifierImpl : nn::Module {
  ClassifierImpl(int64_t in, int64_t out)
      : fc1(register_module("fc1", nn::Linear(nn::LinearOptions(in, 32).bias(true)))),
        fc2(register_module("fc2", nn::Linear(32, out))),
        drop(register_module("drop", nn::Dropout(nn::DropoutOptions(0.1)))) {}

  Tensor forward(Tensor x) {
    x = nn::functional::relu(fc1->forward(x));
    x = drop(x);
    return nn::functional::log_softmax(fc2(x), nn::functional::LogSoftmaxFuncOptions(1));
  }

  nn::Linear fc1{nullptr}, fc2{nullptr};
  nn::Dropout drop{nullptr};
};
TORCH_MODULE(Classifier);

Tensor first_rows(const Tensor& x, int64_t n) {
  return x.index({indexing::Slice(indexing::None, n), indexing::Ellipsis});
}

Tensor normalise(const at::Tensor& x) {
  at::Tensor mean = x.mean(at::IntArrayRef{0}, /*keepdim=*/true);
  Tensor centred = x - mean;
  return centred / (centred.pow(2).mean(0, true) + 1e-5).sqrt();
}

Tensor run(Classifier& model) {
  NoGradGuard no_grad;
  Tensor x = at::zeros({4, 8}, at::TensorOptions().dtype(at::kFloat));
  Tensor y = torch::ones({4, 8}, TensorOptions().dtype(kFloat).device(Device(kCPU)));
  ScalarType st = y.scalar_type();
  return model->forward(normalise(first_rows(x + y, 2)).to(st));
}
