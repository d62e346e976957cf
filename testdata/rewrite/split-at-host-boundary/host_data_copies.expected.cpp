// split-at-host-boundary on functions whose only host work is copying host data to the device
// first (an image, token ids, features from a host buffer): the copies stay in the function, now
// a host prologue that fills the graph's inputs, and everything after them becomes a capturable
// core that returns what the function returns.
#include <torch/torch.h>

#include <iostream>
#include <vector>

// An image copied from host memory, normalised, pooled and projected on the device.
static at::Tensor embed_image_graph(const std::vector<float> &pixels,
                                    torch::Tensor weight, torch::Device device,
                                    at::Tensor &input) {
  auto normalized = (input - 0.5) / 0.25;
  auto pooled = torch::adaptive_avg_pool2d(normalized, {1, 1}).flatten(1);
  return torch::matmul(pooled, weight);
}

/// graphify: host prologue of 'embed_image_graph' (copies host data to the
/// device, then runs the core, the function's work from line 13; not a graph
/// region)
torch::Tensor embed_image(const std::vector<float> &pixels,
                          torch::Tensor weight, torch::Device device) {
  auto input =
      torch::from_blob(const_cast<float *>(pixels.data()), {1, 3, 4, 4})
          .to(device);
  return embed_image_graph(pixels, weight, device, input);
}

// Token ids from a host vector; the return does device work of its own, which the core keeps.
static at::Tensor token_scores_graph(const std::vector<int64_t> &ids,
                                     const torch::Tensor &table,
                                     at::Tensor &tokens) {
  auto rows = table.index_select(0, tokens);
  return torch::log_softmax(rows.sum(0), 0);
}

/// graphify: host prologue of 'token_scores_graph' (copies host data to the
/// device, then runs the core, the function's work from line 21; not a graph
/// region)
torch::Tensor token_scores(const std::vector<int64_t> &ids,
                           const torch::Tensor &table) {
  auto tokens = torch::tensor(ids).to(table.device());
  return token_scores_graph(ids, table, tokens);
}

// A method: the fields reach the core by reference.
struct Encoder {
  torch::Tensor proj_;
  torch::Device device_ = torch::kCUDA;

  static at::Tensor encode_graph(const std::vector<float> &feats,
                                 int64_t frames, at::Tensor &x,
                                 at::Tensor &proj_) {
    auto h = torch::relu(torch::matmul(x, proj_));
    return h.mean(0);
  }

  /// graphify: host prologue of 'encode_graph' (copies host data to the device,
  /// then runs the core, the function's work from line 32; not a graph region)
  torch::Tensor encode(const std::vector<float> &feats, int64_t frames) {
    auto x = torch::from_blob(const_cast<float *>(feats.data()), {frames, 8})
                 .to(device_);
    return encode_graph(feats, frames, x, this->proj_);
  }
};

// No result: the core writes through the reference parameter, as the function did.
static void fill_scores_graph(const std::vector<float> &raw, torch::Tensor &out,
                              at::Tensor &s) {
  out.copy_(torch::sigmoid(s));
}

/// graphify: host prologue of 'fill_scores_graph' (copies host data to the
/// device, then runs the core, the function's work from line 40; not a graph
/// region)
void fill_scores(const std::vector<float> &raw, torch::Tensor &out) {
  auto s =
      torch::from_blob(const_cast<float *>(raw.data()), {4}).to(out.device());
  fill_scores_graph(raw, out, s);
}

// Host values given the device in their options: the factory's copy is the prologue.
static at::Tensor normalized_boxes_graph(const torch::Tensor &boxes, float w,
                                         float h, at::Tensor &size) {
  auto scaled = boxes / size;
  return scaled.clamp(0, 1);
}

/// graphify: host prologue of 'normalized_boxes_graph' (copies host data to the
/// device, then runs the core, the function's work from line 46; not a graph
/// region)
torch::Tensor normalized_boxes(const torch::Tensor &boxes, float w, float h) {
  auto size = torch::tensor({w, h, w, h}, boxes.options());
  return normalized_boxes_graph(boxes, w, h, size);
}

// A copy of values a factory on the device makes alike is host-factory-to-device's: it stays in
// the graph, built on the device.
torch::Tensor shifted(const torch::Tensor &x) {
  auto steps = torch::arange(4, torch::device(x.device())).to(x.device());
  auto y = x + steps;
  return y.relu();
}

// The copy is the return itself: nothing is left for a core.
torch::Tensor upload(const std::vector<float> &raw, torch::Device device) {
  return torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device); // EXPECT-RECIPE: ^the tensor is built in pageable host memory and copied to the device
}

// A print that opens the work stays in the wrapper, before the core, where it ran.
static at::Tensor announced_graph(const std::vector<float> &raw,
                                  torch::Device device, at::Tensor &s) {
  return s.sigmoid();
}

/// graphify: host prologue of 'announced_graph' (copies host data to the
/// device, then runs the core, the function's work from line 67; not a graph
/// region)
torch::Tensor announced(const std::vector<float> &raw, torch::Device device) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device);
  std::cout << "scoring" << std::endl;
  return announced_graph(raw, device, s);
}

// A print among the device work would run once, at capture, not on every replay.
torch::Tensor logged(const std::vector<float> &raw, torch::Device device) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device); // EXPECT-RECIPE: \(not split automatically: the device work after the copies is mixed with host work
  auto t = s.sigmoid();
  std::cout << "scores ready" << std::endl;
  return t * 2;
}

// An early return among the device work is the core's own: it returns for the function.
static at::Tensor early_graph(const std::vector<float> &raw,
                              torch::Device device, bool skip, at::Tensor &s) {
  if (skip)
    return s;
  return s.sigmoid();
}

/// graphify: host prologue of 'early_graph' (copies host data to the device,
/// then runs the core, the function's work from line 81; not a graph region)
torch::Tensor early(const std::vector<float> &raw, torch::Device device,
                    bool skip) {
  auto s = torch::from_blob(const_cast<float *>(raw.data()), {4}).to(device);
  return early_graph(raw, device, skip, s);
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
static at::Tensor peaks_graph(const torch::Tensor &heat,
                              const std::vector<float> &offset,
                              at::Tensor &vals, at::Tensor &shift,
                              at::Tensor &idx) {
  auto scaled = vals * 2 + shift.sum();
  return scaled + idx.to(torch::kFloat);
}

/// graphify: host prologue of 'peaks_graph' (copies host data to the device,
/// then runs the core, the function's work from line 101; not a graph region)
torch::Tensor peaks(const torch::Tensor &heat,
                    const std::vector<float> &offset) {
  auto [vals, idx] = heat.max(-1);
  auto shift = torch::from_blob(const_cast<float *>(offset.data()), {2})
                   .to(heat.device());
  return peaks_graph(heat, offset, vals, shift, idx);
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
