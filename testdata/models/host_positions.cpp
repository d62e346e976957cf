// A position read on the host: the best-scoring row is found with argmax().item() and then used
// to pick a row, a column and an element to overwrite. Reading the position syncs with the device
// and a trace freezes it; as a one-element long tensor it stays on the device.
#include <torch/torch.h>

// graphify-entry: x: f32[4,5], scores: f32[4]
struct HostPositions : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor scores) {
    int64_t i = scores.argmax().item<int64_t>();
    auto row = x[i];
    auto col = x.select(1, i);
    auto y = x.clone();
    y[i][0] = 0;
    return y + row + col.unsqueeze(1);
  }
};

// The positions read through the Scalar that item() returns (toInt, toLong).
// graphify-entry: x: f32[4,5], scores: f32[4]
struct ConvertedPositions : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor scores) {
    int best = scores.argmax().item().toInt();
    return x[best] * x.select(0, scores.argmin().item().toLong());
  }
};

// A beam search's source beams: topk's flat positions given through std::tie, divided by the
// vocabulary with floor rounding (integers stay integers), then made 1-d in place.
// graphify-entry: logp: f32[3,4], tokens: i64[3,6]@0:9
struct BeamSources : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logp, torch::Tensor tokens) {
    torch::Tensor best, flat;
    std::tie(best, flat) = logp.flatten().topk(3);
    auto src = torch::div(flat, logp.size(1), "floor").squeeze();
    if (src.sizes().empty())
      src.unsqueeze_(0);
    int64_t beam = src[0].item<int64_t>();
    return tokens[beam] + best.sum().to(torch::kLong);
  }
};
// graphify-expect-fix: fixed
