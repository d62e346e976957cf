// host-factory-to-device: a floating-point arange whose start, end and step hold integers (`0.0`,
// an integer converted, `1.0`) computes `start + i * step` exactly on every device, so the grid
// a YOLO decoder builds on the host and copies is built on the device instead. A fractional step
// is refused (its values round differently on each device).
#include <torch/torch.h>

torch::Tensor grid(const torch::Tensor &x, int64_t ng) {
  auto cells = torch::arange(0.0, (float)ng, 1.0, torch::kFloat).to(x.device());
  auto halves = torch::arange(0.0, (float)ng, 0.5, torch::kFloat).to(x.device()); // EXPECT-NO-FIX: 'arange' takes '0.5', which is not an integer
  return x + cells.sum() + halves.sum();
}
