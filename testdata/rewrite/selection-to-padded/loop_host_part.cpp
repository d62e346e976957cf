// selection-to-padded on a loop whose iterations end on the host: each image's survivors are
// selected on the device, then read back and turned into results. The core collects, per
// iteration, the tensors the host part reads; the epilogue's loop slices them and runs the host
// part, under the original header when it reads the loop counter.
#include <torch/torch.h>

#include <vector>

struct Detection {
  float x1, y1, x2, y2, score;
  int64_t image;
};

// Per image: the survivors selected on the device, then read back and turned into detections,
// with the image's index: the epilogue runs the loop's header to have it.
std::vector<Detection> detect_all(torch::Tensor preds, double conf) {
  std::vector<Detection> dets;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf});
    if (kept.size(0) == 0)
      continue;
    auto boxes = kept * 2;
    auto host = boxes.cpu();
    for (int64_t r = 0; r < host.size(0); ++r)
      dets.push_back({host[r][0].item<float>(), host[r][1].item<float>(), host[r][2].item<float>(),
                      host[r][3].item<float>(), host[r][4].item<float>(), i});
  }
  return dets;
}

// A function that returns nothing and ends with the loop: its host part writes the results.
void collect_scores(torch::Tensor preds, double conf, std::vector<std::vector<float>> &out) {
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf});
    auto host = kept.select(1, 4).contiguous().cpu();
    const float *p = host.data_ptr<float>();
    out.emplace_back(p, p + host.numel());
  }
}

// The host part reads a host value the iteration computes, which the epilogue does not have.
std::vector<float> widths(torch::Tensor preds, double conf) {
  std::vector<float> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    const int64_t column = preds.size(2) - 3;
    auto kept = preds[i].index({preds[i].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the host part of the loop from line 47 reads 'column' \(line 45\), a host value the statements before it compute
    auto host = kept.cpu();
    for (int64_t r = 0; r < host.size(0); ++r) // EXPECT-NO-FIX: the loop's body does host work
      out.push_back(host[r][column].item<float>());
  }
  return out;
}

// The host part writes a tensor that the next iteration's device part reads: the core would have
// run that device part before the write.
std::vector<float> shifted(torch::Tensor preds, torch::Tensor offset, double conf) {
  std::vector<float> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf}) + offset; // EXPECT-RECIPE: not rewritten automatically: the host part of the loop from line 60 writes tensor data in place \('offset.add_\(1\)', line 61\)
    auto host = kept.cpu();
    offset.add_(1);
    out.push_back(host.sum().item<float>());
  }
  return out;
}

// The host part reads the counter, and the header reads a bound computed from a tensor the
// function makes: the padded form's epilogue cannot run the header (refused: "the host part of the
// loop at line 75 reads the counter 'i', and the loop's header reads 'images'"), so the function
// is split at its first host read instead (split-at-host-boundary).
std::vector<float> numbered(torch::Tensor preds, double conf) {
  std::vector<float> out;
  auto scaled = preds * 2;
  const int64_t images = scaled.size(0) - 1;
  for (int64_t i = 0; i < images; ++i) {
    auto kept = scaled[i].index({scaled[i].select(1, 4) > conf});
    auto host = kept.cpu();
    out.push_back(host.sum().item<float>() + static_cast<float>(i));
  }
  return out;
}

// The host part reads a structured binding of the iteration.
std::vector<float> best_on_host(torch::Tensor preds, double conf) {
  std::vector<float> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the host part of the loop from line 89 reads 'score' \(line 89\), a structured binding
    auto [score, label] = torch::max(kept, 1);
    auto host = score.cpu();
    out.push_back(host.sum().item<float>() + score.sum().item<float>());
  }
  return out;
}

// Numbers computed from the parameters' sizes at the top of the body: the core computes its own,
// the epilogue computes the same before it calls the core, for the host part to read.
std::vector<float> flatten_kept(torch::Tensor preds, double t) {
  const int64_t width = preds.size(2);
  const int64_t row_bytes = width * static_cast<int64_t>(sizeof(float));
  std::vector<float> flat;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > t});
    if (kept.size(0) == 0)
      continue;
    auto host = kept.contiguous().cpu();
    const float *p = host.data_ptr<float>();
    flat.insert(flat.end(), p, p + host.size(0) * row_bytes / static_cast<int64_t>(sizeof(float)));
  }
  return flat;
}
