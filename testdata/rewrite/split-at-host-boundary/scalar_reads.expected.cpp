// split-at-host-boundary: a host part that starts with a scalar read is split off when what it
// makes of the reads stays host data (a returned struct or number, the object's fields), so no
// device form of the read keeps the function capturable. Host declarations among the device work
// (`Top1 r;`) stay in the epilogue. A read whose value stays tensor math keeps its own rewrite.
#include "mock_torch.h"

#include <cstdint>
#include <tuple>

// A tracker's update: the state it keeps is host data written from the reads.
class BoxTracker {
public:
  void update(const torch::Tensor &scores, const torch::Tensor &boxes);

private:
  float cx_ = 0.0f, cy_ = 0.0f, lr_ = 0.3f;
};

static at::Tensor update_graph(const torch::Tensor &scores,
                               const torch::Tensor &boxes, float &lr_) {
  auto weighted = scores.exp() * (1 - lr_) + lr_;
  auto box = boxes.index_select(0, weighted.argmax(0));
  return box;
}

/// graphify: host epilogue of 'update_graph' (runs the host part, from line 22,
/// on the core's results; not a graph region)
void BoxTracker::update(const torch::Tensor &scores,
                        const torch::Tensor &boxes) {
  at::Tensor box = update_graph(scores, boxes, this->lr_);
  float x = box[0].item<float>();
  cx_ = cx_ * (1 - lr_) + x * lr_;
  cy_ = box[1].item().toFloat();
}

// A host struct made of reads is the result.
struct Top1 {
  int64_t label;
  float score;
};

static std::tuple<at::Tensor, at::Tensor> classify_graph(torch::Tensor logits) {
  auto probs = logits.exp() / logits.exp().sum();
  auto best = probs.argmax(0);
  return std::make_tuple(probs, best);
}

/// graphify: host epilogue of 'classify_graph' (runs the host part, from line
/// 37, on the core's results; not a graph region)
Top1 classify(torch::Tensor logits) {
  Top1 r;
  auto graph = classify_graph(logits);
  at::Tensor probs = std::move(std::get<0>(graph));
  at::Tensor best = std::move(std::get<1>(graph));
  r.label = best.item<int64_t>();
  r.score = probs.max().item().toFloat();
  return r;
}

// The read stays tensor math: scalar-read-to-device keeps it on the device, no split.
torch::Tensor normalise(torch::Tensor x) {
  auto y = x.abs() + 1;
  return y / y.max().to(torch::kFloat);
}

// The read decides a branch whose arms compute tensors: a where() keeps it, no split.
torch::Tensor gate(torch::Tensor x, torch::Tensor y) {
  auto s = x.relu().sum();
  y = torch::where(s > 0.5f, y * 2, y);
  return y;
}

// A second split in the file that needs <tuple>: the include is added once.
static std::tuple<at::Tensor, at::Tensor>
classify_scaled_graph(torch::Tensor logits, float t) {
  auto z = logits / t;
  auto probs = z.exp() / z.exp().sum();
  auto best = probs.argmax(0);
  return std::make_tuple(probs, best);
}

/// graphify: host epilogue of 'classify_scaled_graph' (runs the host part, from
/// line 61, on the core's results; not a graph region)
Top1 classify_scaled(torch::Tensor logits, float t) {
  auto graph = classify_scaled_graph(logits, t);
  at::Tensor probs = std::move(std::get<0>(graph));
  at::Tensor best = std::move(std::get<1>(graph));
  return {best.item<int64_t>(), probs.max().item<float>()};
}

// A tuple of tensors is device data, not a host result: the read keeps its own rewrite
// (scalar-read-to-device), no split.
std::tuple<torch::Tensor, torch::Tensor> scaled_pair(torch::Tensor x, torch::Tensor y) {
  auto m = x.abs().max() + 1;
  auto s = m.to(torch::kFloat);
  return std::make_tuple(x / s, y / s);
}

// Reads stored through reference parameters are host data the caller keeps: split. The
// parameter `at` hides LibTorch's namespace in the function: the split names it from the top.
static ::at::Tensor peak_of_graph(const torch::Tensor &scores, float &peak,
                                  int64_t &at) {
  auto s = scores.exp() / scores.exp().sum();
  return s;
}

/// graphify: host epilogue of 'peak_of_graph' (runs the host part, from line
/// 76, on the core's results; not a graph region)
void peak_of(const torch::Tensor &scores, float &peak, int64_t &at) {
  ::at::Tensor s = peak_of_graph(scores, peak, at);
  peak = s.max().item<float>();
  at = s.argmax(0).item<int64_t>();
}

// The class declared in one block of its namespace and the method defined in the namespace
// opened again (a header and its .cpp): the core stands beside the method, in that namespace.
namespace track {
class Scorer {
public:
  Top1 best(torch::Tensor logits);
};
} // namespace track

namespace track {
static at::Tensor best_graph(torch::Tensor logits) {
  auto probs = logits.exp() / logits.exp().sum();
  return probs;
}

/// graphify: host epilogue of 'best_graph' (runs the host part, from line 93,
/// on the core's results; not a graph region)
Top1 Scorer::best(torch::Tensor logits) {
  Top1 r;
  at::Tensor probs = best_graph(logits);
  r.label = probs.argmax(0).item<int64_t>();
  r.score = probs.max().item<float>();
  return r;
}
} // namespace track
