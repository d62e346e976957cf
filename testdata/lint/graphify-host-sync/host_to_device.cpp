// Host-to-device copies inside a graph region: a tensor built in pageable host memory (from a
// std::vector, from_blob over host data, a factory given no device) and then moved to the device
// makes the copy synchronise with the host, which CUDA-graph capture forbids. Written the way
// detection decoders and box coders build their anchors and scales.
#include <torch/torch.h>

#include <vector>

struct BoxDecoder : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;
  std::vector<float> strides_{8.f, 16.f, 32.f};
  torch::Tensor anchors_;  // built once on the device, outside forward: fine

  torch::Tensor forward(torch::Tensor boxes, torch::Tensor scores) {
    auto stride = torch::tensor(strides_).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'to' copies a tensor built in host memory ('tensor', line 15) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    std::vector<float> scale = {0.1f, 0.1f, 0.2f, 0.2f};
    auto s = torch::from_blob(scale.data(), {4}, torch::kFloat);
    auto variances = s.to(boxes.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'to' copies a tensor built in host memory ('from_blob', line 18) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto grid = torch::arange(boxes.size(0)).to(torch::kFloat).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: 'cuda' copies a tensor built in host memory ('arange', line 21) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto offsets = torch::zeros({4}).to(boxes);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'to' copies a tensor built in host memory ('zeros', line 23) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]

    // Built on the device: no copy.
    auto on_device = torch::arange(boxes.size(0), boxes.options());
    auto ones = torch::ones({4}, torch::TensorOptions().device(device_)).to(torch::kFloat);
    // A dtype conversion stays in host memory; a tensor that is already on the device moves nowhere.
    auto host_only = torch::tensor(strides_).to(torch::kDouble);
    auto moved = scores.to(device_);
    // A static local is initialised on the first call only, which warm-up runs before capture.
    static const auto mean = torch::tensor({0.485f, 0.456f, 0.406f}).view({1, -1, 1, 1}).cuda();
    // Pinned memory copied with non_blocking=true is stream-ordered and can be captured.
    auto pinned = torch::tensor(strides_).pin_memory().to(device_, /*non_blocking=*/true);
    return boxes * stride.sum() + variances.sum() + grid.sum() + offsets.sum() + on_device.sum() + ones.sum() +
           host_only.sum().to(torch::kFloat) + moved.sum() + pinned.sum() + anchors_.sum() + mean.sum();
  }
};

// Host tensors computed further before the copy (the result of an op on host tensors is in host
// memory too), and a helper of the file that returns one, as decoders write their masks.
torch::Tensor kept_indices(const std::vector<int64_t> &keep) { return torch::tensor(keep); }

struct GreedyDecoder : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;

  torch::Tensor forward(torch::Tensor memory, int64_t start, int64_t len) {
    auto ys = torch::ones({1, 1}).fill_(start).toType(torch::kLong).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: 'to' copies a tensor built in host memory ('ones', line 49) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto causal = torch::triu(torch::ones({len, len}, torch::kInt32), 1).unsqueeze(0).to(torch::kBool).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:104: warning: 'to' copies a tensor built in host memory ('ones', line 51) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    std::vector<int64_t> keep = {0, 2};
    auto picked = kept_indices(keep).to(memory.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'to' copies a tensor built in host memory ('tensor', line 43) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    // Computed from a device tensor: already on the device.
    auto shifted = (memory + 1).to(device_);
    return memory.index_select(0, picked) + ys.sum() + causal.sum() + shifted.sum();
  }
};

// A local given new values computed on the host from itself stays in host memory.
struct MaskBuilder : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;

  torch::Tensor forward(torch::Tensor x) {
    auto causal = torch::triu(torch::ones({4, 4}, torch::kInt32), 1);
    causal = causal.unsqueeze(0).expand({x.size(0), 4, 4});
    auto on_host = causal.to(torch::kBool).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'to' copies a tensor built in host memory ('ones', line 67) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    // A local later given a device value may be on the device: not reported.
    auto mixed = torch::ones({4});
    mixed = x.sum(0);
    return x.masked_fill(on_host, 0) + mixed.to(device_);
  }
};

