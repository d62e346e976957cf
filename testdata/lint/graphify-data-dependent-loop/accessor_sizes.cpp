// RUN-ARGS: --graph-region=decode* --checks=-*,graphify-data-dependent-loop
// A host view of a tensor's memory (an accessor) has the tensor's sizes: a loop to `a.size(0)`
// of a view of a selection's host copy runs once per selected row, here and in a helper the
// view is handed to. A view of a tensor whose shape the data does not choose, or a size the
// selection leaves fixed (`size(1)`), bounds a fixed loop.
#include <torch/torch.h>

#include <vector>

static void collect(const at::TensorAccessor<float, 2> &rows, std::vector<float> &out) {
  for (int64_t i = 0; i < rows.size(0); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    out.push_back(rows[i][4]);
  for (int64_t j = 0; j < rows.size(1); ++j)
    out.push_back(0.f);
}

std::vector<float> decode(torch::Tensor x, double conf) {
  auto keep = (x.select(1, 4) > conf).unsqueeze(1);
  auto det = x.masked_select(keep).view({-1, 6}).cpu();
  auto rows = det.accessor<float, 2>();
  std::vector<float> out;
  for (int64_t i = 0; i < rows.size(0); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    out.push_back(rows[i][0]);
  for (int64_t j = 0; j < rows.size(1); ++j)
    out.push_back(1.f);
  collect(det.accessor<float, 2>(), out);
  return out;
}

std::vector<float> decode_all(torch::Tensor x) {
  auto whole = x.cpu();
  auto rows = whole.accessor<float, 2>();
  std::vector<float> out;
  for (int64_t i = 0; i < rows.size(0); ++i)
    out.push_back(2.f);
  collect(rows, out);
  return out;
}
