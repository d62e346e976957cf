// Taint travels from a tensor read through locals, arithmetic, casts, std:: helpers, Scalar
// methods, struct fields, out-parameters, helper returns, lambdas and containers; an overwrite
// with a clean value ends it.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <vector>

struct Stats {
  float mean = 0;
  int64_t count = 4;
};

static float readScale(const torch::Tensor &t) { return t.abs().max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:71: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

static void readInto(const torch::Tensor &t, double &out) { out = t.sum().item<double>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:75: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

static bool isLarge(float v) { return v > 100.0f; }

static int64_t fixedWidth() { return 16; }

struct Channels : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float s = x.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    float scaled = s * 2.0f + 1.0f;
    if (scaled > 3.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-5]]:23: note: value read from tensor here
      x = x * 2;
    int casted = static_cast<int>(scaled);
    if (casted == 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-10]]:23: note: value read from tensor here
      x = x + 1;
    double m = std::max(0.0, std::abs(double(s)));
    if (m > 1.0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-15]]:23: note: value read from tensor here
      x = x - 1;
    auto asLong = x.max().item().toLong();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (asLong != 7)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:27: note: value read from tensor here
      x = x / 2;
    float acc = 0;
    acc += s;
    if (acc)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-27]]:23: note: value read from tensor here
      x = x.relu();
    return x;
  }
};

struct FieldsAndHelpers : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    Stats st;
    st.mean = x.mean().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (st.count > 2) // clean field of the same struct
      x = x + 1;
    if (st.mean > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-6]]:24: note: value read from tensor here
      x = x * 3;
    double total = 0;
    readInto(x, total);
    if (total < 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-57]]:75: note: value read from tensor here
      x = -x;
    if (readScale(x) > 5)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-64]]:71: note: value read from tensor here
      x = x / 5;
    if (isLarge(s_)) // clean member passed through a helper
      x = x * 0;
    if (isLarge(x.norm().item<float>()))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:26: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      x = x.clamp(-1, 1);
    if (fixedWidth() > 8)
      x = x.contiguous();
    return x;
  }
  float s_ = 1.0f;
};

struct LambdasAndContainers : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float peak = x.max().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto byValue = [peak]() { return peak > 1.0f; };
    if (byValue())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-5]]:26: note: value read from tensor here
      x = x * 2;
    float seen = 0;
    auto byRef = [&]() { seen = x.min().item<float>(); };
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    byRef();
    if (seen < 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-5]]:41: note: value read from tensor here
      x = x.abs();
    auto check = [](float v) { return v > 0.5f; };
    if (check(peak))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-18]]:26: note: value read from tensor here
      x = x + 0.5;
    std::vector<float> history;
    history.push_back(peak);
    if (history.back() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-24]]:26: note: value read from tensor here
      x = x - 0.5;
    if (!history.empty() && history[0] > 1)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-28]]:26: note: value read from tensor here
      x = x * 0.5;
    std::vector<int64_t> dims = {0, 1};
    if (dims.size() == 2)
      x = x.transpose(0, 1);
    return x;
  }
};

struct Overwrite : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float v = x.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    v = 1.0f; // overwritten with a constant: clean again
    if (v > 0)
      x = x * 2;
    int64_t n = x.size(0);
    n = n * 2;
    if (n > 4)
      x = x.slice(0, 0, 4);
    float w = 0;
    if (x.dim() > 1)
      w = x.mean().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (w > 0) // joined: tainted on one path
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:20: note: value read from tensor here
      x = x + w;
    return x;
  }
};

// The whole walk back from the branch on 'scaled' to the read (absolute lines):
// CHECK-NOTES: :29:11: note: assigned to 'scaled' here
// CHECK-NOTES: :27:11: note: assigned to 's' here
