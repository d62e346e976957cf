#include "detector.h"

namespace vision {

torch::Tensor TinyDetectorImpl::forward(torch::Tensor images) {
  auto x = torch::relu(bn(stem(images)));
  auto y = head(x);  // [N, 6, H, W]: 4 box offsets, objectness, class score
  auto boxes = y.slice(1, 0, 4).tanh();
  auto scores = torch::sigmoid(y.slice(1, 4, 6));
  return torch::cat({boxes, scores}, 1).flatten(2).transpose(1, 2);
}

}  // namespace vision
