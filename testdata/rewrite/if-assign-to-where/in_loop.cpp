// if-assign-to-where: an if inside a loop with a static trip count is converted per iteration;
// the loop counter is a host value like any other.
#include <torch/torch.h>

torch::Tensor accumulate_positive_rows(torch::Tensor x) {
  auto acc = torch::zeros({x.size(1)});
  for (int64_t i = 0; i < x.size(0); ++i) {
    if (x[i].sum().item<float>() > i)
      acc = acc + x[i];
  }
  return acc;
}

torch::Tensor over_elements(torch::Tensor x, std::vector<float> limits) {
  auto acc = x.clone();
  for (float limit : limits) {
    if (x.sum().item<float>() > limit) // EXPECT-NO-FIX: the condition depends on the loop variable 'limit'
      acc = acc * 2;
  }
  return acc;
}
