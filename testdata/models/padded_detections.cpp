// Detection post-processing that returns several tensors and caps the number of detections: the
// score filter's survivors (boxes, scores, labels) leave the function as a tuple, at most
// `max_num` of the boxes and scores are kept, and a second entry returns two column groups of the
// survivors as a vector, or none when nothing survives. selection-to-padded splits each function
// into a capturable core (selections padded to the rows they came from, the cap a clamp of the
// count) and a host epilogue that slices every output by its count and rebuilds the tuple or
// vector. A third entry selects with `nonzero` positions. A fourth reads its survivors back and
// finishes on the host: the core keeps the selection padded, the epilogue runs the host loop on
// the sliced rows.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <tuple>
#include <vector>

// graphify-entry: boxes: f32[8,4], scores: f32[8], labels: i64[8] in [0, 3]
GRAPHIFY_GRAPH_REGION std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
top_detections(torch::Tensor boxes, torch::Tensor scores, torch::Tensor labels) {
  const int64_t max_num = 3;
  auto chosen = scores >= 0.25;
  boxes = boxes.index({chosen});
  scores = scores.index({chosen});
  labels = labels.index({chosen});
  if (max_num != -1 && boxes.size(0) > max_num) {
    boxes = boxes.slice(0, 0, max_num);
    scores = scores.slice(0, 0, max_num);
  }
  return std::make_tuple(boxes, scores * 2, labels);
}

// graphify-entry: x: f32[6,4]
GRAPHIFY_GRAPH_REGION std::vector<torch::Tensor> split_corners(torch::Tensor x) {
  auto keep = x.select(1, 0) > 0;
  auto kept = x.index({keep});
  if (kept.size(0) == 0)
    return {};
  if (kept.size(0) >= 2)
    kept = kept.index({torch::indexing::Slice(torch::indexing::None, 2)});
  return {kept.slice(1, 0, 2), kept.slice(1, 2, 4).abs()};
}
// The survivors of a filter written as a gather by the positions of the mask's true elements.
// graphify-entry: x: f32[7,5]
GRAPHIFY_GRAPH_REGION torch::Tensor strong_rows(torch::Tensor x) {
  auto rows = x.index_select(0, torch::nonzero(x.select(1, 4) > 0.5).select(1, 0));
  if (rows.size(0) == 0)
    return torch::zeros({0, 4});
  auto boxes = rows.slice(1, 0, 4);
  auto scores = rows.select(1, 4).unsqueeze(1);
  return boxes * scores;
}

// graphify-entry: pred: f32[8,5]
GRAPHIFY_GRAPH_REGION torch::Tensor decoded_on_host(torch::Tensor pred) {
  std::vector<float> flat;
  auto kept = pred.index({pred.select(1, 4) > 0.2});
  if (kept.size(0) == 0)
    return torch::zeros({0, 4});
  auto boxes = kept.slice(1, 0, 4) * 2;
  auto host = boxes.contiguous().cpu();
  auto a = host.accessor<float, 2>();
  for (int64_t i = 0; i < host.size(0); ++i)
    for (int64_t j = 0; j < 4; ++j)
      flat.push_back(a[i][j] + static_cast<float>(i));
  return torch::tensor(flat).view({-1, 4});
}
// graphify-expect-fix: fixed

// A module whose forward filters by a threshold it holds: the core is a static member of the
// class that takes the field by reference; the epilogue is forward itself.
// graphify-entry: x: f32[7,4]
struct ThresholdFilter : torch::nn::Module {
  double threshold = 0.25;
  torch::Tensor forward(torch::Tensor x) {
    auto kept = x.index({x.select(1, 0) > threshold});
    if (kept.size(0) == 0)
      return torch::zeros({0, 4});
    return kept.sigmoid() * 2;
  }
};
// graphify-expect-fix: fixed

// A score filter, then the survivors best first: the sort of the padded scores pushes the padded
// rows last (a stable sort, -inf keys) and the boxes are gathered in that order.
// graphify-entry: boxes: f32[8,4], scores: f32[8]
GRAPHIFY_GRAPH_REGION torch::Tensor ranked_detections(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0.1;
  auto kept_boxes = boxes.index({keep});
  auto kept_scores = scores.index({keep});
  auto order = kept_scores.argsort(0, true);
  return kept_boxes.index_select(0, order) * kept_scores.index_select(0, order).unsqueeze(1);
}
// graphify-expect-fix: fixed

