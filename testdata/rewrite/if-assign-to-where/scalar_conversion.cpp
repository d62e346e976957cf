// if-assign-to-where: reads spelled through the Scalar that item() returns (toFloat, to<float>,
// toBool) lift as item<float>() and item<bool>() do; an integer conversion of a floating value
// truncates on the host, which a tensor comparison would not do.
#include "mock_torch.h"

torch::Tensor clipped(torch::Tensor x, torch::Tensor y) {
  float peak = x.abs().max().item().toFloat();
  if (peak > 1.0f)
    y = y * 0.5f;
  return y;
}

torch::Tensor inline_read(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item().to<float>() < 0.0f && x.all().item().toBool())
    y = y + 1;
  return y;
}

torch::Tensor truncated(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item().toInt() > 0) // EXPECT-NO-FIX: 'x.sum\(\).item\(\).toInt\(\)' converts to an integer on the host
    y = y + 1;
  return y;
}
