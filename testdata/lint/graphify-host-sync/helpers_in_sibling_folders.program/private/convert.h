// Conversions between host lists and tensors, kept in a header of another folder than the code
// that calls them, as RL frameworks lay out their private helpers.
#pragma once
#include <torch/torch.h>

#include <vector>

namespace rl {

inline torch::Tensor rows_to_tensor(const std::vector<std::vector<float>> &rows) {
  const int64_t width = static_cast<int64_t>(rows[0].size());
  auto out = torch::zeros({static_cast<int64_t>(rows.size()), width});
  for (size_t i = 0; i < rows.size(); ++i)
    out[static_cast<int64_t>(i)] = torch::from_blob(const_cast<float *>(rows[i].data()), {width});
  return out;
}

inline std::vector<int> tensor_to_ints(torch::Tensor t) {
  t = t.cpu().to(torch::kInt32);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  const int *p = t.data_ptr<int>();
  return std::vector<int>(p, p + t.size(0));
}

} // namespace rl
