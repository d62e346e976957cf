// Host records: a plain struct whose tensor fields a helper fills with host copies
// (`Outputs{boxes.to(kCPU), ...}`) is in host memory as a whole; reading its fields after the
// copies (`data_ptr`, `item`, the methods of the class it is passed to) waits for no device, so
// only the copies are reported, and the branches on the values read stay reported. A method that
// only its class's own methods call (on `this`) is the class's helper: its parameters are in host
// memory when every call here passes host tensors, though the class is declared in a header.
#include "segmentation_node.h" // in testdata/rewrite/include: outside the checked file's project folder
#include <torch/torch.h>

#include <graphify/annotations.h>

namespace seg {

Outputs Node::predict(const torch::Tensor &input) {
  torch::Tensor logits = torch::matmul(input.flatten(1), weight_);
  torch::Tensor scores = logits.softmax(1);
  Outputs out{logits.slice(1, 0, 4).to(torch::kCPU), scores.argmax(1).to(torch::kCPU),
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  // CHECK-MESSAGES: :[[@LINE-2]]:71: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
              scores.amax(1).to(torch::kCPU), input.to(torch::kCPU)};
              // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
              // CHECK-MESSAGES: :[[@LINE-2]]:53: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return out;
}

int64_t Node::paste(const torch::Tensor &mask, const torch::Tensor &box, int64_t height) {
  int64_t top = std::max<int64_t>(box[1].item<int64_t>(), 0);
  int64_t bottom = std::min<int64_t>(box[3].item<int64_t>(), height);
  if (bottom <= top)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return 0;
  return mask.slice(0, top, bottom).gt(0.5).sum().item<int64_t>();
}

Message Node::postprocess(Outputs &prediction, int64_t height, int64_t width) {
  Message msg;
  msg.scores.assign(prediction.scores.data_ptr<float>(), prediction.scores.data_ptr<float>() + prediction.scores.numel());
  for (int64_t j = 0; j < prediction.boxes.size(0); ++j) {
    float x1 = prediction.boxes[j][0].item<float>();
    float x2 = prediction.boxes[j][2].item<float>();
    if (x2 <= x1)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    msg.boxes.push_back({x1 / width, 0.f, x2 / width, 1.f});
    msg.areas.push_back(paste(prediction.masks[j], prediction.boxes[j], height));
  }
  msg.scores.push_back(peak(prediction.scores));
  prediction.boxes = prediction.boxes.to(torch::kCPU);
  float first = prediction.boxes[0][0].item<float>();
  msg.scores.push_back(first);
  return msg;
}

GRAPHIFY_GRAPH_REGION Message Node::run(const torch::Tensor &frame) {
  Outputs prediction = predict(frame);
  return postprocess(prediction, frame.size(2), frame.size(3));
}

// A record holding device tensors, one whose field is given a device tensor, one a function of
// another file may rebind, and one whose type has a method that may rebind its field: their
// reads wait for the device.
GRAPHIFY_GRAPH_REGION float Node::largestOnDevice(const torch::Tensor &frame) {
  Outputs onDevice{frame.amax(1), frame.argmax(1), frame.amax(), frame};
  float peak = onDevice.scores.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  Outputs copied = predict(frame);
  copied.scores = frame.amax();
  peak += copied.scores.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  Outputs passed = predict(frame);
  rescale(passed);
  peak += passed.scores.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  Outputs again = onDevice;
  again = predict(frame); // host again: its reads wait for nothing
  peak += again.scores.item<float>();
  Tracked tracked{frame.amax().to(torch::kCPU)};
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  tracked.refresh(frame.amax());
  return peak + tracked.boxes.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

// Called on `this` with a host tensor above, and from outside the class with a device tensor
// below: not the class's helper, so its read waits for the device.
float Node::peak(const torch::Tensor &scores) { return scores.max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:69: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

float tallest(Node &node, const torch::Tensor &frame) { return node.peak(frame.amax(1)); }

} // namespace seg
