// Deterministic inputs and weights for the model-level differential cases (compat_models.cpp,
// cases_model_ops.cpp): every value comes from a host-side formula, so both dumpers build
// bit-identical inputs and parameters without either library's random generator.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

namespace diff::model_inputs {

/// A float tensor of `shape` with values `amplitude * sin(0.37 * i + phase)`, computed on the host.
inline torch::Tensor wave(const std::vector<int64_t>& shape, double amplitude, double phase) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(amplitude * std::sin(0.37 * i + phase));
  return torch::from_blob(v.data(), shape, torch::kFloat).clone();
}

inline std::vector<int64_t> shape_of(const torch::Tensor& t) {
  std::vector<int64_t> s;
  for (int64_t d = 0; d < t.dim(); ++d) s.push_back(t.size(d));
  return s;
}

inline double salt_of(const std::string& name) {
  int64_t salt = 0;
  for (char ch : name) salt = (salt * 31 + ch) % 997;
  return static_cast<double>(salt);
}

/// Parameters: matrices and kernels in +-1/sqrt(fan_in) (fan_in = numel / size(0)), norm
/// weights around 1, other vectors small. Running statistics: means small, variances in [0.5, 1.5].
inline void fix_model(torch::nn::Module& m) {
  torch::NoGradGuard no_grad;
  for (auto& p : m.named_parameters()) {
    auto& t = p.value();
    const double phase = salt_of(p.key());
    torch::Tensor v;
    if (t.dim() >= 2) {
      v = wave(shape_of(t), 1.0 / std::sqrt(static_cast<double>(t.numel() / t.size(0))), phase);
    } else if (p.key().find("norm") != std::string::npos || p.key().find("bn") != std::string::npos) {
      v = wave(shape_of(t), 0.1, phase) + 1;
    } else {
      v = wave(shape_of(t), 0.1, phase);
    }
    t.copy_(v);
  }
  for (auto& b : m.named_buffers()) {
    auto& t = b.value();
    const double phase = salt_of(b.key());
    if (b.key().find("running_mean") != std::string::npos) t.copy_(wave(shape_of(t), 0.1, phase));
    if (b.key().find("running_var") != std::string::npos) t.copy_(wave(shape_of(t), 0.5, phase).abs() + 0.5);
  }
}

template <typename Dict>
double names_checksum(const Dict& dict) {
  double sum = 0;
  int64_t k = 1;
  for (const auto& item : dict) {
    for (char ch : item.key()) sum += static_cast<double>(ch) * static_cast<double>(k++ % 11 + 1);
    sum += 1000;
  }
  return sum;
}

/// Token ids in [1, vocab) from a formula.
inline torch::Tensor tokens(const std::vector<int64_t>& shape, int64_t vocab, int64_t offset) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 1 + (i * 7 + offset) % (vocab - 1);
  return torch::from_blob(v.data(), shape, torch::kLong).clone();
}

}  // namespace diff::model_inputs
