// RUN-ARGS: --graph-region=masks* --checks=-*,graphify-data-dependent-size
// A selection reshaped to a braced list of sizes (`view({-1, mh, mw})`) has its listed sizes
// fixed: only the inferred dimension (-1) takes the selection's number of rows. Prototype masks
// cropped per detection read their height and width from such a view; those sizes are the
// prototypes', not the data's. A listed size read from the selection follows it.
#include <torch/torch.h>

#include <tuple>

torch::Tensor masks_of(torch::Tensor det, torch::Tensor protos, double conf) {
  auto keep = (det.select(1, 4) > conf).unsqueeze(1);
  auto rows = det.masked_select(keep).view({-1, 38});
  auto mh = protos.size(1), mw = protos.size(2);
  auto masks = rows.slice(1, 6, 38).matmul(protos.view({32, -1})).sigmoid().view({-1, mh, mw});
  auto cols = torch::arange(masks.size(2)).to(torch::kFloat);
  auto lines = torch::arange(masks.size(1)).to(torch::kFloat);
  auto boxes = torch::zeros({masks.size(0), 4});
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  auto halves = rows.reshape({2, -1});
  auto tail = torch::ones({halves.size(1)});
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'ones' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  auto head = torch::ones({halves.size(0)});
  return masks.sum() + cols.sum() + lines.sum() + boxes.sum() + tail.sum() + head.sum();
}

// Tied to the results of a sort (`std::tie(scores, order) = s.sort(...)`), the sorted selection and
// its order keep the selection's length.
torch::Tensor masks_ranked(torch::Tensor det, torch::Tensor protos, int64_t max_n) {
  auto keep = torch::nonzero(det.select(1, 4) > 0.5).squeeze(1);
  auto scores = det.select(1, 4).index_select(0, keep);
  torch::Tensor order;
  std::tie(scores, order) = scores.sort(0, /*descending=*/true);
  auto top = order.narrow(0, 0, std::min(max_n, order.size(0)));
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: size argument of 'narrow' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  return protos.index_select(0, keep.index_select(0, top));
}
