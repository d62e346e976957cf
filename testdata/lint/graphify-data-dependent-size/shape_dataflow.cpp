// The size of a selection travels with the tensors made from it: through views, casts and
// arithmetic, an index_select by its indices, a cat with a selected part, a helper's return, a
// field, a container and a structured binding. Its sizes are values read from the data; its rank,
// a full reduction of it and tensors made from host sizes are not.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <tuple>
#include <vector>

static torch::Tensor confident(const torch::Tensor &pred, double thresh) {
  return pred.index({pred.select(1, 4) > thresh});
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
}

static torch::Tensor xyxy(torch::Tensor boxes) { return boxes.slice(1, 0, 4) * 2 - 1; }

static int64_t count(const torch::Tensor &t) { return t.size(0); }

struct Postprocess : torch::nn::Module {
  torch::Tensor kept_;
  std::vector<torch::Tensor> history_;

  torch::Tensor forward(torch::Tensor pred, torch::Tensor anchors) {
    auto det = confident(pred, 0.25);
    auto boxes = xyxy(det).to(torch::kFloat);
    for (int64_t j = 0; j < boxes.size(0); ++j)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-3]]:18: note: returned from 'xyxy' here
    // CHECK-NOTES: :[[@LINE-5]]:16: note: returned from 'confident' here
    // CHECK-NOTES: :[[@LINE-19]]:15: note: selection whose length depends on the values made here
      boxes = boxes + 1;

    auto idx = (det.select(1, 4) < 0.9).nonzero().squeeze();
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    if (idx.numel() == 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:41: note: selection whose length depends on the values made here
      return pred;

    auto picked = anchors.index_select(0, idx);
    auto out = torch::zeros({picked.size(0), 4});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-10]]:41: note: selection whose length depends on the values made here

    auto both = torch::cat({anchors, det});
    auto pad = torch::ones({both.size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: size argument of 'ones' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-24]]:16: note: returned from 'confident' here
    // CHECK-NOTES: :[[@LINE-38]]:15: note: selection whose length depends on the values made here

    kept_ = det;
    auto again = torch::empty({kept_.size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: size argument of 'empty' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: stored in field 'kept_' here
    // CHECK-NOTES: :[[@LINE-31]]:16: note: returned from 'confident' here
    // CHECK-NOTES: :[[@LINE-45]]:15: note: selection whose length depends on the values made here

    // Reached only when the selection above was not empty: how many tensors history_ holds
    // follows the data, and so does the number of iterations over it.
    history_.push_back(boxes);
    for (const auto &h : history_)
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: loop range depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: the length of 'history_' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-31]]:41: note: selection whose length depends on the values made here
      out = out + torch::zeros({h.size(0), 4});
      // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
      // CHECK-NOTES: :[[@LINE-7]]:14: note: added to 'history_' here
      // CHECK-NOTES: :[[@LINE-43]]:18: note: returned from 'xyxy' here
      // CHECK-NOTES: :[[@LINE-45]]:16: note: returned from 'confident' here
      // CHECK-NOTES: :[[@LINE-59]]:15: note: selection whose length depends on the values made here

    auto [vals, order] = det.select(1, 4).sort(0, true);
    auto top = torch::zeros({order.size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-3]]:10: note: assigned to '[vals, order]' here
    // CHECK-NOTES: :[[@LINE-52]]:16: note: returned from 'confident' here
    // CHECK-NOTES: :[[@LINE-66]]:15: note: selection whose length depends on the values made here

    auto n = count(det);
    auto by_helper = torch::zeros({n});
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: returned from 'count' here
    // CHECK-NOTES: :[[@LINE-59]]:16: note: returned from 'confident' here
    // CHECK-NOTES: :[[@LINE-73]]:15: note: selection whose length depends on the values made here

    // Static: the rank, a full reduction, host sizes, and the same helpers on static tensors.
    auto rank = torch::zeros({det.dim()});
    auto one = torch::zeros({det.sum().numel()});
    auto grid = torch::zeros({anchors.size(0), 4});
    auto anchor_count = torch::zeros({count(anchors)});
    auto decoded = torch::zeros({xyxy(anchors).size(0)});
    return out.sum() + pad.sum() + again.sum() + top.sum() + by_helper.sum() + rank.sum() + one.sum() +
           grid.sum() + anchor_count.sum() + decoded.sum() + picked.sum() + vals.sum();
  }
};

// Rows gathered with x.index({idx}), `idx` a column of nonzero(): the index is converted to a
// TensorIndex, which carries its shape, so the gathered rows have as many as the mask has true
// values (as with index_select).
GRAPHIFY_GRAPH_REGION torch::Tensor dynamic_kernels(torch::Tensor cate, torch::Tensor kernels, torch::Tensor feat, double thr) {
  auto inds = (cate > thr).nonzero();
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
  auto picked = kernels.index({inds.index({"...", 0})});
  picked = picked.view({picked.size(0), picked.size(1), 1, 1});
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-3]]:8: note: assigned to 'picked' here
  // CHECK-NOTES: :[[@LINE-6]]:28: note: selection whose length depends on the values made here
  return torch::conv2d(feat.unsqueeze(0), picked);
}

// Selections assigned into a vector by element (out[b] = sel) rather than pushed: the vector may
// hold them, and so may what is stacked from it.
GRAPHIFY_GRAPH_REGION torch::Tensor per_image_rows(torch::Tensor pred, double thr) {
  std::vector<torch::Tensor> out(pred.size(0));
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b];
    out[b] = x.index({x.select(1, 4) > thr});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  }
  auto first = torch::stack(out)[0];
  return torch::zeros({first.size(0)});
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: added to 'out' here
}
