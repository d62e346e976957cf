// host-position-to-device-index: the indices a sort, topk or max along a dimension returns beside
// the values, and multinomial's draws, are int64, so a position read from them becomes a device
// index (a floating tensor's item() could raise where a long index would not), also through a local
// holding the pair.
#include <torch/torch.h>

#include <tuple>

torch::Tensor drawn_row(torch::Tensor emb, torch::Tensor probs) {
  auto k = torch::multinomial(probs, 1).reshape({1});
  return emb.index({k}).squeeze(0);
}

torch::Tensor best_sorted(torch::Tensor emb, torch::Tensor scores) {
  auto [vals, order] = scores.sort(0, true);
  auto first = order[0].reshape({1});
  return emb.index({first}).squeeze(0) * vals[0];
}

torch::Tensor best_of_max(torch::Tensor emb, torch::Tensor scores) {
  auto j = std::get<1>(scores.max(0)).reshape({1});
  return emb.index({j}).squeeze(0);
}

// The pair a local holds (top-k sampling keeps the result whole, then takes its indices).
torch::Tensor top_row(torch::Tensor emb, torch::Tensor logits) {
  auto top = torch::topk(logits, 3);
  auto idx = std::get<1>(top);
  auto i = idx[0].reshape({1});
  return emb.index({i}).squeeze(0);
}

// The values of the pair are what they were: a position read from them may be fractional.
torch::Tensor sorted_values(torch::Tensor emb, torch::Tensor scores) {
  auto [vals, order] = scores.sort(0, true);
  int64_t v = vals[0].item<int64_t>(); // EXPECT-NO-FIX: 'vals\[0\]' may be a floating tensor
  return emb[v] + order[0]; // EXPECT-NO-FIX: 'vals\[0\]' may be a floating tensor
}

// An inverse that checks for singular matrices reads the check back; the pack says what to use.
torch::Tensor gain(torch::Tensor p, torch::Tensor s) {
  return torch::matmul(p, torch::inverse(s)); // EXPECT-RECIPE: std::get<0>\(torch::linalg_inv_ex\(a\)\) reads nothing back
}
