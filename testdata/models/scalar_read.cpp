// A scalar read to the host only to feed tensor math: no branch, but a device->host sync in the
// middle of the graph, and a trace would freeze the value. The fix keeps it a 0-d tensor.
#include <torch/torch.h>

// graphify-entry: x: f32[3,4], y: f32[4]
struct ScalarReadScale : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return x * y.max().item<float>();
  }
};

// The same reads spelled through the Scalar that item() returns, as detectors often write them;
// the double read stays a float64 0-d tensor beside a value proven floating-point (a tanh).
// graphify-entry: x: f32[3,4], y: f32[4]
struct ScalarConversionScale : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto centered = torch::tanh(x) - x.mean().item().to<double>();
    return centered * y.max().item().toFloat();
  }
};
// graphify-expect-fix: fixed

// Reads kept in named locals that only tensor math uses, as normalisers write them; one is a
// double read stored in a float.
// graphify-entry: x: f32[3,4]
struct ScalarLocalNormalise : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float peak = x.abs().max().item<float>();
    const float mean = x.mean().item().toDouble();
    float spread = x.abs().sum().item<float>();
    return (x - mean) / spread + peak * x;
  }
};
// graphify-expect-fix: fixed

// A read of a tensor of one element that nothing proves is one (a row's maximum along its last
// dimension): it becomes 'peak' reshaped to 0-d, so the 0-d 'x' times it stays 0-d.
// graphify-entry: x: f32[], y: f32[1,4]
struct UnprovenScalarScale : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto peak = y.amax(-1);
    return x * peak.item<float>();
  }
};
// graphify-expect-fix: fixed
