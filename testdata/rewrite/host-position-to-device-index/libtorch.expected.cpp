// host-position-to-device-index: positions read on the host become one-element long tensors.
#include <torch/torch.h>

torch::Tensor pick_row(torch::Tensor x, torch::Tensor scores) {
  auto i = scores.argmax().reshape({1});
  return x.index({i}).squeeze(0) * 2;
}

torch::Tensor pick_column(torch::Tensor x, torch::Tensor scores) {
  auto j = scores.argmax().reshape({1});
  return x.index({torch::indexing::Slice(), j}).squeeze(1);
}

torch::Tensor in_index_list(torch::Tensor table, torch::Tensor scores) {
  auto k = (scores > 0).sum().reshape({1}).to(torch::kLong);
  return table.index({torch::indexing::Slice(), k}).squeeze(1);
}

torch::Tensor write_through(torch::Tensor table, torch::Tensor scores, torch::Tensor row) {
  auto k = scores.argmax().reshape({1});
  table.index_put_({k}, row);
  table[0].index_put_({k}, 1);
  return table;
}

torch::Tensor inline_read(torch::Tensor x, torch::Tensor scores) {
  return x.index({scores.argmax().reshape({1}) + 1}).squeeze(0);
}

torch::Tensor neighbours(torch::Tensor x, torch::Tensor n) {
  auto i = (n > 0.5).sum().reshape({1}).to(torch::kLong);
  return x.index({i - 1}).squeeze(0) + x.index({i}).squeeze(0);
}

torch::Tensor outer_position(torch::Tensor t, torch::Tensor scores) {
  auto b = scores.argmax().reshape({1});
  t.index_put_({b, 2}, 0);
  return t.index({b}).squeeze(0)[2];
}

// The position read through the Scalar that item() returns (toInt, toLong, to<int64_t>) is the
// same read as item<int>(): the same checked conversion, the same position.
torch::Tensor scalar_conversions(torch::Tensor boxes, torch::Tensor scores, torch::Tensor rows) {
  auto best = torch::argmax(scores).reshape({1});
  const auto row = boxes.index({rows.argmax().reshape({1})}).squeeze(0);
  return boxes.index({best}).squeeze(0) + row +
         boxes.index({scores.argmin().reshape({1})}).squeeze(0);
}
