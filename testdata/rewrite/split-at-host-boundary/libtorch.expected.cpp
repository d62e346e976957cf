// split-at-host-boundary against the real LibTorch headers: post-processing that does device
// work, copies the result to the host and finishes there becomes a capturable core (the device
// work) and the function itself, now a host epilogue that runs the rest on the core's results.
#include <torch/torch.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

// A copy to the CPU, then a host loop that collects the values.
static at::Tensor best_scores_graph(torch::Tensor logits, double temperature) {
  auto probs = torch::softmax(logits / temperature, 1);
  // the best class probability of each row
  auto best = std::get<0>(probs.max(1));
  return best;
}

/// graphify: host epilogue of 'best_scores_graph' (runs the host part, from
/// line 15, on the core's results; not a graph region)
std::vector<float> best_scores(torch::Tensor logits, double temperature) {
  at::Tensor best = best_scores_graph(logits, temperature);
  auto host = best.to(torch::kCPU);
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// A method: the fields it reads reach the core as references; several values cross the split.
struct Box {
  float x1, y1, x2, y2, score;
};

class Decoder {
public:
  std::vector<Box> decode(const torch::Tensor &pred) const;

private:
  float stride_ = 8.0f;
  float threshold_ = 0.25f;
};

static std::tuple<at::Tensor, at::Tensor>
decode_graph(const torch::Tensor &pred, const float &stride_) {
  auto xy = pred.slice(1, 0, 2).sigmoid() * stride_;
  auto wh = pred.slice(1, 2, 4).exp() * stride_;
  auto corners = torch::cat({xy - wh / 2, xy + wh / 2}, 1).contiguous();
  auto scores = pred.select(1, 4).sigmoid().contiguous();
  return std::make_tuple(corners, scores);
}

/// graphify: host epilogue of 'decode_graph' (runs the host part, from line 41,
/// on the core's results; not a graph region)
std::vector<Box> Decoder::decode(const torch::Tensor &pred) const {
  auto graph = decode_graph(pred, this->stride_);
  at::Tensor corners = std::move(std::get<0>(graph));
  at::Tensor scores = std::move(std::get<1>(graph));
  auto c = corners.cpu();
  auto s = scores.cpu();
  auto box = c.accessor<float, 2>();
  auto score = s.accessor<float, 1>();
  std::vector<Box> boxes;
  for (int64_t i = 0; i < c.size(0); ++i)
    if (score[i] > threshold_)
      boxes.push_back({box[i][0], box[i][1], box[i][2], box[i][3], score[i]});
  return boxes;
}

// A copy of host memory to the device at the start stays in the wrapper (the copy into the
// graph's input); the read-back into a host buffer starts the host part.
static at::Tensor run_on_image_graph(const std::vector<float> &pixels,
                                     torch::Device device, at::Tensor &input) {
  auto normalized = (input - 0.5) / 0.25;
  auto pooled =
      torch::adaptive_avg_pool2d(normalized, {1, 1}).flatten().contiguous();
  return pooled;
}

/// graphify: host epilogue of 'run_on_image_graph' (runs the host part, from
/// line 58, on the core's results; not a graph region)
std::vector<float> run_on_image(const std::vector<float> &pixels,
                                torch::Device device) {
  auto input =
      torch::from_blob(const_cast<float *>(pixels.data()), {1, 3, 4, 4})
          .to(device);
  at::Tensor pooled = run_on_image_graph(pixels, device, input);
  auto host = pooled.to(torch::kCPU);
  std::vector<float> result(host.numel());
  std::memcpy(result.data(), host.data_ptr<float>(),
              result.size() * sizeof(float));
  return result;
}

// The copy is the return itself: the core returns the device tensor.
static at::Tensor heat_map_graph(torch::Tensor features, torch::Tensor weight) {
  auto logits = torch::matmul(features, weight);
  auto heat = torch::sigmoid(logits).clamp_min(0.05);
  return heat;
}

/// graphify: host epilogue of 'heat_map_graph' (runs the host part, from line
/// 68, on the core's results; not a graph region)
torch::Tensor heat_map(torch::Tensor features, torch::Tensor weight) {
  at::Tensor heat = heat_map_graph(features, weight);
  return heat.to(torch::kCPU);
}

// Host statements that open the function (clearing the outputs) stay in the wrapper, before the
// core; the outputs are written through reference parameters, as declared.
static std::tuple<at::Tensor, at::Tensor>
greedy_text_graph(torch::Tensor &output, std::string &text,
                  std::vector<float> &confidences) {
  output = output.softmax(2);
  auto best = torch::max(output, 2);
  return best;
}

/// graphify: host epilogue of 'greedy_text_graph' (runs the host part, from
/// line 78, on the core's results; not a graph region)
bool greedy_text(torch::Tensor &output, std::string &text,
                 std::vector<float> &confidences) {
  text = "";
  confidences.clear();
  std::tuple<at::Tensor, at::Tensor> best =
      greedy_text_graph(output, text, confidences);
  auto scores = std::get<0>(best).squeeze().cpu();
  auto ids = std::get<1>(best).squeeze().cpu();
  auto s = scores.accessor<float, 1>();
  auto id = ids.accessor<int64_t, 1>();
  for (int64_t i = 0; i < id.size(0); ++i)
    if (id[i] != 0 && (i == 0 || id[i - 1] != id[i])) {
      text += static_cast<char>('a' + id[i] % 26);
      confidences.push_back(s[i]);
    }
  return !text.empty();
}

// Tensors gathered into a list for the device work (a module's inputs, parts to concatenate) stay
// on the device: the list is no host work, and the core builds it.
static at::Tensor joined_means_graph(torch::Tensor a, torch::Tensor b) {
  std::vector<torch::Tensor> parts;
  parts.push_back(a.mean(1));
  parts.push_back(b.mean(1));
  auto joined = torch::cat(parts).contiguous();
  return joined;
}

/// graphify: host epilogue of 'joined_means_graph' (runs the host part, from
/// line 97, on the core's results; not a graph region)
std::vector<float> joined_means(torch::Tensor a, torch::Tensor b) {
  at::Tensor joined = joined_means_graph(a, b);
  auto host = joined.cpu();
  return std::vector<float>(host.data_ptr<float>(),
                            host.data_ptr<float>() + host.numel());
}

// The device work is one call that returns a tuple of tensors (topk): it computes, so the core
// holds it.
static std::tuple<at::Tensor, at::Tensor> top_ids_graph(torch::Tensor scores,
                                                        int64_t k) {
  auto top = scores.topk(k);
  return top;
}

/// graphify: host epilogue of 'top_ids_graph' (runs the host part, from line
/// 105, on the core's results; not a graph region)
std::vector<int64_t> top_ids(torch::Tensor scores, int64_t k) {
  std::tuple<at::Tensor, at::Tensor> top = top_ids_graph(scores, k);
  auto ids = std::get<1>(top).cpu();
  return std::vector<int64_t>(ids.data_ptr<int64_t>(),
                              ids.data_ptr<int64_t>() + ids.numel());
}

// A const method's mutable field (the last scores kept for a later call) is written by the core:
// it is passed by plain reference, the other fields as const references.
struct Scorer {
  mutable torch::Tensor last_scores;
  torch::Tensor weights = torch::ones({4});
  static at::Tensor scores_graph(torch::Tensor x, const at::Tensor &weights,
                                 at::Tensor &last_scores) {
    auto s = (x * weights).sum(1);
    last_scores = s;
    return s;
  }

  /// graphify: host epilogue of 'scores_graph' (runs the host part, from line
  /// 117, on the core's results; not a graph region)
  std::vector<float> scores(torch::Tensor x) const {
    at::Tensor s = scores_graph(x, this->weights, this->last_scores);
    auto host = s.cpu();
    return std::vector<float>(host.data_ptr<float>(),
                              host.data_ptr<float>() + host.numel());
  }
};
