// A stand-in for torchvision <= 0.7's installed nms.h in the goldens: its NMS operator was a
// function of the global namespace, declared as here.
#pragma once
#include <ATen/ATen.h>

at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold);
