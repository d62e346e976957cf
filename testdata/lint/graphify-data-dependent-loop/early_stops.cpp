// Loops that stop early on a value read from a tensor (an end token, a score below a threshold).
// Up to the stop every iteration runs, so what iteration t computes is the same whenever the loop
// gets there: a cache replaced each step, or its length tested, is not data dependent inside the
// loop. The number of iterations follows the data, so what the loop counts, appends or leaves
// behind is data dependent after it. A `continue` is different: the rest of that iteration runs
// for some values only.
#include <torch/torch.h>

#include <vector>

struct LayerCache {
  torch::Tensor keys;
};

// Reads only the static sizes of what it is given; the caller's stop is not its business.
std::vector<LayerCache> decode_step(const torch::Tensor &tok, const std::vector<LayerCache> &past) {
  int64_t past_len = 0;
  if (!past.empty())
    past_len = past[0].keys.size(1);
  torch::Tensor step_keys = torch::zeros({1, past_len + 1}, tok.options());
  std::vector<LayerCache> next;
  next.push_back(LayerCache{step_keys});
  return next;
}

struct GreedyDecoder : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits, int64_t eos, int64_t max_len) {
    std::vector<LayerCache> cache = decode_step(logits[0], {});
    for (int64_t t = 0; t < max_len; ++t) {
      if (logits[t].argmax().item<int64_t>() == eos)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        break;
      // The cache's length at step t is the same whenever the loop gets to t: not reported.
      if (cache[0].keys.size(1) >= 64)
        break;
      cache = decode_step(logits[t], cache);
    }
    return cache[0].keys;
  }
};

struct CountedSteps : torch::nn::Module {
  torch::Tensor forward(torch::Tensor scores, double threshold) {
    int64_t produced = 0;
    std::vector<int64_t> kept;
    for (int64_t t = 0; t < scores.size(0); ++t) {
      if (scores[t].item<double>() < threshold)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        break;
      ++produced;
      kept.push_back(t);
    }
    torch::Tensor out = torch::zeros({scores.size(0)});
    for (int64_t j = 0; j < produced; ++j)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-11]]:5: note: 'produced' is written in the loop at line 47, whose trip count follows tensor data
      out[j] = 1;
    for (size_t j = 0; j < kept.size(); ++j)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-15]]:5: note: 'kept' is written in the loop at line 47, whose trip count follows tensor data
      out[kept[j]] = 2;
    return out;
  }
};

struct SkippedSteps : torch::nn::Module {
  torch::Tensor forward(torch::Tensor scores, double threshold) {
    int64_t kept = 0;
    torch::Tensor out = torch::zeros({scores.size(0)});
    for (int64_t t = 0; t < scores.size(0); ++t) {
      if (scores[t].item<double>() < threshold)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        continue;
      if (kept < 4)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE+2]]:9: note: advanced here when a condition that follows tensor data holds
        out[t] = 1;
      ++kept;
    }
    return out;
  }
};


// A tensor the loop grows onto itself has as many columns as iterations ran: data dependent
// after a loop that stops on the data, static along the dimensions it does not grow.
struct TokenBuffer : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits, torch::Tensor rows, int64_t eos) {
    torch::Tensor ys = logits.argmax(-1).view({1, 1});
    for (int64_t t = 0; t < logits.size(0); ++t) {
      torch::Tensor tok = logits[t].argmax().view({1, 1});
      ys = torch::cat({ys, tok}, 1);
      rows = torch::cat({rows, tok});
      if (tok.item<int64_t>() == eos)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
        break;
    }
    torch::Tensor out = torch::zeros({logits.size(0) + 1});
    for (int64_t j = 0; j < ys.size(1); ++j)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-12]]:5: note: 'ys' grows in the loop at line 93, whose trip count follows tensor data
      out[j] = ys[0][j];
    // `rows` grows along dimension 0: its second dimension stays what it was.
    for (int64_t j = 0; j < rows.size(1); ++j)
      out[j] = out[j] + 1;
    return out;
  }
};
