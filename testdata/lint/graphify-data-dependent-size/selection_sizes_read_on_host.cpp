// Detection post-processing that logs how many boxes survive each filter, as instance
// segmentation and YOLO decoders do between their steps. The number of kept rows exists only once
// the mask is read on the host: printing it or handing it to a logger, also formatted first, is a
// read a static graph cannot hold. A size kept in a local is reported where it is used (here as a
// scale, tensor math: not at all); sizes of fixed-shape tensors and a count computed on the device
// are not reads of the data. A formatting helper that walks the sizes with a range-based for
// runs as many times as the tensor has dimensions: that loop is static, the log of its result is
// the read; so is a range-based for over the sizes in the region itself. A host object built
// from the size (a shape record, a string, a buffer) and handed to a host function carries it
// there.
// RUN-ARGS: --graph-region=filter_boxes
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

struct ShapeRecord {
  ShapeRecord(c10::IntArrayRef s) : dims(s.vec()) {}
  std::vector<int64_t> dims;
};
void LogShape(ShapeRecord shape);
void LogBar(const std::string &bar);
void LogScratch(std::vector<float> scratch);

template <typename... Args> void DebugLog(const std::string &format, Args &&...args) {
  std::printf("%s\n", format.c_str());
  ((std::cout << args << ' '), ...);
}

template <typename T> static std::string DimsToString(torch::ArrayRef<T> dims) {
  std::string text = "[";
  for (auto d : dims)
    text += std::to_string(d) + " ";
  return text + "]";
}

torch::Tensor filter_boxes(const torch::Tensor &boxes, const torch::Tensor &scores, double threshold) {
  DebugLog("candidates: {}", boxes.size(0));
  auto keep = scores > threshold;
  auto kept = boxes.index({keep});
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  std::cout << "kept " << kept.size(0) << " boxes" << std::endl;
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: the size of a value-dependent selection read here is printed on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  DebugLog("after the score filter: {}", kept.sizes()[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: the size of a value-dependent selection read here is handed to 'DebugLog' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  DebugLog("kept shape: {}", c10::str(kept.sizes()));
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: the size of a value-dependent selection read here is handed to 'DebugLog' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  DebugLog("kept dims: {}", DimsToString(kept.sizes()));
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: the size of a value-dependent selection read here is handed to 'DebugLog' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  LogShape(kept.sizes());
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the size of a value-dependent selection read here is handed to 'LogShape' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  LogBar(std::string(kept.size(0), '#'));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the size of a value-dependent selection read here is handed to 'LogBar' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  LogScratch(std::vector<float>(kept.size(0)));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: the size of a value-dependent selection read here is handed to 'LogScratch' on the host; a static graph cannot hold a size that changes with the data [graphify-data-dependent-size]
  int64_t volume = 1;
  for (int64_t d : kept.sizes())
    volume *= d;
  const int64_t rows = kept.size(0);
  auto count = keep.sum();
  std::cout << "columns " << kept.size(1) << std::endl;
  return torch::cat({kept.flatten(), count.unsqueeze(0).to(kept.dtype())}) * rows * volume;
}
