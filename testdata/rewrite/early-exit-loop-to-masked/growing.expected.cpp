// early-exit-loop-to-masked: decode loops that concatenate onto a tensor of the code around them,
// sum into host numbers, and stop on a token. The fixed-trip loop keeps the concatenation (each
// step's size is the step's own) and tracks the length the original would have reached; a sum
// becomes a 0-d tensor of its type. Where either leaves the loop, the function is split: a core
// returns them at the bound's size with the lengths, the host epilogue narrows the tensors and
// reads the sums back.
#include <torch/torch.h>

#include <tuple>
#include <vector>

// The classic greedy decode: the start token, one token per step, stop after the end token.
static std::tuple<at::Tensor, at::Tensor>
greedy_ids_padded(torch::Tensor memory, int64_t max_len, int64_t eos) {
  torch::Tensor ys = torch::zeros({1, 1}, memory.options().dtype(torch::kLong));
  auto active = torch::ones({}, ys.options().dtype(torch::kBool));
  auto ys_length =
      torch::full({}, ys.size(0), ys.options().dtype(torch::kLong));
  for (int64_t i = 0; i < max_len; ++i) {
    torch::Tensor next = memory.index({i}).argmax().view({1, 1});
    ys = torch::cat({ys, next}, 0);
    ys_length = torch::where(active, ys.size(0), ys_length);
    active =
        torch::logical_and(active, torch::logical_not(next.reshape({}) == eos));
  }
  return std::make_tuple(ys, ys_length);
}

/// graphify: host epilogue of 'greedy_ids_padded' (slices what its loop grew to
/// the length the loop reached; not a graph region)
torch::Tensor greedy_ids(torch::Tensor memory, int64_t max_len, int64_t eos) {
  auto padded = greedy_ids_padded(memory, max_len, eos);
  at::Tensor ys =
      std::get<0>(padded).narrow(0, 0, std::get<1>(padded).item<int64_t>());
  return ys;
}

// The buffer is a by-value parameter grown along the last dimension, the exit tested before the
// growth (the end token is not kept), and the code after the loop works on it in the epilogue.
static std::tuple<at::Tensor, at::Tensor, at::Tensor>
decode_ids_padded(torch::Tensor h, torch::Tensor w, torch::Tensor ids,
                  int64_t max_len, int64_t eos) {
  auto step = torch::matmul(h, w);
  auto active = torch::ones({}, ids.options().dtype(torch::kBool));
  auto ids_length =
      torch::full({}, ids.size(-1), ids.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w) + step;
    auto next = logits.argmax(-1).unsqueeze(1);
    active =
        torch::logical_and(active, torch::logical_not((next == eos).all()));
    ids = torch::cat({ids, next}, -1);
    ids_length = torch::where(active, ids.size(-1), ids_length);
    h = torch::where(active, torch::tanh(h + logits * 0.5), h);
  }
  return std::make_tuple(ids, step, ids_length);
}

/// graphify: host epilogue of 'decode_ids_padded' (slices what its loop grew to
/// the length the loop reached; not a graph region)
torch::Tensor decode_ids(torch::Tensor h, torch::Tensor w, torch::Tensor ids,
                         int64_t max_len, int64_t eos) {
  auto padded = decode_ids_padded(h, w, ids, max_len, eos);
  ids = std::get<0>(padded).narrow(-1, 0, std::get<2>(padded).item<int64_t>());
  at::Tensor step = std::move(std::get<1>(padded));
  return ids.squeeze(0) + step.size(0);
}

// A token read into a host local that only the exit tests: the local becomes the 0-d tensor.
static std::tuple<at::Tensor, at::Tensor> local_token_padded(torch::Tensor h,
                                                             torch::Tensor w,
                                                             int64_t max_len,
                                                             int64_t eos) {
  auto ys = h.argmax(-1, true);
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  auto ys_length =
      torch::full({}, ys.size(1), ys.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::where(active, torch::tanh(torch::matmul(h, w)), h);
    auto tok = h.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    ys_length = torch::where(active, ys.size(1), ys_length);
    auto id = tok.reshape({});
    active = torch::logical_and(active, torch::logical_not(id == eos));
  }
  return std::make_tuple(ys, ys_length);
}

