// A header filter that selects a library's headers (clang-tidy's habit `--header-filter='.*'`,
// with OpenCV found through -I rather than -isystem) shows findings there, but does not make the
// library's inline code the project's: cv::Mat's constructor and at<T>() stay what the rule packs
// say (a host array whose pixels a host copy fills), so the tests of those pixels are still
// reported, as without the filter.
// RUN-ARGS: --graph-region=first_pixel_set --header-filter=.*
#include <opencv2/core.hpp>
#include <torch/torch.h>

#include <cstring>

int first_pixel_set(const torch::Tensor &mask) {
  auto host = mask.to(torch::kU8).cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat image(host.size(0), host.size(1), CV_8U);
  std::memcpy(image.data, host.data_ptr(), host.numel());
  if (image.at<cv::uchar>(0, 0) > 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return 1;
  return 0;
}
