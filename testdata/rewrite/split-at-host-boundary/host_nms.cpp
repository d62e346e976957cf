// split-at-host-boundary: post-processing that reads boxes and scores out of the prediction into
// host vectors for OpenCV's NMS (cv::dnn::NMSBoxes, tag host_suppression). Nothing capturable comes
// before the first copy, so there is no core; the copies' advice names the host NMS and the device
// form that replaces it.
#include <opencv2/dnn.hpp>
#include <torch/torch.h>

#include <vector>

std::vector<int> keep_boxes(torch::Tensor pred, float conf, float iou) {
  auto boxes = pred.slice(1, 0, 4).cpu(); // EXPECT-RECIPE: copied to host memory for 'cv::dnn::NMSBoxes' \(line 22\), a library's non-maximum suppression that runs on the host.*torchvision::nms
  auto scores = pred.select(1, 4).cpu(); // EXPECT-RECIPE: copied to host memory for 'cv::dnn::NMSBoxes' \(line 22\)
  std::vector<cv::Rect> rects;
  std::vector<float> confs;
  auto b = boxes.accessor<float, 2>();
  auto s = scores.accessor<float, 1>();
  for (int64_t i = 0; i < boxes.size(0); ++i) {
    rects.emplace_back(int(b[i][0]), int(b[i][1]), int(b[i][2]), int(b[i][3]));
    confs.push_back(s[i]);
  }
  std::vector<int> keep;
  cv::dnn::NMSBoxes(rects, confs, conf, iou, keep);
  return keep;
}

// Collected into a host vector with no NMS in the function: the plain advice of a copy.
std::vector<float> scores_of(torch::Tensor pred) {
  auto scores = pred.select(1, 4).cpu();
  std::vector<float> out;
  auto s = scores.accessor<float, 1>();
  for (int64_t i = 0; i < scores.size(0); ++i)
    out.push_back(s[i]);
  return out;
}

struct Candidates {
  std::vector<cv::Rect> boxes;
  std::vector<float> scores;
  std::vector<int> classes;
};

// A helper fills the vectors and its caller runs the NMS: the copy's advice names the caller's call.
Candidates candidates(const torch::Tensor &pred) {
  Candidates out;
  auto cpu = pred.cpu(); // EXPECT-RECIPE: copied to host memory for 'cv::dnn::NMSBoxesBatched' \(line 56, in 'batched_keep', which calls this function\)
  for (int64_t i = 0; i < cpu.size(0); ++i) {
    out.scores.push_back(cpu[i][4].item<float>());
    out.classes.push_back(static_cast<int>(cpu[i][5].item<float>()));
  }
  return out;
}

std::vector<int> batched_keep(const torch::Tensor &pred, float conf, float iou) {
  Candidates c = candidates(pred);
  std::vector<int> keep;
  cv::dnn::NMSBoxesBatched(c.boxes, c.scores, c.classes, conf, iou, keep);
  return keep;
}

// An accessor handed to a helper that fills the NMS's inputs, the kept indices then copied back
// to size a gather: the read feeds the host NMS first, and the NMS is what to replace (not the
// size its indices give later).
static void to_rects(const at::TensorAccessor<float, 2> &b, std::vector<cv::Rect> &rects, std::vector<float> &confs) {
  for (int64_t i = 0; i < b.size(0); ++i) {
    rects.emplace_back(int(b[i][0]), int(b[i][1]), int(b[i][2]), int(b[i][3]));
    confs.push_back(b[i][4]);
  }
}

torch::Tensor kept_rows(torch::Tensor pred, float conf, float iou) {
  auto cpu = pred.cpu(); // EXPECT-RECIPE: copied to host memory for 'cv::dnn::NMSBoxes' \(line [0-9]+\)
  std::vector<cv::Rect> rects;
  std::vector<float> confs;
  to_rects(cpu.accessor<float, 2>(), rects, confs);
  std::vector<int> keep;
  cv::dnn::NMSBoxes(rects, confs, conf, iou, keep);
  auto idx = torch::tensor(keep).to(pred.device());
  return pred.index_select(0, idx);
}
