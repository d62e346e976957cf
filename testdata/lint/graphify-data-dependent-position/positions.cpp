// RUN-ARGS: --checks=-*,graphify-data-dependent-position
// Element positions read from tensors on the host: x[i], select, index({i}), index_put_({i}, v).
#include <torch/torch.h>

#include <algorithm>
#include <utility>
#include <vector>

struct Positions : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor idx, torch::Tensor table) {
    int64_t i = idx.argmax().item<int64_t>();
    auto row = x[i];
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: position argument of 'operator[]' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    auto col = x.select(1, i);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: position argument of 'select' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    auto picked = table.index({0, i});
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: position argument of 'index' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    table.index_put_({i}, x.sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: position argument of 'index_put_' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    int64_t j = idx[0].item<int64_t>();
    table[0][j] = 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: position argument of 'operator[]' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    // Positions from constants, metadata or device tensors are fine.
    auto last = x[x.size(0) - 1];
    auto dev = table.index({idx.argmax()});
    auto first = x.select(0, 0);
    return row + col + picked + last + dev + first;
  }
};

// narrow()'s start is a position (the result has `length` elements wherever it starts); its
// length is a size.
struct NarrowStart : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pred, torch::Tensor score) {
    int64_t best = torch::argmax(score).item<int64_t>();
    auto window = pred.narrow(1, best, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: position argument of 'narrow' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    return window * 2;
  }
};

// A logger whose variadic members take forwarding references (spdlog's `Args &&...`): they pass
// what they are given on, so the loop counter handed to one is read, not written with the value
// read in the same call, and indexing by it is not a host position.
struct Logger {
  template <typename... A> void debug(const char *fmt, A &&...args);
};
extern Logger *logger;

struct LogRows : torch::nn::Module {
  torch::Tensor forward(torch::Tensor scores, torch::Tensor labels) {
    for (int64_t i = 0; i < scores.size(0); ++i)
      logger->debug("{} {} {}", i, labels[i].item<int64_t>(), scores[i].item<float>());
    return scores * 2;
  }
};

// A beam search that keeps (score, tokens) pairs on the host and sorts them by scores read from
// the log-probabilities: which tensor is first afterwards follows the data, so going on with
// `beams[0]` continues with a tensor the host chose.
struct BeamSort : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logprobs, torch::Tensor tokens) {
    std::vector<std::pair<float, torch::Tensor>> beams;
    for (int64_t k = 0; k < 4; ++k)
      beams.push_back(std::make_pair(logprobs[k].item().toFloat(), tokens[k]));
    std::sort(beams.rbegin(), beams.rend(),
              [](const std::pair<float, torch::Tensor> &a, const std::pair<float, torch::Tensor> &b) {
                return a.first < b.first;
              });
    // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'sort' orders the tensors of the host list 'beams' by keys that depend on a tensor value read on the host: which tensor sits at each position follows the data; keep the keys in a tensor, stack the tensors and order them on the device (topk or argsort, then index_select) [graphify-data-dependent-position]
    // CHECK-NOTES: :[[@LINE-6]]:13: note: added to 'beams' here
    return beams[0].second;
  }
};

// Detections as host structs sorted by a score read from the tensor, best first.
struct Detection {
  float score;
  torch::Tensor box;
};

struct SortDetections : torch::nn::Module {
  torch::Tensor forward(torch::Tensor boxes, torch::Tensor scores) {
    std::vector<Detection> dets;
    for (int64_t i = 0; i < 8; ++i)
      dets.push_back({scores[i].item<float>(), boxes[i]});
    std::stable_sort(dets.begin(), dets.end(), [](const Detection &a, const Detection &b) { return a.score > b.score; });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'stable_sort' orders the tensors of the host list 'dets' by keys that depend on a tensor value read on the host{{.*}} [graphify-data-dependent-position]
    return dets.front().box;
  }
};

// A comparator that reads the values it orders by.
struct SortByPeak : torch::nn::Module {
  torch::Tensor forward(torch::Tensor a, torch::Tensor b) {
    std::vector<torch::Tensor> maps = {a, b};
    std::sort(maps.begin(), maps.end(), [](const torch::Tensor &x, const torch::Tensor &y) {
      return x.max().item<float>() > y.max().item<float>();
    });
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'sort' orders the tensors of the host list 'maps' by keys that depend on a tensor value read on the host{{.*}} [graphify-data-dependent-position]
    return maps[0];
  }
};

