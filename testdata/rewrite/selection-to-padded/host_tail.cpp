// selection-to-padded with a host tail: post-processing that selects rows on the device, then
// reads them back and finishes on the host. The core keeps the selections padded and returns the
// tensors the host part reads; the epilogue slices them by the counts and runs the host part, from
// its first statement, on values equal to the original's.
#include <torch/torch.h>

#include <vector>

struct Detection {
  float x1, y1, x2, y2, score;
};

// The results are declared first (no code runs: the epilogue declares them before the core), an
// early return tests the selection, and the host loop builds the results.
std::vector<Detection> decode_detections(torch::Tensor pred, double conf) {
  std::vector<Detection> dets;
  auto keep = pred.select(1, 4) > conf;
  auto kept = pred.index({keep});
  if (kept.size(0) == 0)
    return dets;
  auto boxes = kept * 2;
  auto host = boxes.cpu();
  for (int64_t i = 0; i < host.size(0); ++i)
    dets.push_back({host[i][0].item<float>(), host[i][1].item<float>(), host[i][2].item<float>(),
                    host[i][3].item<float>(), host[i][4].item<float>()});
  return dets;
}

// A function that returns nothing and writes the scores through a reference.
void collect_scores(torch::Tensor scores, double t, std::vector<float> &out) {
  auto picked = scores.index({scores > t});
  auto doubled = picked * 2;
  auto host = doubled.contiguous().cpu();
  const float *p = host.data_ptr<float>();
  out.assign(p, p + host.numel());
}

// The host part reads a host value computed before it from a tensor the core computes: the
// epilogue would not have it (one computed from the parameters' sizes alone it computes itself).
std::vector<float> widths(torch::Tensor boxes, double t) {
  auto scaled = boxes * 2;
  auto columns = scaled.size(1);
  auto kept = scaled.index({scaled.select(1, 0) > t}); // EXPECT-RECIPE: not rewritten automatically: the host part from line 44 reads 'columns' \(line 42\), a host value the statements before it compute
  auto host = kept.cpu();
  std::vector<float> out(static_cast<size_t>(host.size(0) * columns));
  return out;
}

// The host part reads a tensor parameter (taken by value) that the statements before it assign,
// one of them with a selection: the epilogue assigns its own copy the core's value, sliced.
std::vector<float> rescaled(torch::Tensor scores, double t) {
  scores = scores.sigmoid();
  auto kept = scores.index({scores > t});
  scores = scores.index({scores > t / 2});
  auto host = kept.cpu();
  return std::vector<float>(host.size(0), scores.size(0));
}