// Per-image post-processing, as YOLO ports write it: a loop over the batch selects each image's
// confident rows, skips an image with none, and collects the survivors. The core runs the loop
// padded and collects each image's rows and count; the epilogue loops over them, skips the empty
// images and pushes the slices.
// graphify-entry: preds: f32[3,4,6]
GRAPHIFY_GRAPH_REGION std::vector<torch::Tensor> per_image_detections(torch::Tensor preds) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto pred = preds[i];
    auto kept = pred.index({pred.select(1, 4) > 0.5});
    if (kept.size(0) == 0)
      continue;
    auto boxes = kept.slice(1, 0, 4);
    auto scores = kept.select(1, 4) * kept.select(1, 5).sigmoid();
    output.push_back(torch::cat({boxes, scores.unsqueeze(1)}, 1));
  }
  return output;
}
// graphify-expect-fix: fixed

// The same in the style of YOLO ports' non_max_suppression: the survivors gathered at the
// positions of the mask's true elements, the best class per row from a (values, indices) tuple,
// and the row count read into a host variable that the 'continue' tests.
// graphify-entry: prediction: f32[2,5,8]
GRAPHIFY_GRAPH_REGION std::vector<torch::Tensor> best_class_per_image(torch::Tensor prediction) {
  auto confident = prediction.select(2, 4) > 0.25;
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    torch::Tensor x = prediction[i];
    x = x.index_select(0, torch::nonzero(confident[i]).select(1, 0));
    std::tuple<torch::Tensor, torch::Tensor> best = torch::max(x.slice(1, 5, x.size(1)), 1, true);
    x = torch::cat({x.slice(1, 0, 4), std::get<0>(best), std::get<1>(best).to(torch::kFloat)}, 1);
    const int64_t n = x.size(0);
    if (n == 0)
      continue;
    output.push_back(x);
  }
  return output;
}
// graphify-expect-fix: fixed

// Per image, the survivors read back on the host with the image's index: the core collects each
// image's padded rows; the epilogue's loop runs the original header (the host part reads the
// counter) and the host part on each image's sliced rows.
// graphify-entry: preds: f32[3,4,6]
GRAPHIFY_GRAPH_REGION torch::Tensor per_image_on_host(torch::Tensor preds) {
  std::vector<float> flat;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > 0.5});
    if (kept.size(0) == 0)
      continue;
    auto boxes = kept.slice(1, 0, 4) * 2;
    auto host = boxes.contiguous().cpu();
    auto a = host.accessor<float, 2>();
    for (int64_t r = 0; r < host.size(0); ++r) {
      flat.push_back(static_cast<float>(i));
      for (int64_t j = 0; j < 4; ++j)
        flat.push_back(a[r][j]);
    }
  }
  return torch::tensor(flat).view({-1, 5});
}
// graphify-expect-fix: fixed

// Per image in the style of YOLOv5 ports: candidates kept at the positions of the confident
// scores, their boxes turned into corners in place, and a greedy suppression written with host
// loops that records the rows it keeps in a tensor it makes. The core runs the filter and the
// column writes padded; the epilogue's loop runs the suppression on each image's sliced rows.
// graphify-entry: preds: f32[2,5,8]
GRAPHIFY_GRAPH_REGION std::vector<torch::Tensor> corners_then_greedy_per_image(torch::Tensor preds) {
  std::vector<torch::Tensor> output;
  for (size_t i = 0; i < preds.sizes()[0]; ++i) {
    torch::Tensor pred = preds.select(0, i);
    torch::Tensor score = pred.select(1, 4) * std::get<0>(torch::max(pred.slice(1, 5, pred.sizes()[1]), 1));
    pred = torch::index_select(pred, 0, torch::nonzero(score > 0.3).select(1, 0));
    if (pred.sizes()[0] == 0)
      continue;
    pred.select(1, 0) = pred.select(1, 0) - pred.select(1, 2) / 2;
    pred.select(1, 1) = pred.select(1, 1) - pred.select(1, 3) / 2;
    pred.select(1, 2) += pred.select(1, 0);
    pred.select(1, 3) += pred.select(1, 1);
    std::tuple<torch::Tensor, torch::Tensor> best = torch::max(pred.slice(1, 5, pred.sizes()[1]), 1);
    pred.select(1, 4) = pred.select(1, 4) * std::get<0>(best);
    pred.select(1, 5) = std::get<1>(best);
    torch::Tensor dets = pred.slice(1, 0, 6);
    torch::Tensor keep = torch::zeros({dets.sizes()[0]}, torch::kLong);
    torch::Tensor order = std::get<1>(torch::sort(dets.select(1, 4), 0, true));
    int64_t kept = 0;
    while (order.sizes()[0] > 0) {
      const int64_t top = order[0].item<int64_t>();
      keep[kept] = top;
      kept += 1;
      torch::Tensor overlap = torch::zeros({order.sizes()[0] - 1});
      for (int64_t j = 1; j < order.sizes()[0]; ++j) {
        const int64_t other = order[j].item<int64_t>();
        const float w = std::max(0.0f, std::min(dets[top][2].item<float>(), dets[other][2].item<float>()) -
                                           std::max(dets[top][0].item<float>(), dets[other][0].item<float>()));
        const float h = std::max(0.0f, std::min(dets[top][3].item<float>(), dets[other][3].item<float>()) -
                                           std::max(dets[top][1].item<float>(), dets[other][1].item<float>()));
        overlap[j - 1] = w * h;
      }
      order = torch::index_select(order, 0, torch::nonzero(overlap <= 0.25).select(1, 0) + 1);
    }
    output.push_back(torch::index_select(dets, 0, keep.slice(0, 0, kept)));
  }
  return output;
}
// graphify-expect-fix: fixed

