// if-assign-to-where: reads spelled through the Scalar that item() returns (toFloat, to<float>,
// toBool) lift as item<float>() and item<bool>() do; an integer conversion of a floating value
// truncates on the host, which a tensor comparison would not do.
#include "mock_torch.h"

torch::Tensor clipped(torch::Tensor x, torch::Tensor y) {
  auto peak = x.abs().max();
  y = torch::where(peak > 1.0f, y * 0.5f, y);
  return y;
}

torch::Tensor inline_read(torch::Tensor x, torch::Tensor y) {
  y = torch::where(torch::logical_and(x.sum() < 0.0f, x.all()), y + 1, y);
  return y;
}

torch::Tensor truncated(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item().toInt() > 0) // EXPECT-NO-FIX: 'x.sum\(\).item\(\).toInt\(\)' converts to an integer on the host
    y = y + 1;
  return y;
}
