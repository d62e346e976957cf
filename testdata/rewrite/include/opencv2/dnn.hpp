// A stand-in for OpenCV's dnn module in the rewrite goldens: the declarations of its
// non-maximum suppression that post-processing code calls, and the box type it takes.
#pragma once
#include <vector>

namespace cv {
template <typename T> struct Rect_ {
  Rect_() = default;
  Rect_(T x, T y, T width, T height) : x(x), y(y), width(width), height(height) {}
  T x = 0, y = 0, width = 0, height = 0;
};
using Rect = Rect_<int>;
using Rect2d = Rect_<double>;

namespace dnn {
void NMSBoxes(const std::vector<Rect> &bboxes, const std::vector<float> &scores, float score_threshold,
              float nms_threshold, std::vector<int> &indices, float eta = 1.f, int top_k = 0);
void NMSBoxesBatched(const std::vector<Rect> &bboxes, const std::vector<float> &scores,
                     const std::vector<int> &class_ids, float score_threshold, float nms_threshold,
                     std::vector<int> &indices, float eta = 1.f, int top_k = 0);
} // namespace dnn
} // namespace cv
