// split-at-host-boundary against the real LibTorch headers: post-processing that does device
// work, copies the result to the host and finishes there becomes a capturable core (the device
// work) and the function itself, now a host epilogue that runs the rest on the core's results.
#include <torch/torch.h>

#include <cstring>
#include <string>
#include <vector>

// A copy to the CPU, then a host loop that collects the values.
std::vector<float> best_scores(torch::Tensor logits, double temperature) {
  auto probs = torch::softmax(logits / temperature, 1);
  // the best class probability of each row
  auto best = std::get<0>(probs.max(1));
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

std::vector<Box> Decoder::decode(const torch::Tensor &pred) const {
  auto xy = pred.slice(1, 0, 2).sigmoid() * stride_;
  auto wh = pred.slice(1, 2, 4).exp() * stride_;
  auto corners = torch::cat({xy - wh / 2, xy + wh / 2}, 1).contiguous();
  auto scores = pred.select(1, 4).sigmoid().contiguous();
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
std::vector<float> run_on_image(const std::vector<float> &pixels, torch::Device device) {
  auto input = torch::from_blob(const_cast<float *>(pixels.data()), {1, 3, 4, 4}).to(device);
  auto normalized = (input - 0.5) / 0.25;
  auto pooled = torch::adaptive_avg_pool2d(normalized, {1, 1}).flatten().contiguous();
  auto host = pooled.to(torch::kCPU);
  std::vector<float> result(host.numel());
  std::memcpy(result.data(), host.data_ptr<float>(), result.size() * sizeof(float));
  return result;
}

// The copy is the return itself: the core returns the device tensor.
torch::Tensor heat_map(torch::Tensor features, torch::Tensor weight) {
  auto logits = torch::matmul(features, weight);
  auto heat = torch::sigmoid(logits).clamp_min(0.05);
  return heat.to(torch::kCPU);
}

// Host statements that open the function (clearing the outputs) stay in the wrapper, before the
// core; the outputs are written through reference parameters, as declared.
bool greedy_text(torch::Tensor &output, std::string &text, std::vector<float> &confidences) {
  text = "";
  confidences.clear();
  output = output.softmax(2);
  auto best = torch::max(output, 2);
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
std::vector<float> joined_means(torch::Tensor a, torch::Tensor b) {
  std::vector<torch::Tensor> parts;
  parts.push_back(a.mean(1));
  parts.push_back(b.mean(1));
  auto joined = torch::cat(parts).contiguous();
  auto host = joined.cpu();
  return std::vector<float>(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
}

// The device work is one call that returns a tuple of tensors (topk): it computes, so the core
// holds it.
std::vector<int64_t> top_ids(torch::Tensor scores, int64_t k) {
  auto top = scores.topk(k);
  auto ids = std::get<1>(top).cpu();
  return std::vector<int64_t>(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + ids.numel());
}

// A const method's mutable field (the last scores kept for a later call) is written by the core:
// it is passed by plain reference, the other fields as const references.
struct Scorer {
  mutable torch::Tensor last_scores;
  torch::Tensor weights = torch::ones({4});
  std::vector<float> scores(torch::Tensor x) const {
    auto s = (x * weights).sum(1);
    last_scores = s;
    auto host = s.cpu();
    return std::vector<float>(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
  }
};
