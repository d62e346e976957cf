// torch::nn::utils as LibTorch 1.13 (torch/csrc/api/include/torch/nn/utils/clip_grad.h and
// convert_parameters.h): the total norm is a tensor until the end, so clipping itself needs no
// host read unless error_if_nonfinite asks for one.
#include <graphify/nn/Utils.h>

#include <graphify/autograd/GradMode.h>
#include <graphify/core/Functions.h>
#include <graphify/graph/Graph.h>

#include <cmath>
#include <limits>

namespace gfy::nn::utils {

double clip_grad_norm_(const std::vector<Tensor> &parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite, std::source_location loc) {
  NoGradGuard no_grad;
  std::vector<Tensor> with_grad;
  for (const Tensor &p : parameters)
    if (p.grad().defined()) with_grad.push_back(p);
  if (with_grad.empty()) return 0.0;
  detail::on_host_read("clip_grad_norm_()", loc);
  Tensor total;
  if (norm_type == std::numeric_limits<double>::infinity()) {
    std::vector<Tensor> norms;
    for (const Tensor &p : with_grad) norms.push_back(p.grad().abs().max());
    total = norms.size() == 1 ? norms[0] : stack(norms).max();
  } else if (norm_type == 0) {
    total = full({}, static_cast<double>(with_grad.size()));
  } else {
    std::vector<Tensor> norms;
    for (const Tensor &p : with_grad) norms.push_back(p.grad().norm(norm_type));
    total = norms.size() == 1 ? norms[0] : stack(norms).norm(norm_type);
  }
  if (error_if_nonfinite) {
    const double t = total.item<double>();
    GFY_CHECK(std::isfinite(t), "The total norm of order ", norm_type, " for gradients from `parameters` ",
              "is non-finite, so it cannot be clipped. To disable this error and scale ",
              "the gradients with the non-finite norm anyway, set ", "`error_if_nonfinite=false`");
  }
  Tensor coef = clamp(total.add(1e-6).reciprocal().mul(max_norm), std::nullopt, 1.0);
  for (Tensor &p : with_grad) {
    Tensor g = p.grad();
    g.mul_(coef);
  }
  return total.item<double>();
}
double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite, std::source_location loc) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite, loc);
}
double clip_grad_norm_(const Tensor &parameter, double max_norm, double norm_type, bool error_if_nonfinite,
                       std::source_location loc) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type, error_if_nonfinite, loc);
}

void clip_grad_value_(const std::vector<Tensor> &parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const Tensor &p : parameters)
    if (p.grad().defined()) {
      Tensor g = p.grad();
      g.clamp_(-clip_value, clip_value);
    }
}
void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}
void clip_grad_value_(const Tensor &parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{parameter}, clip_value);
}

Tensor parameters_to_vector(const std::vector<Tensor> &parameters) {
  std::vector<Tensor> flat;
  for (const Tensor &p : parameters) flat.push_back(p.view(-1));
  return cat(flat);
}

void vector_to_parameters(const Tensor &vec, const std::vector<Tensor> &parameters) {
  GFY_CHECK(vec.dim() == 1, "expected a 1-d tensor of parameters, got ", vec.dim(), " dimensions");
  NoGradGuard no_grad;
  int64_t pointer = 0;
  for (Tensor p : parameters) {
    const int64_t n = p.numel();
    p.copy_(vec.slice(0, pointer, pointer + n).view_as(p));
    pointer += n;
  }
}

} // namespace gfy::nn::utils
