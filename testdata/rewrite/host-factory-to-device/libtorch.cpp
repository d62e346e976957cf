// host-factory-to-device against the real LibTorch headers: tensors a factory builds in host
// memory and the region copies to the device are created on the device instead, when every call
// on the way gives the same values there (device_invariant, same_elements).
#include <torch/torch.h>

#include <vector>

// A decoder's start token, written the way greedy decoders do.
torch::Tensor start_tokens(int64_t start, torch::Device device) {
  return torch::ones({1, 1}).fill_(start).toType(torch::kLong).to(device);
}

// A causal mask through a local given a new value computed from itself, copied in a method.
struct Masker {
  torch::Device device_ = torch::kCUDA;
  torch::Tensor causal(const torch::Tensor &seq) {
    int64_t len = seq.size(1);
    torch::Tensor mask = torch::triu(torch::ones({len, len}, torch::kInt32), 1);
    mask = mask.unsqueeze(0).expand({seq.size(0), -1, -1});
    return mask.to(torch::kBool).to(device_);
  }
};

// The copy's destination is a tensor, options, a device type, or written into options already.
torch::Tensor labels(const torch::Tensor &scores, int64_t num_classes) {
  return torch::arange(num_classes).to(scores).view({1, -1});
}

torch::Tensor offsets(const torch::Tensor &x) {
  auto opts = x.options();
  auto zero = torch::zeros({x.size(0), 2}).to(opts);
  auto ids = torch::ones({4}, torch::kInt32).cuda();
  auto fill = torch::full({2}, 3, torch::kCPU).unsqueeze(0).to(x.device());
  auto filled = torch::full({2}, 3, torch::TensorOptions().dtype(torch::kInt32).device(torch::kCPU)).to(x.device()); // EXPECT-NO-FIX: name the CPU among other settings
  auto eye = torch::eye(3).repeat({x.size(0), 1, 1}).to(x.device());
  auto typed = torch::zeros({4}, torch::TensorOptions().dtype(torch::kFloat)).to(x.device());
  return zero.sum() + ids.sum() + fill.sum() + filled.sum() + eye.sum() + typed.sum();
}

// Refused: values that may differ on the device, a value that would change for other code, a
// factory written by a macro.
#define HOST_ONES(n) torch::ones({n})
torch::Tensor kept(int64_t n) { return torch::zeros({n}); }

torch::Tensor refused(const torch::Tensor &x, torch::Device device, int64_t n) {
  auto grid = torch::linspace(0, 1, n).to(device); // EXPECT-NO-FIX: 'linspace' \(line [0-9]+\) may compute its values with a different rounding
  auto noise = torch::randn({n}).to(device); // EXPECT-NO-FIX: draws from the host's random generator
  auto steps = torch::arange(0.5, 3.0).to(device); // EXPECT-NO-FIX: 'arange' takes '0.5', which is not an integer
  auto scaled = torch::ones({n}).exp().to(device); // EXPECT-NO-FIX: 'exp' \(line [0-9]+\) is computed on the host
  auto base = torch::zeros({n});
  auto moved = base.to(device); // EXPECT-NO-FIX: 'base' is also used at line [0-9]+, where it would then be a tensor on the device
  base.add_(1);
  auto helper = kept(n).to(device); // EXPECT-NO-FIX: built by 'zeros' \(line [0-9]+\) in another function
  auto pinned = torch::zeros({n}).pin_memory().to(device); // EXPECT-NO-FIX: copied through pinned memory
  torch::Device dev = device;
  auto later = torch::zeros({n});
  dev = x.device();
  auto moved_later = later.to(dev); // EXPECT-NO-FIX: the destination 'dev' is assigned after its declaration
  auto expanded = HOST_ONES(n).to(device); // EXPECT-NO-FIX: the factory 'ones' \(line [0-9]+\) is written in a macro
  return expanded.sum() + grid.sum() + noise.sum() + steps.sum() + scaled.sum() + moved.sum() + helper.sum() + pinned.sum() +
         moved_later.sum() + base.sum();
}

// Not matched: host data (torch::tensor of a vector) is copied once before the region by hand;
// the check's recipe says so.
torch::Tensor host_data(const std::vector<float> &strides, torch::Device device) {
  return torch::tensor(strides).to(device); // EXPECT-RECIPE: once before the graph region
}

// One number is no host data: torch::tensor given the device fills it there, exactly (a
// threshold, a count, a start token), through the conversions on the way.
torch::Tensor thresholds(const torch::Tensor &scores, float conf, int64_t start) {
  auto t = torch::tensor(conf).to(scores.device());
  auto first = torch::tensor(start).toType(torch::kLong).to(torch::kCUDA);
  return (scores > t).sum() + first;
}

// A braced list is host data, copied element by element: not matched. (Followed by device work,
// the function would be split after the copy instead: split-at-host-boundary/host_data_copies.cpp.)
torch::Tensor paired(const torch::Tensor &scores, float conf) {
  return scores.sum() + torch::tensor({conf, 0.5f}).to(scores.device()).sum(); // EXPECT-RECIPE: once before the graph region
}
