// host-position-to-device-index: positions read on the host become one-element long tensors.
#include <torch/torch.h>

torch::Tensor pick_row(torch::Tensor x, torch::Tensor scores) {
  int64_t i = scores.argmax().item<int64_t>();
  return x[i] * 2;
}

torch::Tensor pick_column(torch::Tensor x, torch::Tensor scores) {
  int64_t j = scores.argmax().item<int64_t>();
  return x.select(1, j);
}

torch::Tensor in_index_list(torch::Tensor table, torch::Tensor scores) {
  auto k = (scores > 0).sum().item<int64_t>();
  return table.index({torch::indexing::Slice(), k});
}

torch::Tensor write_through(torch::Tensor table, torch::Tensor scores, torch::Tensor row) {
  int64_t k = scores.argmax().item<int64_t>();
  table.index_put_({k}, row);
  table[0][k] = 1;
  return table;
}

torch::Tensor inline_read(torch::Tensor x, torch::Tensor scores) {
  return x[scores.argmax().item<int64_t>() + 1];
}

torch::Tensor neighbours(torch::Tensor x, torch::Tensor n) {
  int64_t i = (n > 0.5).sum().item<int64_t>();
  return x[i - 1] + x[i];
}

torch::Tensor outer_position(torch::Tensor t, torch::Tensor scores) {
  int64_t b = scores.argmax().item<int64_t>();
  t[b][2] = 0;
  return t[b][2];
}

// The position read through the Scalar that item() returns (toInt, toLong, to<int64_t>) is the
// same read as item<int>(): the same checked conversion, the same position.
torch::Tensor scalar_conversions(torch::Tensor boxes, torch::Tensor scores, torch::Tensor rows) {
  int best = torch::argmax(scores).item().toInt();
  const auto row = boxes.select(0, rows.argmax().item().toLong());
  return boxes[best] + row + boxes[scores.argmin().item().to<int64_t>()];
}
