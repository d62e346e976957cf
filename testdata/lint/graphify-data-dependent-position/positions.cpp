// RUN-ARGS: --checks=-*,graphify-data-dependent-position
// Element positions read from tensors on the host: x[i], select, index({i}), index_put_({i}, v).
#include <torch/torch.h>

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
