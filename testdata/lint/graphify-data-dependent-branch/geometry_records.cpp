// RUN-ARGS: --graph-region=track
// Geometry records (cv::Rect_, cv::Point_: public numbers, with a value_type that names their
// coordinates' type as a container's names its elements') hold their fields: a rectangle a helper
// builds field by field from a window placed at a position read from a tensor, returned or
// copied, follows the data; one built from the configuration does not. Written the way a
// tracker pads the search window it crops around the response's peak.
#include <opencv2/core.hpp>
#include <torch/torch.h>

template <typename T> cv::Rect border_of(const cv::Rect_<T> &window, const cv::Rect_<T> &clipped) {
  cv::Rect_<T> border;
  border.x = clipped.x - window.x;
  border.width = window.width - clipped.width;
  return border;
}

int track(const torch::Tensor &response, int size) {
  torch::Tensor peak = response.argmax();
  cv::Rect window(peak.item<int>(), 0, size, size);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Rect clipped = window;
  if (clipped.x < 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    clipped.x = 0;
  cv::Rect border = border_of(window, clipped);
  int pad = 0;
  if (border.x > 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    pad = border.x;
  cv::Point corner;
  corner.x = window.x + pad;
  cv::Point moved = corner;
  if (moved.x > size)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    pad += 1;
  cv::Rect fixed(0, 0, size, size);
  if (fixed.width > 2)
    pad += 2;
  return pad;
}
