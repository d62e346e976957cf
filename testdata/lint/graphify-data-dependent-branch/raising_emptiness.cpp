// RUN-ARGS: --checks=-*,graphify-data-dependent-branch --graph-region=*
// Emptiness tested by letting an access raise: `try { best = keep.index({0}); } catch (...)`.
// Whether the handler runs depends on whether the selection has a row, so the handler is a
// branch on its size; the same for an element of a host container whose length follows the
// data (`dets.at(0)`), and for a position read from a tensor. An access that cannot raise for
// a value-dependent reason (a fixed-size tensor, a boolean mask, a slice) decides nothing.
#include <torch/torch.h>

#include <stdexcept>
#include <vector>

torch::Tensor first_kept(const torch::Tensor &boxes, const torch::Tensor &scores, double t) {
  torch::Tensor keep = (scores > t).nonzero().squeeze(1);
  torch::Tensor best;
  try {
    best = boxes.index({keep.index({0})});
  } catch (const c10::Error &) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    best = torch::zeros({4});
  }
  return best;
}

float top_score(const torch::Tensor &scores, double t) {
  torch::Tensor sel = scores.masked_select(scores > t);
  try {
    return sel.select(0, 0).item<float>();
  } catch (...) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return 0.f;
  }
}

struct Box {
  float x1, y1, x2, y2;
};

Box first_box(const torch::Tensor &dets, double t) {
  std::vector<Box> kept;
  for (int64_t i = 0; i < dets.size(0); ++i)
    if (dets[i][4].item<float>() > t)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      kept.push_back({dets[i][0].item<float>(), dets[i][1].item<float>(), dets[i][2].item<float>(),
                      dets[i][3].item<float>()});
  try {
    return kept.at(0);
  } catch (const std::out_of_range &) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return Box{0, 0, 0, 0};
  }
}

// Static shapes: the accesses cannot fail for a value-dependent reason.
torch::Tensor first_row(const torch::Tensor &x, const torch::Tensor &mask) {
  torch::Tensor fixed = x.view({-1, 4});
  torch::Tensor out;
  try {
    out = fixed.index({0}) + x.index({mask > 0}).sum();
  } catch (const c10::Error &) {
    out = torch::zeros({4});
  }
  try {
    out = out + x.index({mask > 0}).narrow(0, 0, 1).sum();
  } catch (...) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    out = out * 2;
  }
  return out;
}

// The first of a stack of per-image selections (one part per batch row) is there whatever the
// data: stacking moves the selections' length to dimension 1. A row taken by a loop counter
// bounded by the very length it addresses always fits; one bounded by another tensor's may not.
torch::Tensor per_image(const torch::Tensor &pred, double t) {
  std::vector<torch::Tensor> out;
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(pred[b].index({pred[b].select(1, 4) > t}).narrow(0, 0, 1));
  return torch::stack(out);
}

float rows_read(const torch::Tensor &pred, const torch::Tensor &other, double t) {
  float total = 0;
  try {
    auto keep = per_image(pred, t)[0];
    for (int64_t i = 0; i < keep.size(0); ++i)
      total += keep[i].sum().item<float>();
  } catch (const c10::Error &) {
    total = -1;
  }
  try {
    auto keep = pred.index({pred.select(1, 4) > t});
    for (int64_t i = 0; i < other.size(0); ++i)
      total += keep[i].sum().item<float>();
  } catch (const c10::Error &) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    total = -2;
  }
  return total;
}

// A loop with no condition bounds nothing: its accesses are judged as any other.
float until_large(const torch::Tensor &pred, double t) {
  float total = 0;
  try {
    auto keep = pred.index({pred.select(1, 4) > t});
    for (int64_t i = 0;; ++i) {
      total += keep[i].sum().item<float>();
      if (total > 10)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        break;
    }
  } catch (const c10::Error &) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: whether this handler runs depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    total = -3;
  }
  return total;
}
