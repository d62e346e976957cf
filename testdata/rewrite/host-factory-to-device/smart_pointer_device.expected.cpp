// The device a trainer keeps behind a std::shared_ptr (`*m_device`): dereferencing a standard
// smart pointer runs no user code, so the factory can be given the same device.
#include <torch/torch.h>

#include <memory>

struct Rollout {
  std::shared_ptr<torch::Device> m_device;
  int64_t m_steps = 8;

  torch::Tensor returns(const torch::Tensor &rewards) {
    auto acc =
        torch::zeros({1, m_steps}, torch::device(*m_device)).to(*m_device);
    return acc + rewards;
  }

  torch::Tensor ramp(const torch::Tensor &x, const torch::Device *device) {
    auto steps = torch::arange(m_steps, torch::device(*device)).to(*device);
    return x + steps;
  }
};
