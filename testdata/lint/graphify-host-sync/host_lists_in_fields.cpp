// Detections kept between calls in a list field, as detector classes written for a C API do: one
// method runs NMS and stores each image's kept rows copied to the CPU, another reads them back to
// fill the caller's structs. Reading those rows waits for no device: the copy did.
// RUN-ARGS: --graph-region=*::populate
#include <torch/torch.h>

#include <vector>

struct Box { float x0, y0, x1, y1, score; };

class Detector {
public:
  Detector() : threshold_(0.5f) {}
  void suppress(const torch::Tensor &preds) {
    dets_.clear();
    for (int64_t b = 0; b < preds.size(0); ++b) {
      auto p = preds[b];
      auto keep = p.select(1, 4) > threshold_;
      dets_.emplace_back(std::move(p.index({keep}).to(torch::kCPU)));
    }
  }
  int populate(Box *out) {
    if (dets_.empty())
      return 0;
    torch::Tensor det = dets_[0];
    const int64_t rows = det.size(0);
    for (int64_t i = 0; i < rows; ++i) {
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      out[i].x0 = det[i][0].item<float>();
      out[i].score = det[i][4].item<float>();
      const int64_t width = det[i].size(0);
      out[i].x1 = out[i].x0 + static_cast<float>(width);
    }
    return static_cast<int>(rows);
  }

private:
  float threshold_;
  std::vector<torch::Tensor> dets_;
};

// The same list, but one method keeps the rows where the model left them: on the device.
class DeviceDetector {
public:
  void suppress(const torch::Tensor &preds) {
    dets_.clear();
    dets_.push_back(preds[0].to(torch::kCPU));
    dets_.push_back(preds[1]);
  }
  float populate() {
    if (dets_.empty())
      return 0.f;
    return dets_[0][0][4].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  }

private:
  std::vector<torch::Tensor> dets_;
};

// A public list may be filled by any code that includes the class.
struct OpenDetector {
  std::vector<torch::Tensor> dets;
  void suppress(const torch::Tensor &preds) { dets.push_back(preds.to(torch::kCPU)); }
  float populate() { return dets.empty() ? 0.f : dets[0][0][4].item<float>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
};
