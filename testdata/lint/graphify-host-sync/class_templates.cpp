// The patterns of class templates hold calls that Clang cannot resolve before instantiation: a
// method whose type depends on the template's parameters, called on `this` (a plain call of a
// member expression, not yet a member call), and a parenthesised initializer of a parameter pack
// (`fn_(std::bind(f, _1, std::forward<A>(args)...))`, a list with no type). They are checked where they are
// instantiated; reading their patterns must not stop the analysis (it crashed on both).
#include <torch/torch.h>

#include <functional>
#include <utility>
#include <vector>

template <typename T> struct ScoreQueue {
  std::vector<T> items;
  T pop() {
    T last = items.back();
    items.pop_back();
    return last;
  }
  T drain() {
    T best = pop();
    while (!items.empty())
      best = best + pop();
    return best;
  }
};

template <typename T, typename... A> T make(A &&...args) {
  T made(std::forward<A>(args)...);
  return made;
}

// A callable member given a bound function in a constructor template, as torch::nn::Functional
// is; a pattern never instantiated in this file (the crash needed that).
struct Stage {
  std::function<torch::Tensor(torch::Tensor)> fn_;
  template <typename F, typename... A>
  explicit Stage(F f, A &&...args) : fn_(std::bind(f, std::placeholders::_1, std::forward<A>(args)...)) {}
  torch::Tensor operator()(torch::Tensor x) { return fn_(x); }
};

template <typename T> struct Reader {
  T read(const torch::Tensor &t) { return t.sum().item<T>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  T twice(const torch::Tensor &t) { return read(t) + this->read(t); }
};

struct Ranker : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    ScoreQueue<torch::Tensor> q;
    q.items.push_back(x);
    q.items.push_back(x * 2);
    torch::Tensor total = q.drain();
    auto grid = make<torch::Tensor>(torch::ones({2, 2}));
    Reader<float> r;
    if (r.twice(total) > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:11: note: returned from 'twice' here
    // CHECK-NOTES: :[[@LINE-14]]:44: note: returned from 'read' here
    // CHECK-NOTES: :[[@LINE-17]]:51: note: value read from tensor here
      return total + grid.sum();
    return total;
  }
};
