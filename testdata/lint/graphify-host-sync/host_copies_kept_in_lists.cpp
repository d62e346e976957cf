// Host copies that reach the region's reads through a helper's returned list and through a map
// kept in a field, as YOLO post-processing and AlphaZero searches write them: a suppression
// helper that moves each image's predictions to the host and returns the kept rows as a list, and
// a search that caches the network's priors on the host, per state, and reads them back with
// data_ptr() when it scores a move. The copies are the findings; the reads of what they copied
// are host work on host memory, no further sync. A helper whose list keeps the rows on the device
// hands back tensors whose reads still sync.
// RUN-ARGS: --graph-region=draw_detections --graph-region=Search::score
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

std::vector<torch::Tensor> suppress_per_image(const torch::Tensor &preds, float threshold) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    torch::Tensor pred = preds.select(0, i);
    pred = pred.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto keep = torch::empty({pred.size(0)});
    output.push_back(torch::index_select(pred, 0, keep.to(torch::kLong)));
  }
  return output;
}

// The same rows kept on the device: reading them is a sync.
std::vector<torch::Tensor> split_per_image(const torch::Tensor &preds) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i)
    output.push_back(preds.select(0, i));
  return output;
}

float draw_detections(const torch::Tensor &preds) {
  std::vector<torch::Tensor> dets = suppress_per_image(preds, 0.25f);
  float left = dets[0][0][0].item().toFloat();
  float score = dets[0][0][4].item().toFloat();
  std::vector<torch::Tensor> rows = split_per_image(preds);
  float first = rows[0][0][4].item().toFloat();
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return left * score + first;
}

class Search {
public:
  float score(const std::string &state, int action, const torch::Tensor &priors);

private:
  void expand(const std::string &state, const torch::Tensor &priors);
  std::map<std::string, torch::Tensor> probabilities_;
};

void Search::expand(const std::string &state, const torch::Tensor &priors) {
  torch::Tensor host = priors.detach().to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  probabilities_[state] = host;
}

float Search::score(const std::string &state, int action, const torch::Tensor &priors) {
  expand(state, priors);
  return *(probabilities_[state][action].data_ptr<float>());
}
