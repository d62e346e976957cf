// RUN-ARGS: --graph-region=detect
// A map of named tensors (`parts["boxes"]`, the way exported detectors hand their outputs over)
// holds what is stored under its keys: a selection stored there keeps its data-dependent length,
// in a helper it is passed to by reference and in what is concatenated from it. Before any
// selection is stored, its tensors have the shapes of the model's outputs.
#include <torch/torch.h>

#include <map>
#include <string>

torch::Tensor suppress(torch::Tensor &boxes, torch::Tensor &scores) {
  if (boxes.numel() == 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return torch::empty({0}, boxes.options().dtype(torch::kLong));
  return scores.argsort(0, true);
}

static float first_column(const torch::Tensor &dets) {
  float s = 0;
  for (int64_t i = 0; i < dets.sizes()[0]; ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    s += dets[i][0].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return s;
}

torch::Tensor detect(torch::Tensor out, float thr) {
  std::map<std::string, torch::Tensor> parts;
  parts["boxes"] = out.slice(1, 0, 4);
  parts["scores"] = out.select(1, 4);
  torch::Tensor area = torch::zeros({parts["boxes"].size(0)}, out.options());
  auto kept = torch::where(parts["scores"] > thr);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'where' has a data-dependent output shape: the one-argument form returns the indices of true elements; a static graph cannot hold it [graphify-dynamic-shape]
  parts["boxes"] = parts["boxes"].index({kept[0]});
  parts["scores"] = parts["scores"].index({kept[0]});
  auto order = suppress(parts["boxes"], parts["scores"]);
  auto dets = torch::cat({parts["boxes"], parts["scores"].unsqueeze(1)}, 1);
  return order + first_column(dets) + area.sum();
}