// Options built from a dtype alone carry no device: the factory builds in host memory. Options
// given a device, or read from a tensor, may name the device; a copy to options without a device
// only converts the dtype.
struct TypedOptions : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;

  torch::Tensor forward(torch::Tensor x) {
    auto typed = torch::zeros({4}, torch::TensorOptions().dtype(torch::kFloat)).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:81: warning: 'to' copies a tensor built in host memory ('zeros', line 85) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto opts = torch::dtype(torch::kLong);
    auto ids = torch::arange(4, opts).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'cuda' copies a tensor built in host memory ('arange', line 88) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto placed = torch::zeros({4}, torch::TensorOptions().dtype(torch::kFloat).device(device_)).to(device_);
    auto like = torch::zeros({4}, x.options()).to(device_);
    auto converted = torch::ones({4}).to(torch::TensorOptions().dtype(torch::kDouble));
    return x + typed.sum() + ids.sum() + placed.sum() + like.sum() + converted.sum().to(torch::kFloat);
  }
};

// The elements of a list of tensors built on the host (a grid of offsets) are in host memory;
// a list that is later given other elements may not be.
struct GridOffsets : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;

  torch::Tensor forward(torch::Tensor x) {
    auto steps = torch::arange(8);
    auto grid = torch::meshgrid({steps, steps});
    auto gx = grid[1].contiguous().view({-1, 1});
    gx = gx.to(device_); // CHECK-MESSAGES: :[[@LINE]]:13: warning: 'to' copies a tensor built in host memory ('arange', line 103) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto gy = grid.at(0).reshape({-1}).to(device_); // CHECK-MESSAGES: :[[@LINE]]:40: warning: 'to' copies a tensor built in host memory ('arange', line 103) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto parts = torch::meshgrid({steps, steps});
    parts[0] = x;
    auto moved = parts[0].to(device_);
    return x + gx.sum() + gy.sum() + moved.sum();
  }
};

// A factory of no elements copies nothing; host data written into the memory of a tensor built on
// the host waits for no device (the copy that takes it to the device is the finding).
struct FilledOnHost : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;

  torch::Tensor forward(torch::Tensor x, const std::vector<float> &pixels) {
    auto none = torch::empty({0}).to(device_);
    auto filled = torch::zeros({4}, torch::kFloat);
    std::memcpy(filled.data_ptr(), pixels.data(), 4 * sizeof(float));
    auto moved = filled.to(device_); // CHECK-MESSAGES: :[[@LINE]]:25: warning: 'to' copies a tensor built in host memory ('zeros', line 122) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    return x + moved.sum() + none.sum();
  }
};

// Options built from a dtype alone (a functional cast, `torch::TensorOptions(torch::kByte)`) leave
// the factory's tensor in host memory; host values given a device tensor's options are built on
// its device, which copies them there (the copy of `.to()`, in one call). A factory that wraps
// memory given device options wraps device memory and copies nothing.
struct OptionsPlacement : torch::nn::Module {
  torch::Tensor forward(torch::Tensor dets, std::vector<uint8_t> &pixels, float ox, float oy) {
    auto image = torch::from_blob(pixels.data(), {2, 2}, torch::TensorOptions(torch::kByte)).cuda(); // CHECK-MESSAGES: :[[@LINE]]:94: warning: 'cuda' copies a tensor built in host memory ('from_blob', line 135) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto offset = torch::tensor({ox, oy}, dets.options()); // CHECK-MESSAGES: :[[@LINE]]:19: warning: 'tensor' builds a tensor from host values on the device its options name: a copy from pageable memory, which synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto wrapped = torch::from_blob(dets.data_ptr(), {2}, dets.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return dets + offset + image.sum() + wrapped.sum();
  }
};

// One number given a device tensor's options is a 0-d tensor filled on that device (LibTorch's
// scalar_tensor: an empty tensor and a fill), not a copy; a braced list of one is built in host
// memory and copied.
struct ScalarFill : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits, float floor) {
    auto low = torch::tensor(floor, logits.options());
    auto listed = torch::tensor({floor}, logits.options()); // CHECK-MESSAGES: :[[@LINE]]:19: warning: 'tensor' builds a tensor from host values on the device its options name: a copy from pageable memory, which synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    return torch::maximum(logits, low) + listed;
  }
};
