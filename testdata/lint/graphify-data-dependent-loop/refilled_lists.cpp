// Host lists emptied and refilled: a list that a loop clears and fills again to a static count
// has that count after every step, however many steps ran; a list emptied only when a value
// read from a tensor says so does not. Lists of indices sorted on the host by values read from
// tensors hold positions that follow the data, and a tensor picked from a host list by one is
// a choice the graph cannot make.
#include <torch/torch.h>

#include <algorithm>
#include <numeric>
#include <vector>

struct BeamDecoder : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits, int64_t beams, int64_t steps) {
    std::vector<torch::Tensor> seqs = {logits.argmax(-1)};
    std::vector<float> scores = {0.0f};
    for (int64_t t = 0; t < steps; ++t) {
      std::vector<torch::Tensor> candidates;
      std::vector<float> candidate_scores;
      for (size_t j = 0; j < seqs.size(); ++j) {
        auto [values, indices] = (logits + static_cast<double>(t)).topk(beams);
        for (int64_t k = 0; k < beams; ++k) {
          candidates.push_back(torch::cat({seqs[j], indices.select(0, k).unsqueeze(0)}));
          candidate_scores.push_back(scores[j] + values.select(0, k).item().toFloat());
          // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        }
      }
      std::vector<size_t> order(candidate_scores.size());
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + beams, order.end(),
                        [&candidate_scores](size_t a, size_t b) { return candidate_scores[a] > candidate_scores[b]; });
      seqs.clear();
      scores.clear();
      for (int64_t k = 0; k < beams; ++k) {
        seqs.push_back(candidates[order[k]]);
        // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: position of the tensor taken from the host list 'candidates' depends on a tensor value read on the host; keep the tensors in one tensor (stack them) and index it on the device with a long tensor [graphify-data-dependent-position]
        // CHECK-NOTES: :[[@LINE-7]]:7: note: written by 'partial_sort' here
        scores.push_back(candidate_scores[order[k]]);
      }
      if (seqs[0][-1].item<int64_t>() == 2)
      // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        break;
    }
    return seqs[0];
  }
};

struct Filters : torch::nn::Module {
  // Emptied only when a value read from the tensor says so: the length follows the data.
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> parts = {x, x * 2};
    if (x.sum().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      parts.clear();
    parts.push_back(x + 1);
    for (size_t i = 0; i < parts.size(); ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-4]]:13: note: 'parts' emptied here
      x = x + parts[i];
    return x;
  }
};

struct Refill : torch::nn::Module {
  // Emptied every step, then filled under a condition read from the tensor: the length follows
  // the data again.
  torch::Tensor forward(torch::Tensor x) {
    std::vector<int64_t> kept;
    for (int64_t t = 0; t < 4; ++t) {
      kept.clear();
      for (int64_t i = 0; i < 8; ++i)
        if (x[i].item<float>() > static_cast<float>(t))
        // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        // CHECK-MESSAGES: :[[@LINE-2]]:13: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
          kept.push_back(i);
      for (size_t i = 0; i < kept.size(); ++i)
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
        x = x + 1;
    }
    return x;
  }
};

struct Counted : torch::nn::Module {
  // Iterators into a list do not change its length; an algorithm given a predicate that reads
  // tensor values computes from them.
  torch::Tensor forward(torch::Tensor x) {
    std::vector<float> thresholds = {0.1f, 0.5f, 0.9f};
    float best = x.max().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    for (int64_t t = 0; t < 3; ++t) {
      if (x[t].item<float>() < 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        continue;
      std::sort(thresholds.begin(), thresholds.end());
    }
    for (size_t i = 0; i < thresholds.size(); ++i)
      x = x + thresholds[i];
    std::vector<float> scales = {1.0f, 1.0f, 1.0f};
    std::fill_n(scales.begin() + 1, 2, best);
    if (scales[2] > 1.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      x = x * 2;
    auto above = std::count_if(thresholds.begin(), thresholds.end(), [best](float t) { return t < best; });
    for (int64_t i = 0; i < above; ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      x = x * 2;
    return x;
  }
};
