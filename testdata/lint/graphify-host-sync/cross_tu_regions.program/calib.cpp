// Calibration runs outside the graph; the field it writes is read in step.cpp's region code,
// where it is an input of the captured call, as a host parameter is: fixed for a replay, not
// a value the region reads from a tensor (no finding there).
#include "model.h"

void Calibration::calibrate(const torch::Tensor &x) { scale = x.abs().max().item<float>(); }

int main() {
  Calibration c;
  auto x = torch::ones({4});
  c.calibrate(x);
  housekeeping();
  HeaderNet net;
  net.forward(x);
}
