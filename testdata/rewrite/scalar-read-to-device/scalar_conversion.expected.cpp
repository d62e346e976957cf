// scalar-read-to-device: a read spelled through the Scalar that item() returns (toFloat,
// to<double>) is the same read as item<float>() or item<double>(), and keeps the same dtype.
#include "mock_torch.h"

torch::Tensor scale_by_max(torch::Tensor x, torch::Tensor y) {
  return x * y.max().to(torch::kFloat);
}

torch::Tensor shift_by_mean(torch::Tensor x) {
  return x.exp() - x.mean().to(torch::kDouble);
}

torch::Tensor scale_by_count(torch::Tensor x, torch::Tensor m) {
  return x * m.sum().item().toInt(); // EXPECT-NO-FIX: 'm.sum\(\).item\(\).toInt\(\)' converts to an integer on the host
}

// A conversion of a Scalar that no tensor read returned is host code.
torch::Tensor scale_by_host(torch::Tensor x, c10::Scalar s) { return x * s.toFloat(); }
