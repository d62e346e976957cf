// The middle of a chain across three translation units: forward -> mid -> deep. A region
// because the forward in model.cpp calls it; its result is tainted because deep.cpp reads.
#include "helpers.h"

float mid(const torch::Tensor &x) {
  float d = deep(x);
  // CHECK-NOTES: :[[@LINE-1]]:9: note: assigned to 'd' here
  // CHECK-NOTES: :[[@LINE-2]]:13: note: returned from 'deep' here
  return d * 2;
}
