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

// A struct a host library computes from a buffer shaped by a selection's size depends on the
// points' values, but none of its members is that size: the branch is on a value read on the host,
// and the note says where the library computed it.
struct PointSet {
  PointSet(int rows, int cols);
  unsigned char *data;
};
struct Fitted {
  float w, h;
};
Fitted fit_rectangle(const PointSet &points);

struct RegionShape : torch::nn::Module {
  torch::Tensor forward(torch::Tensor mask) {
    auto p = torch::nonzero(mask).to(torch::kFloat).cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    // CHECK-MESSAGES: :[[@LINE-2]]:53: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    PointSet pts(static_cast<int>(p.size(0)), 2);
    std::memcpy(pts.data, p.data_ptr(), sizeof(float) * p.numel());
    Fitted f = fit_rectangle(pts);
    if (f.w > f.h)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-3]]:16: note: computed on the host by 'fit_rectangle' here
      return mask;
    return mask.logical_not();
  }
};

// Handed over through a converting constructor (as cv::Mat becomes cv::InputArray): the
// conversion still holds the size; the function that computes from it is named.
struct PointView {
  PointView(const PointSet &points);
};
Fitted fit_view(const PointView &points);

struct RegionShapeView : torch::nn::Module {
  torch::Tensor forward(torch::Tensor mask) {
    auto p = torch::nonzero(mask).to(torch::kFloat).cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    // CHECK-MESSAGES: :[[@LINE-2]]:53: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    PointSet pts(static_cast<int>(p.size(0)), 2);
    std::memcpy(pts.data, p.data_ptr(), sizeof(float) * p.numel());
    Fitted f = fit_view(pts);
    if (f.w > f.h)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-3]]:16: note: computed on the host by 'fit_view' here
      return mask;
    return mask.logical_not();
  }
};

// A size handed to an opaque function as a number stays the size in what it returns.
struct SizePair : torch::nn::Module {
  torch::Tensor forward(torch::Tensor mask) {
    auto p = torch::nonzero(mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto shape = std::make_pair(static_cast<int>(p.size(0)), 2);
    if (shape.first > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
      return mask;
    return mask.logical_not();
  }
};
