// host-position-to-device-index: a beam search's back-pointers, read in a loop of a method (no
// rule takes them: the recipe). The pointer picks an element whose value is collected
// (`hyp.push_back(ys[k].item<int>())`); collecting it is that element's use, not the pointer's,
// so the pointer's read is not advised as "collected into a host container".
#include <torch/torch.h>

#include <vector>

struct Beam {
  std::vector<torch::Tensor> prev_ks_, next_ys_;
  std::vector<int> get_hypothesis(int k);
};

std::vector<int> Beam::get_hypothesis(int k) {
  std::vector<int> hyp;
  int current_k = k;
  for (int j = static_cast<int>(prev_ks_.size()) - 1; j >= 0; --j) {
    hyp.push_back(next_ys_[j + 1][current_k].item<int>()); // EXPECT-RECIPE: collected into a host container
    current_k = prev_ks_[j][current_k].item<int>(); // EXPECT-RECIPE: keep the value on the device as a 0-d tensor
  }
  return hyp;
}

std::vector<int> best(Beam &b, const torch::Tensor &keys) {
  int k = keys[0].item<int>();
  return b.get_hypothesis(k);
}
