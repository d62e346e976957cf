// Calibration runs outside the graph; the field it writes is read in step.cpp's region code.
#include "model.h"

void Calibration::calibrate(const torch::Tensor &x) { scale = x.abs().max().item<float>(); }
// CHECK-NOTES: :[[@LINE-1]]:55: note: stored in field 'scale' here
// CHECK-NOTES: :[[@LINE-2]]:77: note: value read from tensor here

int main() {
  Calibration c;
  auto x = torch::ones({4});
  c.calibrate(x);
  housekeeping();
  HeaderNet net;
  net.forward(x);
}