// Per image into a vector filled beforehand with an empty result per image and assigned by the
// loop's counter (YOLO ports of `output = [torch.zeros((0, 6))] * bs; output[xi] = x`): the
// epilogue fills the vector as the original did and rebinds each image's element to its slice.
// graphify-entry: preds: f32[3,4,6]
GRAPHIFY_GRAPH_REGION std::vector<torch::Tensor> per_image_into_slots(torch::Tensor preds) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i)
    output.push_back(torch::zeros({0, 5}));
  for (int64_t i = 0; i < preds.size(0); ++i) {
    torch::Tensor x = preds[i];
    x = x.index_select(0, torch::nonzero(x.select(1, 4) > 0.25).select(1, 0));
    if (x.size(0) == 0)
      continue;
    output[i] = x.slice(1, 0, 5) * 2;
  }
  return output;
}
// graphify-expect-fix: fixed

// A detector module in the style of YOLO ports written as classes: per image, a score filter,
// then a private method that suppresses on the host. The host part stays in forward (the
// epilogue), where it may call the module's other methods; only the core must do without them.
// graphify-entry: preds: f32[2,6,6]
struct PerImageSuppressor : torch::nn::Module {
  double threshold = 0.3;
  double iou_threshold = 0.2;
  std::vector<torch::Tensor> forward(torch::Tensor preds) {
    std::vector<torch::Tensor> output;
    for (int64_t i = 0; i < preds.size(0); ++i) {
      torch::Tensor x = preds[i];
      x = x.index_select(0, torch::nonzero(x.select(1, 4) > threshold).select(1, 0));
      if (x.size(0) == 0)
        continue;
      output.push_back(x.index_select(0, suppress(x.slice(1, 0, 4), x.select(1, 4))));
    }
    return output;
  }

private:
  torch::Tensor suppress(torch::Tensor boxes, torch::Tensor scores) const {
    torch::Tensor order = std::get<1>(scores.sort(0, true));
    std::vector<int64_t> keep;
    std::vector<bool> removed(order.size(0), false);
    for (int64_t a = 0; a < order.size(0); ++a) {
      if (removed[a])
        continue;
      const int64_t top = order[a].item<int64_t>();
      keep.push_back(top);
      for (int64_t b = a + 1; b < order.size(0); ++b)
        if (overlap(boxes[top], boxes[order[b].item<int64_t>()]) > iou_threshold)
          removed[b] = true;
    }
    return torch::tensor(keep, torch::kLong);
  }

  double overlap(torch::Tensor a, torch::Tensor b) const {
    const double w = std::min(a[2].item<double>(), b[2].item<double>()) - std::max(a[0].item<double>(), b[0].item<double>());
    const double h = std::min(a[3].item<double>(), b[3].item<double>()) - std::max(a[1].item<double>(), b[1].item<double>());
    return std::max(0.0, w) * std::max(0.0, h);
  }
};
// graphify-expect-fix: fixed
