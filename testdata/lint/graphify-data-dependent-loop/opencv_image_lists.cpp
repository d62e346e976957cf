// Lists of images (a C array of cv::Mat that cv::split fills, a std::vector<cv::Mat>) keep their
// images' shapes apart from their pixels, as one image does: walking the rows of a plane, or of
// the labels a helper computes from the last image of a list, is a fixed number of steps when
// the code gave the images their shape. Pixels set under a condition on tensor data are tensor
// data, and so is what OpenCV finds in them (contours). Written the way text and instance
// segmentation post-processing handles its score maps (OpenCV's declarations from a stand-in
// header).
// RUN-ARGS: --graph-region=detect_text
#include <opencv2/imgproc.hpp>
#include <torch/torch.h>

#include <cstring>
#include <vector>

// Labels of the smallest kernel, row by row: as many rows as the image has.
static void label_rows(std::vector<cv::Mat> &kernels, std::vector<std::vector<int>> &rows) {
  cv::Mat labels;
  int count = cv::connectedComponents(kernels[kernels.size() - 1], labels, 4);
  for (int r = 0; r < labels.rows; ++r) {
    std::vector<int> row(labels.cols);
    for (int c = 0; c < labels.cols; ++c) {
      int label = labels.at<int>(r, c);
      if (label == 0 || label > count)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        continue;
      row[c] = label;
    }
    rows.push_back(row);
  }
}

int64_t detect_text(torch::Tensor score_maps, int h, int w) {
  torch::Tensor host = score_maps.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat maps(h, w, CV_8UC3);
  std::memcpy(maps.data, host.data_ptr(), host.numel());
  cv::Mat planes[3];
  std::vector<cv::Mat> kernels;
  for (int i = 0; i < 3; ++i) {
    cv::Mat bin;
    cv::split(maps, planes);
    cv::threshold(planes[i], bin, 128, 255, cv::THRESH_BINARY);
    kernels.push_back(bin);
  }
  int64_t n = 0;
  std::vector<cv::Mat> channels;
  cv::split(maps, channels);
  for (int r = 0; r < channels[0].rows; ++r)
    n += r;
  for (int r = 0; r < planes[0].rows; ++r)
    for (int c = 0; c < kernels.back().cols; ++c)
      n += c;
  std::vector<std::vector<int>> rows;
  label_rows(kernels, rows);
  cv::Mat canvas(h, w, CV_8UC1, cv::Scalar(255));
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < static_cast<size_t>(w); ++c)
      if (rows[r][c] != 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        canvas.at<cv::uchar>(r, c) = 0;
  // The canvas's pixels now say where the labels were: the contours follow them.
  cv::Mat inverted;
  cv::threshold(canvas, inverted, 128, 255, cv::THRESH_BINARY_INV);
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(inverted, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
  for (size_t i = 0; i < contours.size(); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += static_cast<int64_t>(contours[i].size());
  // An element replaced by an image whose shape follows the data has that shape.
  int k = static_cast<int>(rows.size()) + static_cast<int>(n % 7);
  planes[1] = cv::Mat(k, w, CV_8UC1);
  for (int r = 0; r < planes[1].rows; ++r)
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    ++n;
  kernels.push_back(cv::Mat(k, w, CV_8UC1));
  for (int r = 0; r < kernels.back().rows; ++r)
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    ++n;
  return n;
}