// Only the best two put in order, from iterators with an offset: partial_sort reorders the list
// too.
struct KeepBestTwo : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logprobs, torch::Tensor tokens) {
    std::vector<std::pair<float, torch::Tensor>> beams;
    for (int64_t k = 0; k < 4; ++k)
      beams.emplace_back(logprobs[k].item<float>(), tokens[k]);
    std::partial_sort(beams.begin(), beams.begin() + 2, beams.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'partial_sort' orders the tensors of the host list 'beams' by keys that depend on a tensor value read on the host{{.*}} [graphify-data-dependent-position]
    return beams[0].second + beams[1].second;
  }
};

// A beam search that sorts its hypotheses by read scores and keeps only the best one's host token
// list: the order never picks a tensor (the reads of the scores are the blockers, reported where
// they are). Sorted again and its best state handed on, the order does pick one.
struct Hypothesis {
  std::vector<int64_t> tokens;
  float score;
  torch::Tensor state;
};

struct BestTokens : torch::nn::Module {
  std::vector<int64_t> forward(torch::Tensor logprobs, torch::Tensor states) {
    std::vector<Hypothesis> hyps;
    for (int64_t k = 0; k < 4; ++k)
      hyps.push_back({{k}, logprobs[k].item<float>(), states[k]});
    auto sorted = hyps;
    std::sort(sorted.begin(), sorted.end(), [](const Hypothesis &a, const Hypothesis &b) { return a.score > b.score; });
    std::vector<int64_t> best = sorted.front().tokens;
    for (const Hypothesis &h : sorted)
      best.push_back(static_cast<int64_t>(h.score));
    return best;
  }
};

struct BestState : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logprobs, torch::Tensor states) {
    std::vector<Hypothesis> hyps;
    for (int64_t k = 0; k < 4; ++k)
      hyps.push_back({{k}, logprobs[k].item<float>(), states[k]});
    std::sort(hyps.begin(), hyps.end(), [](const Hypothesis &a, const Hypothesis &b) { return a.score > b.score; });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sort' orders the tensors of the host list 'hyps' by keys that depend on a tensor value read on the host{{.*}} [graphify-data-dependent-position]
    return hyps.front().state;
  }
};

// Orders that do not follow the data: tensors sorted by their static sizes, pairs keyed by
// constants, and host numbers that hold no tensor.
struct StaticOrders : torch::nn::Module {
  torch::Tensor forward(torch::Tensor a, torch::Tensor b, torch::Tensor s) {
    std::vector<torch::Tensor> parts = {a, b};
    std::sort(parts.begin(), parts.end(),
              [](const torch::Tensor &x, const torch::Tensor &y) { return x.size(0) < y.size(0); });
    std::vector<std::pair<float, torch::Tensor>> weighted = {{0.5f, a}, {0.25f, b}};
    std::sort(std::begin(weighted), std::end(weighted),
              [](const auto &x, const auto &y) { return x.first < y.first; });
    std::vector<float> values = {s[0].item<float>(), s[1].item<float>()};
    std::sort(values.begin(), values.end());
    return parts[0] + weighted[0].second;
  }
};

// Rows kept under a test of tensor data, then written one by one: which rows the list holds
// follows the data as much as how many, so each is a position read on the host. A list of every
// row is not.
struct KeptRows : torch::nn::Module {
  torch::Tensor forward(torch::Tensor done, torch::Tensor h) {
    std::vector<int64_t> ended, every;
    for (int64_t b = 0; b < h.size(0); ++b) {
      every.push_back(b);
      if (done[b].item<bool>())
        ended.push_back(b);
    }
    auto saved = torch::zeros_like(h);
    for (int64_t b : ended)
      saved[b] = h[b];
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: position argument of 'operator[]' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: position argument of 'operator[]' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    // CHECK-NOTES: :[[@LINE-7]]:15: note: added to 'ended' here
    for (int64_t b : every)
      saved[b] += 1;
    return saved;
  }
};
