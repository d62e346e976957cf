// Host-to-device copies of tensors that are in host memory where the copy runs, followed from
// statement to statement: a host tensor given its own device copy, a round trip through a copy
// to the CPU, a concatenation of host tensors, and a field that every write gives a host copy
// (streaming encoders keep their caches that way between chunks).
#include <torch/torch.h>

void refresh(torch::Tensor &state);

struct ChunkEncoder : torch::nn::Module {
  torch::Tensor att_cache_;   // only ever given copies to the CPU
  torch::Tensor cnn_cache_;   // also given a device tensor
  torch::Tensor conv_state_;  // passed to a helper that may rebind it

  ChunkEncoder() : att_cache_(torch::zeros({4})), cnn_cache_(torch::zeros({4})), conv_state_(torch::zeros({4})) {}

  torch::Tensor forward(torch::Tensor chunk, int64_t frames) {
    auto feats = torch::zeros({1, frames, 4}, torch::kFloat);
    feats = feats.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'to' copies a tensor built in host memory ('zeros', line 17) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto att = att_cache_.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'to' copies a tensor built in host memory ('zeros', line 14) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto cnn = cnn_cache_.to(torch::kCUDA);
    auto conv = conv_state_.to(torch::kCUDA);
    auto out = chunk + feats.sum() + att.sum() + cnn.sum() + conv.sum();
    att_cache_ = out.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cnn_cache_ = out;
    refresh(conv_state_);
    auto host = out.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto doubled = host * 2;
    auto back = doubled.to(chunk.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'to' copies a tensor copied to host memory ('cpu', line 29) back to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    // Joined from host tensors only: in host memory; joined with a device tensor: not.
    auto lengths = torch::ones({2}, torch::kLong);
    auto both = torch::cat({lengths, torch::zeros({2}, torch::kLong)}).to(chunk.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: 'to' copies a tensor built in host memory ('ones', line 35) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto mixed = torch::cat({lengths, chunk.to(torch::kLong)}).to(chunk.device());
    // In host memory on one path only, or no longer: not reported.
    auto maybe = torch::zeros({4});
    if (frames > 2)
      maybe = chunk.to(torch::kFloat);
    auto moved = maybe.to(torch::kCUDA);
    auto once = torch::zeros({4});
    once = once.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'to' copies a tensor built in host memory ('zeros', line 44) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto again = once.to(torch::kCUDA);
    return back + both.sum() + mixed.sum() + moved.sum() + again.sum();
  }
};

// A field a method moves to the device and then refills with a host copy before it returns:
// the next call starts with the host copy. A field the method leaves on the device is copied
// from host memory only on the first call, which warm-up runs before capture.
struct StreamingCache : torch::nn::Module {
  torch::Tensor cache_ = torch::zeros({4});
  torch::Tensor state_ = torch::zeros({4});

  torch::Tensor forward(torch::Tensor x) {
    cache_ = std::move(cache_.to(torch::kCUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'to' copies a tensor built in host memory ('zeros', line 56) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto s = state_.to(x.device());
    state_ = x + s;
    auto y = x + cache_ + state_;
    cache_ = y.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return y;
  }
};

// A copy to the CPU of a tensor already in host memory is a no-op: nothing to report.
struct HostGrid : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto grid = torch::ones({4});
    auto same = grid.to(torch::kCPU);
    auto also = (grid * 2).cpu();
    return x + same + also;
  }
};

// A reset that empties the cache (`zeros({0, 0})`, whose copy moves nothing) does not hide the
// host copy the step itself leaves in it for the next call.
struct ResetToEmpty : torch::nn::Module {
  torch::Tensor cache_;

  void reset() { cache_ = std::move(torch::zeros({0, 0})); }

  torch::Tensor forward(torch::Tensor x) {
    cache_ = cache_.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'to' copies a tensor copied to host memory ('to', line 92) back to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto y = x + cache_;
    cache_ = y.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return y;
  }
};

// A method of the object that leaves a field off the host may run between a write and a copy.
struct ResettingCache : torch::nn::Module {
  torch::Tensor buf_ = torch::zeros({4});

  void to_device() { buf_ = buf_.to(torch::kCUDA); }

  torch::Tensor forward(torch::Tensor x) {
    buf_ = torch::ones({4});
    to_device();
    auto b = buf_.to(x.device());
    return x + b;
  }
};

// A helper that writes a host tensor through a `Tensor&` out-parameter, as image converters do
// (`void to_tensor(const cv::Mat &, torch::Tensor &out)`): the caller's copy of it to the device
// is the finding, also after a second helper that pads it into another out-parameter. A helper
// that moves its argument to the device itself leaves nothing in host memory for the caller; given
// a host tensor at its only call, its copy is the finding there.
void bytes_to_tensor(const uint8_t *pixels, int64_t h, int64_t w, torch::Tensor &out) {
  out = torch::from_blob(const_cast<uint8_t *>(pixels), {h, w}, torch::kByte).clone();
  out = out.to(torch::kFloat);
}

void pad_right(const torch::Tensor &in, torch::Tensor &padded, int64_t extra) {
  padded = torch::constant_pad_nd(in, {0, extra});
}

void move_to_gpu(torch::Tensor &t) { t = t.to(torch::kCUDA); }
// CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'to' copies a tensor built in host memory ('from_blob', line 118) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]

struct FrameEncoder : torch::nn::Module {
  std::array<uint8_t, 64> pixels_{};

  torch::Tensor forward(torch::Tensor x, bool pad) {
    torch::Tensor raw, input;
    bytes_to_tensor(pixels_.data(), 8, 8, raw);
    if (pad)
      pad_right(raw, input, 2);
    else
      input = raw;
    input = input.to(x.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'to' copies a tensor built in host memory ('from_blob', line 118) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    torch::Tensor ready;
    bytes_to_tensor(pixels_.data(), 8, 8, ready);
    move_to_gpu(ready);
    auto r = ready.to(x.device());
    return x + input.sum() + r.sum();
  }
};
