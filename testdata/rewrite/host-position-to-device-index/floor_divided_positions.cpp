// host-position-to-device-index against the real LibTorch headers: a beam search's source beams,
// topk's flat positions divided by the beam width with a rounding mode ("floor" keeps integers
// integer), are integer tensors, so reading one as a position cannot raise on NaN; true division
// gives floats and stays refused. Positions given through std::tie are the tuple's second element
// wherever they are assigned; the values beside them stay refused.
#include <torch/torch.h>

torch::Tensor source_tokens(torch::Tensor logp, torch::Tensor tokens, int64_t beams) {
  auto flat = std::get<1>(logp.flatten().topk(beams));
  auto src = torch::div(flat, beams, "floor");
  int64_t b = src[0].item<int64_t>();
  return tokens[b];
}

torch::Tensor next_row(torch::Tensor scores, torch::Tensor rows, int64_t width) {
  auto order = std::get<1>(scores.sort(0, true));
  auto r = order.floor_divide(width) + 1;
  int64_t i = r[0].item<int64_t>();
  return rows[i];
}

torch::Tensor true_division(torch::Tensor scores, torch::Tensor rows, int64_t width) {
  auto order = std::get<1>(scores.sort(0, true));
  auto r = order / width;
  int64_t i = r[0].item<int64_t>(); // EXPECT-NO-FIX: may be a floating tensor
  return rows[i]; // EXPECT-NO-FIX: ^'r\[0\]' may be a floating tensor
}

torch::Tensor tied_positions(torch::Tensor logp, torch::Tensor tokens, int64_t beams) {
  torch::Tensor values, flat;
  std::tie(values, flat) = logp.flatten().topk(beams);
  auto src = torch::div(flat, beams, "floor").squeeze();
  if (src.sizes().empty())
    src.unsqueeze_(0);
  int64_t b = src[0].item<int64_t>();
  return tokens[b];
}

torch::Tensor tied_values(torch::Tensor logp, torch::Tensor tokens, int64_t beams) {
  torch::Tensor values, flat;
  std::tie(values, flat) = logp.flatten().topk(beams);
  int64_t b = values[0].item<int64_t>(); // EXPECT-NO-FIX: may be a floating tensor
  return tokens[b]; // EXPECT-NO-FIX: ^'values\[0\]' may be a floating tensor
}

// No rounding mode spelled as an empty optional is true division: floats, refused.
torch::Tensor empty_mode(torch::Tensor logp, torch::Tensor tokens, int64_t beams) {
  auto flat = std::get<1>(logp.flatten().topk(beams));
  auto src = torch::div(flat, beams, c10::nullopt);
  int64_t b = src[0].item<int64_t>(); // EXPECT-NO-FIX: may be a floating tensor
  return tokens[b]; // EXPECT-NO-FIX: ^'src\[0\]' may be a floating tensor
}

// A local given integer positions on every path (an initialiser and an assignment in a branch)
// holds integers wherever it is read; one assignment of floats, or a compound assignment, and it
// may not.
torch::Tensor either_order(torch::Tensor scores, torch::Tensor rows, bool descending) {
  torch::Tensor order = std::get<1>(scores.sort(0, false));
  if (descending)
    order = std::get<1>(scores.sort(0, true));
  int64_t i = order[0].item<int64_t>();
  return rows[i];
}

torch::Tensor halved_order(torch::Tensor scores, torch::Tensor rows, bool halve) {
  torch::Tensor order = std::get<1>(scores.sort(0, false));
  if (halve)
    order = order / 2;
  int64_t i = order[0].item<int64_t>(); // EXPECT-NO-FIX: may be a floating tensor
  return rows[i]; // EXPECT-NO-FIX: ^'order\[0\]' may be a floating tensor
}

torch::Tensor shifted_order(torch::Tensor scores, torch::Tensor rows) {
  torch::Tensor order = std::get<1>(scores.sort(0, false));
  order += 1;
  int64_t i = order[0].item<int64_t>(); // EXPECT-NO-FIX: may be a floating tensor
  return rows[i]; // EXPECT-NO-FIX: ^'order\[0\]' may be a floating tensor
}
