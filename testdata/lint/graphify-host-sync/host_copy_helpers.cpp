// Host memory the region copied there, followed into the file's own helpers: a parameter that
// every call passes a host copy, a helper's result built from one (a list filled with rows of
// it, a factory placed with its options), an element of a tuple an op returns. The copy is the
// finding; reads, selections and sizes of the host work after it are not. A helper also given a
// device tensor, and a tensor a factory built with no placement, keep their findings; so does a
// host counter the region adds device results into. A copy made only off the CPU device leaves
// the tensor in host memory on both paths; a list that starts with host tensors keeps them.
// RUN-ARGS: --checks=-*,graphify-host-sync,graphify-dynamic-shape,graphify-data-dependent-size --graph-region=Detector::run --graph-region=topClasses --graph-region=mixedCallers --graph-region=builtHere --graph-region=countKept --graph-region=hostOnEveryPath --graph-region=uploadParts --graph-region=hostWhenNotCuda
#include <torch/torch.h>

#include <tuple>
#include <vector>

namespace {

// Greedy suppression over rows of host memory, written with raw pointers.
torch::Tensor suppress(const torch::Tensor &boxes, const torch::Tensor &scores, float thr) {
  if (boxes.numel() == 0)
    return torch::empty({0}, boxes.options().dtype(torch::kLong));
  auto order = std::get<1>(scores.sort(0, true));
  auto n = boxes.size(0);
  auto removed = torch::zeros({n}, boxes.options().dtype(torch::kByte));
  auto keep = torch::empty({n}, boxes.options().dtype(torch::kLong));
  auto *r = removed.data_ptr<uint8_t>();
  auto *k = keep.data_ptr<int64_t>();
  auto *o = order.data_ptr<int64_t>();
  auto b = boxes.accessor<float, 2>();
  int64_t kept = 0;
  for (int64_t a = 0; a < n; a++) {
    auto i = o[a];
    if (r[i] == 1)
      continue;
    k[kept++] = i;
    for (int64_t c = a + 1; c < n; c++) {
      auto j = o[c];
      float w = std::max(0.f, std::min(b[i][2], b[j][2]) - std::max(b[i][0], b[j][0]));
      if (w > thr)
        r[j] = 1;
    }
  }
  return keep.narrow(0, 0, kept);
}

torch::Tensor filter(torch::Tensor &pred, float conf) {
  pred = pred.transpose(1, 2);
  std::vector<torch::Tensor> out;
  for (int64_t b = 0; b < pred.size(0); b++)
    out.push_back(torch::zeros({0, 6}, pred.device()));
  auto mask = pred.select(2, 4) > conf;
  for (int64_t b = 0; b < pred.size(0); b++) {
    auto x = pred[b].index({mask[b]});
    if (x.size(0) == 0)
      continue;
    auto i = suppress(x.slice(1, 0, 4), x.select(1, 4), 0.5f);
    out[b] = x.index({i});
  }
  return torch::stack(out);
}

float firstScore(const torch::Tensor &t) { return t[0].item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

} // namespace

struct Detector {
  torch::jit::script::Module model;
  torch::Device device{torch::kCUDA};
  std::vector<float> parse(const torch::Tensor &dets);
  std::vector<float> run(const torch::Tensor &image);
};

std::vector<float> Detector::parse(const torch::Tensor &dets) {
  std::vector<float> v;
  for (int64_t i = 0; i < dets.size(0); i++)
    v.push_back(dets[i][4].item<float>());
  return v;
}

std::vector<float> Detector::run(const torch::Tensor &image) {
  std::vector<torch::jit::IValue> in{image};
  torch::Tensor pred = model.forward(in).toTensor().cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto keep = filter(pred, 0.25f)[0];
  std::vector<float> res = parse(keep);
  for (int64_t i = 0; i < keep.size(0); i++)
    res.push_back(keep[i][4].item<float>());
  return res;
}

int64_t topClasses(const torch::Tensor &logits) {
  auto host = logits.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto [conf, cls] = host.max(1, true);
  auto order = std::get<1>(host.sort(0, true));
  return cls[0].item<int64_t>() + order[0].item<int64_t>() + (conf[0].item<float>() > 0.5f);
}

// firstScore is also given a device tensor: its read is reported.
float mixedCallers(const torch::Tensor &scores) {
  auto host = scores.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return firstScore(host) + firstScore(scores);
}

// Built in host memory by a factory given no device: more often device work written without its
// placement than host work, so its selection is reported.
torch::Tensor builtHere(int64_t n) {
  auto r = torch::arange(n);
  return r.index({r > 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
}

// A counter a factory built with no device, into which the region adds a model's results: on a
// GPU the two cannot meet, so it is taken to live where the results do and its read is reported.
int64_t countKept(const torch::Tensor &logits) {
  auto counts = torch::zeros({4}, torch::dtype(torch::kLong));
  counts += logits.argmax(-1);
  return counts[0].item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

// `if (!device.is_cpu())` copies to the host: on the other path the device is the CPU and the
// tensor is in host memory already, so the read after it waits for nothing.
float hostOnEveryPath(const torch::Tensor &scores, torch::Device device) {
  torch::Tensor s = scores;
  if (!device.is_cpu())
    s = s.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return s[0].item<float>();
}

// A list that starts with host tensors and only has its elements read or replaced: the copies of
// its elements read pageable memory.
torch::Tensor uploadParts(const float *a, const float *b, int64_t n, torch::Device device) {
  std::vector<torch::Tensor> parts = {torch::from_blob(const_cast<float *>(a), {n}),
                                      torch::from_blob(const_cast<float *>(b), {n})};
  torch::Tensor out = torch::zeros({n}, torch::TensorOptions().device(device));
  for (int i = 0; i < 2; ++i) {
    parts[i] = parts[i].contiguous();
    out = out + std::move(parts[i]).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'to' copies a tensor built in host memory ('from_blob', line 135) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
  return out;
}

// The same with the accelerator's test, and a list that is also given a device tensor: its rows
// may live on the device, so reading the stack is reported.
float hostWhenNotCuda(const torch::Tensor &scores, const torch::Tensor &extra) {
  torch::Tensor s = scores;
  if (s.is_cuda())
    s = s.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<torch::Tensor> rows;
  rows.push_back(s);
  rows.push_back(extra);
  return s[0].item<float>() + torch::stack(rows)[0][0].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