/// graphify: host epilogue of 'local_token_padded' (slices what its loop grew
/// to the length the loop reached; not a graph region)
torch::Tensor local_token(torch::Tensor h, torch::Tensor w, int64_t max_len,
                          int64_t eos) {
  auto padded = local_token_padded(h, w, max_len, eos);
  at::Tensor ys =
      std::get<0>(padded).narrow(1, 0, std::get<1>(padded).item<int64_t>());
  return ys;
}

// Read only inside the loop: nothing leaves at the bound's size, so no split.
torch::Tensor read_inside(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::where(active, torch::tanh(torch::matmul(h + ys.sum(), w)), h);
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    active = torch::logical_and(active, torch::logical_not(h.sum() > 3.0f));
  }
  return h;
}

torch::Tensor token_as_fill(torch::Tensor h, torch::Tensor w, int64_t max_len, int64_t eos) {
  auto ys = torch::zeros({1, 1}, torch::kLong);
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    int64_t next = logits.argmax(-1).item<int64_t>(); // EXPECT-NO-FIX: 'next' is also used at line 68 outside a condition, where it must stay a host value
    ys = torch::cat({ys, torch::full({1, 1}, next, ys.options())}, 1);
    h = torch::tanh(h + logits);
    if (next == eos) // EXPECT-NO-FIX: 'next' is also used at line 68 outside a condition
      break;
  }
  return ys;
}

torch::Tensor stacked(torch::Tensor h, torch::Tensor w, int64_t max_len) {
  auto ys = h;
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::stack({ys, h});
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: 'ys' is joined to itself by 'stack' each iteration \(line 80\), which does not concatenate
      break;
  }
  return ys;
}

void by_reference(torch::Tensor h, torch::Tensor w, torch::Tensor &ys, int64_t max_len) {
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: 'ys' grows in the loop \(line 90\) and is a reference parameter
      break;
  }
}

torch::Tensor prepend(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len) {
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({h.argmax(-1, true), ys}, 1);
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: 'ys' grows at its front or more than once per concatenation \(line 99\)
      break;
  }
  return ys;
}

torch::Tensor any_dimension(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len, int64_t d) {
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({ys, h.argmax(-1, true)}, d);
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: 'ys' grows along the dimension 'd' \(line 109\), which is not a constant
      break;
  }
  return ys;
}

torch::Tensor written_too(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len) {
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    ys = ys * 2;
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: updates 'ys', which it grows, other than by concatenating onto it
      break;
  }
  return ys;
}

torch::Tensor nested(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len, bool go) {
  if (go) {
    for (int64_t t = 0; t < max_len; ++t) {
      h = torch::tanh(torch::matmul(h, w));
      ys = torch::cat({ys, h.argmax(-1, true)}, 1);
      if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: the loop that grows 'ys' is nested in another statement
        break;
    }
  }
  return ys;
}

std::vector<int64_t> host_before(torch::Tensor h, torch::Tensor w, int64_t max_len) {
  std::vector<int64_t> lengths;
  lengths.push_back(h.size(0));
  auto ys = h.argmax(-1, true);
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: the statements before the loop do host work
      break;
  }
  lengths.push_back(ys.size(1));
  return lengths;
}

// A step count read after the loop: a 0-d long tensor, and the by-value state it updates returns too.
static std::tuple<at::Tensor, at::Tensor> counts_padded(torch::Tensor h,
                                                        int64_t max_len) {
  int64_t steps = 0;
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  auto steps_on_device =
      torch::full({}, steps, h.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    active = torch::logical_and(active, h.max() > 0.5f);
    h = torch::where(active, h * 0.5, h);
    steps_on_device =
        torch::where(active, steps_on_device + (1), steps_on_device);
  }
  return std::make_tuple(h, steps_on_device);
}

