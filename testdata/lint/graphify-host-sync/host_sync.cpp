// Device-to-host reads and transfers inside forward; each call reported once.
#include <torch/torch.h>

#include <iostream>

struct HostReads : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float s = x.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto sc = x.max().item();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto onCpu = x.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto toCpu = x.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto toCpuDevice = x.to(torch::Device("cpu"));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto toCpuDevice2 = x.to(torch::Device(torch::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    torch::Device host(torch::kCPU);
    auto viaLocal = x.to(host);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto toFloat = x.to(torch::kFloat);
    auto toCuda = x.to(torch::kCUDA);
    float *p = x.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto acc = x.accessor<float, 1>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'accessor' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    std::cout << x << std::endl;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator<<' prints tensor values from the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    std::cout << "shape " << x.sizes() << std::endl;
    bool same = x.equal(onCpu);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'equal' compares all elements on the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return viaLocal + x * s + sc.toFloat() + p[0] + acc[0] + toCpu + toCpuDevice + toCpuDevice2 + toFloat +
           toCuda + same;
  }
};

// nonzero reads the mask on the host too, but it is reported once, by graphify-dynamic-shape.
struct NonzeroOnce : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto idx = x.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    return idx;
  }
};

// `data<T>()`, the old spelling of `data_ptr<T>()`, exposes the memory; `data()` without a type
// is a tensor (the values without autograd history) and stays on the device.
struct OldSpelling : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    const float *p = x.data<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'data' exposes the tensor's memory to host reads (the old spelling of data_ptr); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    torch::Tensor detached = x.data();
    return detached * p[0];
  }
};

// Ops that check their result on the host: the matrix inverse raises on a singular matrix (its
// status is read back), and the C++ clip_grad_norm_ returns the norm as a double.
struct HostChecks : torch::nn::Module {
  torch::Tensor forward(torch::Tensor a) {
    auto inv = torch::linalg_inv(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'linalg_inv' reads back whether a matrix is singular, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto inv2 = a.inverse();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'inverse' reads back whether a matrix is singular, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto inv3 = torch::linalg::inv(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'inv' reads back whether a matrix is singular, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return inv + inv2 + inv3;
  }
};

// A Kalman update's factorisation and solve check their matrices on the host the same way.
struct KalmanGain : torch::nn::Module {
  torch::Tensor forward(torch::Tensor s, torch::Tensor p) {
    auto l = torch::linalg_cholesky(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'linalg_cholesky' reads back whether a matrix is positive-definite, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto l2 = torch::linalg::cholesky(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'cholesky' reads back whether a matrix is positive-definite, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto k = torch::linalg_solve(s, p);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'linalg_solve' reads back whether a matrix is singular, to raise on it; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto checked = std::get<0>(torch::linalg_cholesky_ex(s));
    return l + l2 + k + checked;
  }
};

struct ClippedStep : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto loss = (x * x).sum();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'clip_grad_norm_' reads the total norm back to the host (it returns a double); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return loss;
  }
};

// A model's outputs handed over as an IValue (a tensor, a tuple or a dict of tensors): printing one
// prints its tensors' values.
struct PrintsIValues : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    c10::IValue out(x * 2);
    std::cout << out << std::endl;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator<<' prints the values of the tensors an IValue holds from the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    std::cout << x.sizes() << x.device() << std::endl;
    return x;
  }
};

// multinomial checks its probabilities on the host before it draws one sample, or several without
// replacement (its default); the exponential race it runs after the check reads nothing back.
struct Sampler : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits) {
    auto probs = logits.softmax(-1);
    auto one = torch::multinomial(probs, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'multinomial' reads back whether its probabilities are valid, to raise on them; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto also = probs.multinomial(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'multinomial' reads back whether its probabilities are valid, to raise on them; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto raced = (probs / torch::empty_like(probs).exponential_(1)).argmax(-1, true);
    return one + also + raced;
  }
};

// Outside any graph region: a training loop may log values freely.
void train(torch::nn::Module &model, torch::Tensor loss) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::cout << "loss " << loss.item<float>() << std::endl;
    if (loss.item<float>() < 1e-3f)
      break;
  }
}

// A class named like a module but not derived from one is not a graph region.
struct NotAModule {
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
      return x;
    return -x;
  }
};
