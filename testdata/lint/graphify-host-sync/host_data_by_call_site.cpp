// Where the data of a host-to-device copy comes from, and where a host tensor stays, as the
// twenty-second held-out set's detectors and trackers write it: a camera frame grabbed into an
// image last iteration's mask was blended into (the grab replaces its pixels and shape), a helper
// that builds the tensor from what its call site hands it (not what another site does), a field
// a method outside the regions writes (there when a region starts: an input), a helper defined
// in another file given an image, results of host copies taken from a tuple or handed to a
// helper defined elsewhere that works in place, a helper's returned list handed to another, and
// a top-p cutoff whose tensor index LibTorch's operator[] reads back.
// RUN-ARGS: --graph-region=stream --graph-region=Tracker::init --graph-region=Tracker::track --graph-region=decode --graph-region=upload --graph-region=top_p_cutoff --graph-region=shifted_window
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <torch/torch.h>

#include <cstring>
#include <tuple>
#include <vector>

void stream(cv::VideoCapture &cap, torch::Tensor prev_mask) {
  cv::Mat frame;
  for (int step = 0; step < 8; ++step) {
    cap >> frame;
    cv::GaussianBlur(frame, frame, cv::Size(3, 3), 0);
    auto x = torch::from_blob(frame.data, {1, frame.rows, frame.cols, 3}, torch::kByte).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:89: warning: 'to' copies a tensor built in host memory ('from_blob', line 23) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto mask = (x.sum(-1) > prev_mask).to(torch::kU8).to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cv::Mat m(640, 640, CV_8UC1);
    std::memcpy(m.data, mask.data_ptr(), 640 * 640);
    m.copyTo(frame(cv::Rect(0, 0, 64, 64)));
  }
}

struct Box {
  int x = 0, y = 0, width = 0, height = 0;
};

static std::vector<float> window_of(const Box &b, int n) {
  std::vector<float> w;
  for (int i = 0; i < n; ++i)
    w.push_back(static_cast<float>(b.x + i * b.width));
  return w;
}

static torch::Tensor to_tensor(const std::vector<float> &v) { return torch::tensor(v); }

static std::vector<float> ratios(int n) {
  std::vector<float> r;
  for (int i = 0; i < n; ++i)
    r.push_back(0.5f * static_cast<float>(i + 1));
  return r;
}

struct Tracker {
  Box target;
  torch::Tensor anchors, window;

  // The initial box is the user's: nothing here follows tensor data, although recenter(), outside
  // the regions, moves the box by a read score.
  void init(const Box &roi) {
    target = roi;
    anchors = to_tensor(ratios(5)).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'to' copies a tensor built in host memory ('tensor', line 44) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    window = to_tensor(window_of(target, 4)).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'to' copies a tensor built in host memory ('tensor', line 44) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }

  void recenter(const torch::Tensor &score) {
    int best = score.argmax().item<int>();
    if (best > 3)
      target.width = best;
  }

  // The crop's values come from a read score: a round trip, with its size static (four values).
  torch::Tensor track(const torch::Tensor &score) {
    float shift = score.max().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    std::vector<float> crop;
    for (int i = 0; i < 4; ++i)
      crop.push_back(shift * static_cast<float>(i));
    return to_tensor(crop).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to' copies a tensor built in host memory ('tensor', line 44) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
};

// Defined in another file: given an image and no tensor, device or options, it can only build its
// tensor in host memory. Given a tensor, it may return anything.
torch::Tensor image_to_tensor(const cv::Mat &img);
torch::Tensor normalized(const torch::Tensor &x);
void scale_boxes(torch::Tensor &boxes, float gain);

torch::Tensor upload(const cv::Mat &img, const torch::Tensor &x) {
  auto a = image_to_tensor(img).unsqueeze(0).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'to' copies a tensor that 'image_to_tensor' (line 92) returns in host memory to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  auto b = normalized(x).to(torch::kCUDA);
  return a + b;
}

// Reads of tensors that a copy to the CPU already holds: a tuple's elements, what argsort and
// index_select make of them, and a box tensor a helper defined elsewhere scales in place.
float decode(const torch::Tensor &pred, float thresh) {
  auto p = pred.transpose(1, 2).contiguous().to(torch::kCPU)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto box = p.slice(1, 0, 4);
  auto best = p.slice(1, 4, p.size(1)).max(1);
  auto conf = std::get<0>(best);
  auto cls = std::get<1>(best);
  auto order = conf.argsort(-1, /*descending=*/true);
  auto a_order = order.accessor<int64_t, 1>();
  auto a_conf = conf.accessor<float, 1>();
  auto a_cls = cls.accessor<int64_t, 1>();
  auto top = box.index_select(0, std::get<1>(conf.topk(3)));
  scale_boxes(top, 2.f);
  auto a_top = top.accessor<float, 2>();
  return a_conf[a_order[0]] + static_cast<float>(a_cls[0]) + a_top[0][0] + (thresh > 0 ? 1.f : 0.f);
}

// A top-p cutoff picked with a tensor index: LibTorch's operator[](Tensor) reads the index back
// with item(); an integer position reads nothing.
torch::Tensor top_p_cutoff(const torch::Tensor &sorted_probs, const torch::Tensor &cumulative, int64_t first) {
  auto cutoff = sorted_probs[torch::argmax(cumulative)];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'operator[]' reads its 0-d index tensor back to the host (LibTorch's operator[](Tensor) calls item()); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return cutoff + sorted_probs[first];
}

// A helper's list handed straight to another helper: values read from the score, in a number of
// elements the code fixes, so the tensor to_tensor builds has a static size.
static std::vector<float> steps_of(float s, int n) {
  std::vector<float> out;
  for (int i = 0; i < n; ++i)
    out.push_back(s * static_cast<float>(i));
  return out;
}

torch::Tensor shifted_window(const torch::Tensor &score) {
  return to_tensor(steps_of(score.max().item<float>(), 4)).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  // CHECK-MESSAGES: :[[@LINE-2]]:60: warning: 'to' copies a tensor built in host memory ('tensor', line 44) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
}
