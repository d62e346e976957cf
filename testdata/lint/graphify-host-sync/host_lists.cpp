// Lists of tensors filled in host memory, then stacked and copied to the device: when every
// tensor the list is ever given is built in host memory, what it is stacked into is too, and
// the copy synchronises. A list that may also hold a device tensor, has an element replaced or
// is handed to code that may change it is not known to be in host memory.
#include <torch/torch.h>

#include <vector>

struct Crop {
  float *pixels;
  int64_t rows, cols;
};

void normalise(std::vector<torch::Tensor> &parts);

struct Embedder : torch::nn::Module {
  torch::Tensor forward(std::vector<Crop> crops, torch::Tensor mean) {
    std::vector<torch::Tensor> resized;
    for (auto &c : crops)
      resized.push_back(torch::from_blob(c.pixels, {c.rows, c.cols, 3}));
    auto batch = torch::stack(resized).cuda().permute({0, 3, 1, 2});
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'cuda' copies a tensor built in host memory ('from_blob', line 20) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    return batch - mean;
  }
};

struct Emplaced : torch::nn::Module {
  torch::Tensor forward(std::vector<Crop> crops, torch::Tensor mean) {
    std::vector<torch::Tensor> planes;
    planes.reserve(crops.size());
    for (auto &c : crops)
      planes.emplace_back(torch::from_blob(c.pixels, {c.rows, c.cols}));
    return torch::cat(planes).to(mean.device()) - mean;
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'to' copies a tensor built in host memory ('from_blob', line 32) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
};

struct Mixed : torch::nn::Module {
  torch::Tensor forward(std::vector<Crop> crops, torch::Tensor x) {
    std::vector<torch::Tensor> parts;
    for (auto &c : crops)
      parts.push_back(torch::from_blob(c.pixels, {c.rows, c.cols}));
    parts.push_back(x);
    auto joined = torch::cat(parts).to(x.device());
    std::vector<torch::Tensor> replaced;
    replaced.push_back(torch::from_blob(crops[0].pixels, {4}));
    replaced[0] = x.flatten();
    auto first = torch::stack(replaced).to(x.device());
    std::vector<torch::Tensor> handed;
    handed.push_back(torch::from_blob(crops[0].pixels, {4}));
    normalise(handed);
    auto second = torch::stack(handed).to(x.device());
    return joined.sum() + first.sum() + second.sum();
  }
};
