// Declarations for testdata/lint/graphify-host-sync/templates_declared_in_headers.cpp: the templates are declared here and defined,
// then explicitly instantiated, in the .cpp (the layout of libraries that keep their generic
// decoding loops out of their headers).
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace spec {

struct TinyLm {
  torch::Tensor forward(const torch::Tensor &ids) { return ids.to(torch::kFloat).unsqueeze(-1).repeat({1, 1, 16}); }
};
struct WideLm {
  torch::Tensor forward(const torch::Tensor &ids) { return ids.to(torch::kFloat).unsqueeze(-1).repeat({1, 1, 64}); }
};

template <typename Model>
std::vector<int64_t> generate(Model &model, torch::Tensor prompt, int64_t max_new, int64_t eos);

template <typename Model> class Drafter {
public:
  explicit Drafter(Model &m) : model_(m) {}
  int64_t accept(const torch::Tensor &draft, const torch::Tensor &target);

private:
  Model &model_;
};

/// Used, not explicitly instantiated: its member is instantiated implicitly where it is called.
template <typename Model> struct Scorer {
  float best(const torch::Tensor &logits);
};

} // namespace spec
