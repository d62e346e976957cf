// RUN-ARGS: --graph-region=* --checks=-*,graphify-data-dependent-size
// Sizes of host work after a copy to the host: the copy is the finding (graphify-host-sync), and
// the tensors the region builds or reshapes in host memory from the copy's shape move out with it.
// The same sizes on the device, or a host tensor sized so and then copied to the device, are
// findings of their own.
#include <torch/torch.h>

#include <vector>

torch::Tensor keepRows(torch::Tensor pred) {
  auto sel = pred.index({pred.select(1, 4) > 0.5});
  auto host = sel.cpu();
  auto index = torch::ones({host.size(0), 1});
  auto head = host.narrow(0, 0, host.size(0) - 1);
  auto rows = torch::cat({index, head.slice(0, 0, 1)}, 1);
  auto dev = torch::zeros({sel.size(0), 1}, pred.options());
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'zeros' depends on the size of a value-dependent selection{{.*}} [graphify-data-dependent-size]
  auto back = torch::ones({host.size(0), 1}).to(pred.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'ones' depends on the size of a value-dependent selection{{.*}} [graphify-data-dependent-size]
  return dev + back + rows.sum();
}

// Kept rows gathered on the host (a hand-written NMS over the host copy) and wrapped into a tensor
// that only indexes the host copy: host work. Wrapped so to index a tensor that may be on the
// device, the same list is a finding.
torch::Tensor keptRows(torch::Tensor pred) {
  auto host = pred.cpu();
  auto order = host.select(1, 4).argsort(0, true);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < order.size(0); ++i)
    if (host[order[i].item<int64_t>()][4].item<float>() > 0.5f)
      kept.push_back(order[i].item<int64_t>());
  auto idx = torch::from_blob(kept.data(), {static_cast<int64_t>(kept.size())}, torch::kLong);
  auto rows = host.index_select(0, idx);
  auto dev_idx = torch::from_blob(kept.data(), {static_cast<int64_t>(kept.size())}, torch::kLong);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: size argument of 'from_blob' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  auto mask = torch::from_blob(kept.data(), {static_cast<int64_t>(kept.size())}, torch::kLong) > 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: size argument of 'from_blob' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  return pred.index_select(0, dev_idx) + rows.sum() + mask.sum();
}
