// if-assign-to-where: a host scalar read for the condition that also feeds tensor math outside
// the if becomes a 0-d tensor everywhere (tensor op 0-d tensor computes as tensor op scalar).
#include <torch/torch.h>

torch::Tensor normalise(torch::Tensor x, torch::Tensor y) {
  auto scale = x.abs().max();
  y = torch::where(scale > 1.0f, y / scale, y);
  return y * scale;
}

torch::Tensor printed(torch::Tensor x, torch::Tensor y) {
  float scale = x.abs().max().item<float>(); // EXPECT-NO-FIX: 'scale' is also used at line 16, where it must stay a host value
  if (scale > 1.0f) // EXPECT-NO-FIX: 'scale' is also used at line 16
    y = y / scale;
  std::cout << scale << "\n";
  return y;
}
