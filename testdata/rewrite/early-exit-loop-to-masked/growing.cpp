// early-exit-loop-to-masked: decode loops that concatenate onto a tensor of the code around them,
// sum into host numbers, and stop on a token. The fixed-trip loop keeps the concatenation (each
// step's size is the step's own) and tracks the length the original would have reached; a sum
// becomes a 0-d tensor of its type. Where either leaves the loop, the function is split: a core
// returns them at the bound's size with the lengths, the host epilogue narrows the tensors and
// reads the sums back.
#include <torch/torch.h>

#include <vector>

// The classic greedy decode: the start token, one token per step, stop after the end token.
torch::Tensor greedy_ids(torch::Tensor memory, int64_t max_len, int64_t eos) {
  torch::Tensor ys = torch::zeros({1, 1}, memory.options().dtype(torch::kLong));
  for (int64_t i = 0; i < max_len; ++i) {
    torch::Tensor next = memory.index({i}).argmax().view({1, 1});
    ys = torch::cat({ys, next}, 0);
    if (next.item<int64_t>() == eos)
      break;
  }
  return ys;
}

// The buffer is a by-value parameter grown along the last dimension, the exit tested before the
// growth (the end token is not kept), and the code after the loop works on it in the epilogue.
torch::Tensor decode_ids(torch::Tensor h, torch::Tensor w, torch::Tensor ids, int64_t max_len, int64_t eos) {
  auto step = torch::matmul(h, w);
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w) + step;
    auto next = logits.argmax(-1).unsqueeze(1);
    if ((next == eos).all().item<bool>())
      break;
    ids = torch::cat({ids, next}, -1);
    h = torch::tanh(h + logits * 0.5);
  }
  return ids.squeeze(0) + step.size(0);
}

// A token read into a host local that only the exit tests: the local becomes the 0-d tensor.
torch::Tensor local_token(torch::Tensor h, torch::Tensor w, int64_t max_len, int64_t eos) {
  auto ys = h.argmax(-1, true);
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    auto tok = h.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    int64_t id = tok.item<int64_t>();
    if (id == eos)
      break;
  }
  return ys;
}

// Read only inside the loop: nothing leaves at the bound's size, so no split.
torch::Tensor read_inside(torch::Tensor h, torch::Tensor w, torch::Tensor ys, int64_t max_len) {
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h + ys.sum(), w));
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    if (h.sum().item<float>() > 3.0f)
      break;
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
torch::Tensor counts(torch::Tensor h, int64_t max_len) {
  int64_t steps = 0;
  for (int64_t t = 0; t < max_len && h.max().item<float>() > 0.5f; ++t) {
    h = h * 0.5;
    steps = steps + 1;
  }
  return h + steps;
}

// A host sum of the chosen scores and a step count, read after the loop: both become 0-d tensors
// of their types, updated under the mask, and the epilogue reads them back.
float scored_decode(torch::Tensor h, torch::Tensor w, int64_t max_len, int64_t eos) {
  float total = 0.0f;
  int64_t steps = 0;
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    auto best = std::get<0>(logits.max(-1));
    total += best.item<float>();
    steps = steps + 1;
    h = torch::tanh(h + logits);
    if (logits.argmax().item<int64_t>() == eos)
      break;
  }
  return total / static_cast<float>(steps);
}

// The sum and the sequence leave together.
torch::Tensor scored_ids(torch::Tensor h, torch::Tensor w, int64_t max_len, int64_t eos, double &score) {
  auto ys = h.argmax(-1, true);
  double total = 0;
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(torch::matmul(h, w));
    auto tok = h.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    total += h.max().item<double>();
    if (tok.item<int64_t>() == eos)
      break;
  }
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
