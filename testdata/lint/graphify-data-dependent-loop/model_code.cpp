// Model code as it is written in practice: greedy decoding, padding to the longest sequence,
// host copies of lengths, detection post-processing with a suppression loop.
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace {
int64_t countPositive(const torch::Tensor &x) { return (x > 0).sum().item<int64_t>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:70: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
} // namespace

struct DecoderImpl : torch::nn::Module {
  DecoderImpl(int64_t vocab, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, hidden))),
        proj(register_module("proj", torch::nn::Linear(hidden, vocab))) {}

  std::vector<int64_t> forward(torch::Tensor start, int64_t max_len, int64_t eos) {
    torch::NoGradGuard no_grad;
    std::vector<int64_t> out;
    auto tok = start;
    for (int64_t t = 0; t < max_len; ++t) {
      auto logits = proj->forward(embed->forward(tok));
      auto next = logits.argmax(-1);
      int64_t id = next.item<int64_t>();
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      out.push_back(id);
      if (id == eos)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-5]]:25: note: value read from tensor here
        break;
      tok = next;
    }
    return out;
  }
  torch::nn::Embedding embed;
  torch::nn::Linear proj;
};
TORCH_MODULE(Decoder);

struct PadBatch : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor lengths) {
    const auto batch = x.size(0);
    int64_t max_len = lengths.max().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto padded = torch::zeros({batch, max_len, x.size(2)});
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:37: note: value read from tensor here
    auto lengths_cpu = lengths.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto acc = lengths_cpu.accessor<int64_t, 1>();
    int64_t total = 0;
    for (int64_t i = 0; i < batch; ++i)
      total += acc[i];
    auto flat = x.reshape({-1, x.size(2)}).narrow(0, 0, total);
    // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-6]]:28: note: value read from tensor here
    std::vector<int64_t> lens(lengths.data_ptr<int64_t>(), lengths.data_ptr<int64_t>() + batch);
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:68: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int64_t offset = 0;
    for (auto l : lens) {
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-6]]:39: note: value read from tensor here
      padded.index_put_({offset % batch}, flat.narrow(0, offset, l).sum(0));
      // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: position argument of 'narrow' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
      // CHECK-MESSAGES: :[[@LINE-2]]:66: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
      // CHECK-NOTES: :[[@LINE-10]]:39: note: value read from tensor here
      // CHECK-MESSAGES: :[[@LINE-4]]:14: warning: 'index_put_' writes a tensor that may live on a device into a tensor in host memory ('zeros', line 46): a copy from the device to pageable memory, which waits for the device and cannot be captured in a CUDA graph (make it on the device, with the written tensor's options, or copy the results to the host once after the region) [graphify-host-sync]
      // CHECK-MESSAGES: :[[@LINE-5]]:26: warning: position argument of 'index_put_' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
      offset += l;
    }
    int64_t pos = countPositive(x);
    TORCH_CHECK(pos >= 0, "negative count"); // an assertion stops the program; it is not a branch
    TORCH_CHECK(x.dim() == 3, "expected 3-d input");
    auto scores = torch::softmax(x, -1);
    auto keep = scores > 0.5;
    auto kept = scores.index({keep});
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto masked = scores.masked_fill(~keep, 0.0);
    return padded + masked.sum() + kept.sum();
  }
};

struct Detector : torch::nn::Module {
  float score_thresh = 0.3f;
  torch::Tensor forward(torch::Tensor boxes, torch::Tensor scores) {
    auto keep = scores > score_thresh;
    auto b = boxes.index({keep});
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto s = scores.index({keep});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto order = std::get<1>(s.sort(0, true));
    std::vector<int64_t> picked;
    while (order.numel() > 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: greedy loop over the shrinking selection 'order' (the hand-written non-maximum suppression pattern): each iteration selects from what the last one kept, so the number of iterations, the selections and the host reads inside all follow the data; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-6]]:21: note: selection whose length depends on the values made here
    // CHECK-NOTES: :[[@LINE+5]]:25: note: inside it: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-NOTES: :[[@LINE+6]]:11: note: inside it: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE+8]]:32: note: inside it: size argument of 'rand' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE+9]]:20: note: inside it: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
      // One construct: the reads, sizes and selections inside are its notes.
      auto i = order[0].item<int64_t>();
      picked.push_back(i);
      if (order.numel() == 1)
        break;
      auto rest = order.slice(0, 1);
      auto ious = torch::rand({order.size(0) - 1});
      auto ok = ious <= 0.5;
      order = rest.index({ok});
    }
    auto idx = torch::tensor(picked); // CHECK-MESSAGES: :[[@LINE]]:30: warning: 'tensor' builds a tensor with one element per element of its host data, whose number depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    int k = std::min<int>(picked.size(), 10);
    auto top = torch::topk(s, k);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'topk' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-21]]:5: note: 'picked' is written in the loop at line 95, whose trip count follows tensor data
    return b.index_select(0, idx) + std::get<0>(top).sum();
  }
};

// Training code around the model is not a graph region.
void fit(Decoder &model, torch::Tensor batch, torch::optim::Optimizer &opt) {
  for (int step = 0; step < 100; ++step) {
    auto loss = torch::zeros({1}, torch::requires_grad());
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << std::endl;
  }
}
