// split-at-host-boundary against the real LibTorch headers: an int parameter handed to slice()
// is converted to c10::optional<int64_t> by a constructor that takes it as a forwarding
// reference (`U&&`, an lvalue binds `int&`) to copy it, not to change it, so the host part may
// read the parameter after the device work (a keypoint window's offset added to what is read).
#include <torch/torch.h>

#include <vector>

std::vector<float> window_peaks(const torch::Tensor &prob, int x0, int x1, float t) {
  auto win = prob.slice(1, x0, x1);
  auto peaks = (win > t).to(torch::kFloat).sum(1);
  std::vector<float> out;
  out.push_back(peaks[0].item<float>() + x0);
  return out;
}
