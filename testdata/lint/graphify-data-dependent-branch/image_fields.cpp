// RUN-ARGS: --checks=-*,graphify-data-dependent-branch --graph-region=Segmenter::infer --graph-region=Segmenter::infer_into --graph-region=Segmenter::crop_best
// An image held in a field of the object keeps its shape apart from its pixels, as a local one
// does: a helper wraps the class map's memory at the configured size and returns a clone, the
// field is assigned it and handed to post-processing, which compares its rows and columns with the
// input's. Those are the configuration's, not tensor data; the pixels are. A crop at a box read
// from the scores has a shape that follows the data. The same for an image assigned through a
// reference parameter.
#include <opencv2/imgproc.hpp>
#include <torch/torch.h>

class Segmenter {
public:
  cv::Mat to_mat(torch::Tensor &t) {
    t = t.to(torch::kByte).to(torch::kCPU);
    cv::Mat wrapped(height_, width_, CV_8U, t.data_ptr<uint8_t>());
    return wrapped.clone();
  }

  cv::Mat fit(const cv::Mat &img, const cv::Mat &labels) {
    cv::Mat out = labels;
    if (img.rows != labels.rows || img.cols != labels.cols)
      cv::resize(labels, out, cv::Size(img.cols, img.rows));
    if (out.at<uint8_t>(0, 0) > 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      out.at<uint8_t>(0, 0) = 1;
    return out;
  }

  void infer(const cv::Mat &img, const torch::Tensor &logits) {
    torch::Tensor pred = logits.argmax(1)[0];
    labels_ = to_mat(pred);
    labels_ = fit(img, labels_);
  }

  // The same through a reference parameter the caller reads back.
  void infer_into(const cv::Mat &img, const torch::Tensor &logits, cv::Mat &labels) {
    torch::Tensor pred = logits.argmax(1)[0];
    labels = to_mat(pred);
    labels = fit(img, labels);
  }

  void crop_best(const cv::Mat &img, const torch::Tensor &boxes) {
    int x = boxes[0][0].item<int>(), w = boxes[0][2].item<int>();
    crop_ = img(cv::Rect(x, 0, w, img.rows)).clone();
    if (crop_.cols > 16)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      crop_ = crop_(cv::Rect(0, 0, 16, crop_.rows)).clone();
  }

private:
  cv::Mat labels_, crop_;
  int width_ = 512, height_ = 512;
};
