// Namespace aliases and using-declarations as public code writes them: `nn`, `F` and
// `torch::indexing` names brought into a user namespace, next to the user's own `detail`.
#include <torch/torch.h>

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using torch::indexing::Slice;
using torch::Tensor;

namespace mylib {
namespace detail {
inline int64_t half(int64_t n) { return n / 2; }
}  // namespace detail

using namespace torch::indexing;

class EncoderImpl : public nn::Module {
 public:
  explicit EncoderImpl(int64_t dim)
      : norm_(register_module("norm", nn::LayerNorm(nn::LayerNormOptions({dim})))),
        proj_(register_module("proj", nn::Linear(dim, detail::half(dim)))) {}

  Tensor forward(const Tensor& x) {
    auto h = F::gelu(proj_(norm_(x)));
    return h.index({Ellipsis, Slice(0, None, 2)});
  }

 private:
  nn::LayerNorm norm_;
  nn::Linear proj_;
};
TORCH_MODULE(Encoder);

}  // namespace mylib

Tensor encode(mylib::Encoder& enc, const at::Tensor& x) {
  torch::NoGradGuard guard;
  return F::softmax(enc->forward(x), F::SoftmaxFuncOptions(-1));
}
