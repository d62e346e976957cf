// split-at-host-boundary on functions whose only host work is copying host data to the device
// first (an image, token ids, features from a host buffer): the copies stay in the function, now
// a host prologue that fills the graph's inputs, and everything after them becomes a capturable
// core that returns what the function returns.
#include <torch/torch.h>

#include <iostream>
#include <vector>

// An image copied from host memory, normalised, pooled and projected on the device.
torch::Tensor embed_image(const std::vector<float> &pixels, torch::Tensor weight, torch::Device device) {
  auto input = torch::from_blob(const_cast<float *>(pixels.data()), {1, 3, 4, 4}).to(device);
  auto normalized = (input - 0.5) / 0.25;
  auto pooled = torch::adaptive_avg_pool2d(normalized, {1, 1}).flatten(1);
  return torch::matmul(pooled, weight);
}

// Token ids from a host vector; the return does device work of its own, which the core keeps.
torch::Tensor token_scores(const std::vector<int64_t> &ids, const torch::Tensor &table) {
  auto tokens = torch::tensor(ids).to(table.device());
  auto rows = table.index_select(0, tokens);
  return torch::log_softmax(rows.sum(0), 0);
}

// A method: the fields reach the core by reference.
struct Encoder {
  torch::Tensor proj_;
  torch::Device device_ = torch::kCUDA;

  torch::Tensor encode(const std::vector<float> &feats, int64_t frames) {
    auto x = torch::from_blob(const_cast<float *>(feats.data()), {frames, 8}).to(device_);
    auto h = torch::relu(torch::matmul(x, proj_));
    return h.mean(0);
  }
};

// No result: the core writes through the reference parameter, as the function did.
void fill_scores(const std::vector<float> &raw, torch::Tensor &out) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(out.device());
  out.copy_(torch::sigmoid(s));
}

// Host values given the device in their options: the factory's copy is the prologue.
torch::Tensor normalized_boxes(const torch::Tensor &boxes, float w, float h) {
  auto size = torch::tensor({w, h, w, h}, boxes.options());
  auto scaled = boxes / size;
  return scaled.clamp(0, 1);
}

// A copy of values a factory on the device makes alike is host-factory-to-device's: it stays in
// the graph, built on the device.
torch::Tensor shifted(const torch::Tensor &x) {
  auto steps = torch::arange(4).to(x.device());
  auto y = x + steps;
  return y.relu();
}

// The copy is the return itself: nothing is left for a core.
torch::Tensor upload(const std::vector<float> &raw, torch::Device device) {
  return torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device); // EXPECT-RECIPE: ^the tensor is built in pageable host memory and copied to the device
}

// A print that opens the work stays in the wrapper, before the core, where it ran.
torch::Tensor announced(const std::vector<float> &raw, torch::Device device) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device);
  std::cout << "scoring" << std::endl;
  return s.sigmoid();
}

// A print among the device work would run once, at capture, not on every replay.
torch::Tensor logged(const std::vector<float> &raw, torch::Device device) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device); // EXPECT-RECIPE: \(not split automatically: the device work after the copies is mixed with host work
  auto t = s.sigmoid();
  std::cout << "scores ready" << std::endl;
  return t * 2;
}

// An early return among the device work is the core's own: it returns for the function.
torch::Tensor early(const std::vector<float> &raw, torch::Device device, bool skip) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device);
  if (skip)
    return s;
  return s.sigmoid();
}

// A lambda capturing 'this' among the device work: the core outside the class cannot hold it.
struct Scorer {
  float scale_ = 2.0f;
  torch::Tensor score(const std::vector<float> &raw, torch::Device device) {
    auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device); // EXPECT-RECIPE: \(not split automatically: the statements after the copies to the device hold a lambda that captures 'this' \(line 91\)
    auto scaled = [this](const torch::Tensor &t) { return t * scale_; };
    return scaled(s).sigmoid();
  }
};

// Structured bindings before the copy, read after it: the core takes the tuple's elements by
// reference, as locals; a struct's field bound by name is no variable of its own.
torch::Tensor peaks(const torch::Tensor &heat, const std::vector<float> &offset) {
  auto [vals, idx] = heat.max(-1);
  auto shift = torch::from_blob(const_cast<float *>(offset.data()), {2}).to(heat.device());
  auto scaled = vals * 2 + shift.sum();
  return scaled + idx.to(torch::kFloat);
}

struct Pair {
  torch::Tensor lo, hi;
};

torch::Tensor spread(const Pair &p, const std::vector<float> &offset) {
  auto [lo, hi] = p;
  auto shift = torch::from_blob(const_cast<float *>(offset.data()), {2}).to(hi.device()); // EXPECT-RECIPE: \(not split automatically: the statements after the copies to the device use the structured binding 'hi' \(line 112\)
  auto width = hi - lo + shift.sum();
  return width.relu();
}

// The copy comes after most of the device work, which would stay outside the graph.
torch::Tensor late_copy(const torch::Tensor &x, const std::vector<float> &scale) {
  auto y = x.relu();
  auto z = y * 2 + 1;
  auto w = z.softmax(-1);
  auto s = torch::from_blob(const_cast<float *>(scale.data()), {4}).to(x.device()); // EXPECT-RECIPE: \(not split automatically: the last copy of host data to the device \(line 121\) comes after most of the device work \(3 statements from line 118\)
  return w * s;
}
