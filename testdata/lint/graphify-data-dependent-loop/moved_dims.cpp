// The dimension whose size follows the values moves with the layout: rows gathered along
// dimension 1 by a selection's indices make dimension 1 follow the data, a transpose swaps it
// back to dimension 0, and a stack of a host list whose length follows the data adds a leading
// dimension that does. The other dimensions stay static.
// RUN-ARGS: --graph-region=*
#include <torch/torch.h>

#include <vector>

struct Point {
  float x, y;
};

// Keypoint columns of the kept candidates, transposed to one row per candidate: the candidates
// follow the data, the 3 * K coordinates of each do not.
std::vector<std::vector<Point>> keypoints(const torch::Tensor &pred, const torch::Tensor &keep) {
  auto idx = keep.nonzero().squeeze(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
  auto sel = pred.index_select(1, idx);
  auto rows = sel.t().contiguous();
  std::vector<std::vector<Point>> out;
  for (int64_t i = 0; i < rows.size(0); ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    std::vector<Point> pts(rows.size(1) / 3);
    for (size_t n = 0; n != pts.size(); ++n)
      pts[n] = Point{0.f, 0.f};
    out.push_back(pts);
  }
  return out;
}

// transpose(0, 1) does the same; the columns of the gathered tensor before it follow the data.
int64_t columns(const torch::Tensor &pred, const torch::Tensor &keep) {
  auto sel = pred.index_select(1, keep.nonzero().squeeze(1));
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
  int64_t n = 0;
  for (int64_t j = 0; j < sel.size(1); ++j)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += 1;
  for (int64_t k = 0; k < sel.transpose(0, 1).size(1); ++k)
    n += 2;
  return n;
}

// t() of a vector is the vector: a selection's only dimension still follows the data after it.
int64_t vector_t(const torch::Tensor &scores) {
  auto kept = scores.masked_select(scores > 0.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'masked_select' has a data-dependent output shape: returns as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  int64_t n = 0;
  for (int64_t i = 0; i < kept.t().size(0); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += 1;
  return n;
}

// One box per track, stacked: the tracks are added when a score read on the host is low.
torch::Tensor stacked_tracks(const torch::Tensor &dets, std::vector<torch::Tensor> &tracks) {
  auto a = dets.accessor<float, 2>();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'accessor' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  for (int64_t i = 0; i < dets.size(0); ++i)
    if (a[i][4] < 0.3f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      tracks.push_back(dets[i].slice(0, 0, 4));
  std::vector<torch::Tensor> boxes;
  for (auto &t : tracks)
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    boxes.push_back(t * 2);
  auto all = torch::stack(boxes, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'stack' joins one part per element of its list, whose number depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  int64_t m = 0;
  for (int64_t j = 0; j < all.size(1); ++j)
    m += 1;
  if (all.size(0) == 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return torch::zeros({0, 4});
  return all * m;
}

// A helper that transposes what it gathers from its parameter: the caller's followed dimension
// of the argument (1 here) is not where it lands (0), so the caller takes any dimension.
torch::Tensor rows_t(const torch::Tensor &x, const torch::Tensor &keep) {
  return x.index_select(0, keep.nonzero().squeeze(1)).t();
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
}
int64_t through_helper(const torch::Tensor &pred, const torch::Tensor &keep, const torch::Tensor &cols) {
  auto y = rows_t(pred.index_select(1, cols.nonzero().squeeze(1)), keep);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
  int64_t n = 0;
  for (int64_t i = 0; i < y.size(0); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += 1;
  return n;
}