/// graphify: host epilogue of 'counts_padded' (reads back what its loop summed;
/// not a graph region)
torch::Tensor counts(torch::Tensor h, int64_t max_len) {
  auto padded = counts_padded(h, max_len);
  h = std::move(std::get<0>(padded));
  int64_t steps = std::get<1>(padded).item<int64_t>();
  return h + steps;
}

// A host sum of the chosen scores and a step count, read after the loop: both become 0-d tensors
// of their types, updated under the mask, and the epilogue reads them back.
static std::tuple<at::Tensor, at::Tensor> scored_decode_padded(torch::Tensor h,
                                                               torch::Tensor w,
                                                               int64_t max_len,
                                                               int64_t eos) {
  float total = 0.0f;
  int64_t steps = 0;
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  auto total_on_device =
      torch::full({}, total, h.options().dtype(torch::kFloat));
  auto steps_on_device =
      torch::full({}, steps, h.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    auto best = std::get<0>(logits.max(-1));
    total_on_device = torch::where(
        active, total_on_device + best.reshape({}).to(torch::kFloat),
        total_on_device);
    steps_on_device =
        torch::where(active, steps_on_device + (1), steps_on_device);
    h = torch::where(active, torch::tanh(h + logits), h);
    active =
        torch::logical_and(active, torch::logical_not(logits.argmax() == eos));
  }
  return std::make_tuple(total_on_device, steps_on_device);
}

/// graphify: host epilogue of 'scored_decode_padded' (reads back what its loop
/// summed; not a graph region)
float scored_decode(torch::Tensor h, torch::Tensor w, int64_t max_len,
                    int64_t eos) {
  auto padded = scored_decode_padded(h, w, max_len, eos);
  float total = std::get<0>(padded).item<float>();
  int64_t steps = std::get<1>(padded).item<int64_t>();
  return total / static_cast<float>(steps);
}

// The sum and the sequence leave together.
static std::tuple<at::Tensor, at::Tensor, at::Tensor>
scored_ids_padded(torch::Tensor h, torch::Tensor w, int64_t max_len,
                  int64_t eos, double &score) {
  auto ys = h.argmax(-1, true);
  double total = 0;
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  auto total_on_device =
      torch::full({}, total, h.options().dtype(torch::kDouble));
  auto ys_length =
      torch::full({}, ys.size(1), ys.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::where(active, torch::tanh(torch::matmul(h, w)), h);
    auto tok = h.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    ys_length = torch::where(active, ys.size(1), ys_length);
    total_on_device = torch::where(
        active, total_on_device + h.max().to(torch::kDouble), total_on_device);
    active =
        torch::logical_and(active, torch::logical_not(tok.reshape({}) == eos));
  }
  return std::make_tuple(ys, total_on_device, ys_length);
}

/// graphify: host epilogue of 'scored_ids_padded' (slices what its loop grew to
/// the length the loop reached; not a graph region)
torch::Tensor scored_ids(torch::Tensor h, torch::Tensor w, int64_t max_len,
                         int64_t eos, double &score) {
  auto padded = scored_ids_padded(h, w, max_len, eos, score);
  at::Tensor ys =
      std::get<0>(padded).narrow(1, 0, std::get<2>(padded).item<int64_t>());
  double total = std::get<1>(padded).item<double>();
  score = total;
  return ys;
}

float converted_sum(torch::Tensor h, torch::Tensor w, int64_t max_len) {
  double total = 0;
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    total += h.sum().item<float>();
    if (h.sum().item<float>() > 3.0f) // EXPECT-NO-FIX: adds a value read as 'float' to the host variable 'total' of type 'double' \(the host converts before it adds\) \(line 200\)
      break;
  }
  return static_cast<float>(total);
}

float read_in_loop(torch::Tensor h, torch::Tensor w, int64_t max_len) {
  float total = 0;
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    total += h.sum().item<float>();
    if (total > 3.0f) // EXPECT-NO-FIX: the condition depends on 'total', a host value computed on the host from tensor data
      break;
  }
  return total;
}
