// Tensor values copied out with memcpy from data_ptr() are in the host buffer afterwards:
// branches on its elements depend on the tensor's values. Its length does not (memcpy writes the
// elements, it never resizes), so a loop over the buffer's size is not reported. Written the way
// text-detection post-processing grows regions over kernels copied to the host.
#include <torch/torch.h>

#include <cstring>
#include <vector>

struct KernelGrower : torch::nn::Module {
  torch::Tensor forward(torch::Tensor kernels) {
    auto c = kernels.to(torch::kInt).contiguous();
    std::vector<int> buf(c.numel());
    std::memcpy(buf.data(), c.data_ptr(), sizeof(int) * buf.size());
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int64_t on = 0;
    for (size_t i = 0; i < buf.size(); ++i)
      if (buf[i] != 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-6]]:5: note: written by 'memcpy' here
        ++on;
    float corners[4];
    std::memcpy(corners, c.data_ptr(), sizeof(corners));
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (corners[0] < corners[2])
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: written by 'memcpy' here
      return kernels;
    return kernels + 1;
  }
};
