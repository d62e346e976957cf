// RUN-ARGS: --graph-region=* --checks=-*,graphify-data-dependent-size
// Sizes of host work after a copy to the host: the copy is the finding (graphify-host-sync), and
// the tensors the region builds or reshapes in host memory from the copy's shape move out with it.
// The same sizes on the device, or a host tensor sized so and then copied to the device, are
// findings of their own.
#include <torch/torch.h>

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
