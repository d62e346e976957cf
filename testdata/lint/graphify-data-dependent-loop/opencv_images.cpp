// An image (the opencv pack's host_arrays: cv::Mat) keeps its shape apart from its pixels: pixels
// copied out of a tensor or cropped at positions read from one are tensor data, but the rows and
// columns the code gave the image are not, and neither are those of an image resized to a
// constant size. Written the way segmentation and re-identification post-processing handle masks
// and crops (OpenCV's declarations from a stand-in header).
// RUN-ARGS: --graph-region=*
#include <opencv2/imgproc.hpp>
#include <torch/torch.h>

#include <vector>

// A mask viewed as an image of a static size: walking its rows and columns is a fixed number of
// steps; what a pixel holds is tensor data.
int64_t mask_area(torch::Tensor logits) {
  torch::Tensor m = logits.argmax(0).to(torch::kByte).cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat mask(256, 256, CV_8U, m.data_ptr<uint8_t>());
  int64_t area = 0;
  for (int r = 0; r < mask.rows; ++r)
    for (int c = 0; c < mask.cols; ++c)
      if (mask.at<uint8_t>(r, c) > 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        ++area;
  // A method's output holds what its object held.
  cv::Mat scaled;
  mask.convertTo(scaled, CV_32F, 1.0 / 255);
  if (scaled.at<float>(0, 0) > 0.5f)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
  // CHECK-NOTES: :[[@LINE-3]]:8: note: written by 'convertTo' here
    ++area;
  cv::Mat big;
  cv::resize(mask, big, cv::Size(512, 512));
  for (int r = 0; r < big.rows; ++r)
    area += *big.ptr<uint8_t>(r);
  return area;
}

// A helper walking an image's rows: a fixed number of steps for an image of a static shape.
static float row_means(const cv::Mat &img) {
  float s = 0;
  for (int r = 0; r < img.rows; ++r)
    s += 1.0f / img.cols;
  return s;
}

// Crops at boxes read from the detections: a crop's shape follows the data, the crop resized to
// the extractor's input size does not; scaled by a factor it still does.
torch::Tensor crop_features(const cv::Mat &frame, torch::Tensor boxes) {
  std::vector<torch::Tensor> feats;
  for (int64_t i = 0; i < 4; ++i) {
    int x0 = boxes[i][0].item<int>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int y0 = boxes[i][1].item<int>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int w = boxes[i][2].item<int>() - x0;
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cv::Mat crop = frame(cv::Rect(x0, y0, w, 2 * w));
    cv::Mat fixed;
    cv::resize(crop, fixed, cv::Size(64, 128));
    for (int r = 0; r < fixed.rows; ++r)
      fixed.row(r) *= 2.0;
    float mean = row_means(fixed);
    cv::Mat half;
    cv::resize(crop, half, cv::Size(), 0.5, 0.5);
    for (int r = 0; r < half.rows; ++r)
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: written by 'resize' here
      half.row(r) *= 2.0;
    // Its element type is the crop's, whatever its size (cv::Mat::type: metadata_query).
    if (half.type() != CV_8UC3)
      half.convertTo(half, CV_8UC3);
    cv::Mat rgb, f;
    cv::cvtColor(fixed, rgb, cv::COLOR_BGR2RGB);
    rgb.convertTo(f, CV_32F, mean / 255);
    feats.push_back(torch::from_blob(f.data, {f.rows, f.cols, 3}, torch::kFloat).clone());
  }
  return torch::stack(feats);
}

// A call the pack does not describe may shape what it writes by the pixels (the points of a
// mask), unlike one it does (a threshold keeps the mask's shape); an image sized by a value read
// from a tensor has that size.
int64_t points(torch::Tensor scores) {
  torch::Tensor s = scores.to(torch::kByte).contiguous();
  cv::Mat mask(64, 64, CV_8U, s.data_ptr<uint8_t>());
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat bin, pts;
  cv::threshold(mask, bin, 127, 255, 0);
  int64_t n = 0;
  for (int r = 0; r < bin.rows; ++r)
    n += r;
  cv::findNonZero(bin, pts);
  for (int r = 0; r < pts.rows; ++r)
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written by 'findNonZero' here
    n += r;
  int k = scores.sum().item<int>();
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat top(k, 4, CV_32F);
  for (int r = 0; r < top.rows; ++r)
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += r;
  return n;
}

// Drawing at positions read from a tensor writes pixels, not the canvas's shape: its rows and its
// type stay what the code gave it (a keypoint demo drawing joints, then walking the canvas).
int64_t draw_keypoints(torch::Tensor kpts) {
  cv::Mat canvas(480, 640, CV_8UC3);
  for (int64_t i = 0; i < 17; ++i) {
    int x = kpts[i][0].item<int>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int y = kpts[i][1].item<int>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cv::circle(canvas, cv::Point(x, y), 3, cv::Scalar(0, 255, 0), -1);
    cv::rectangle(canvas, cv::Rect(x - 2, y - 2, 4, 4), cv::Scalar(255, 0, 0));
    cv::line(canvas, cv::Point(0, 0), cv::Point(x, y), cv::Scalar(0, 0, 255));
  }
  int64_t n = 0;
  for (int r = 0; r < canvas.rows; ++r)
    n += r;
  if (canvas.type() == CV_8UC3)
    ++n;
  return n;
}

// A transposed image over a tensor's memory, and the labels of an image, keep the shapes the code
// gave: their rows are a fixed number of iterations, whatever the pixels.
int64_t transposed_and_labelled(torch::Tensor scores) {
  cv::Mat flat(84, 8400, CV_32F, scores.data_ptr<float>());
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat rows = flat.t();
  int64_t n = 0;
  for (int r = 0; r < rows.rows; ++r)
    n += r;
  cv::Mat cols = cv::Mat(84, 8400, CV_32F, scores.data_ptr<float>()).t();
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  for (int r = 0; r < cols.rows; ++r)
    n += r;
  cv::Mat binary, labels;
  cv::threshold(flat, binary, 0.5, 1.0, 0);
  cv::connectedComponents(binary, labels, 4);
  for (int r = 0; r < labels.rows; ++r)
    n += r;
  return n;
}

// A crop pasted into a canvas through a region of interest (`chip.copyTo(canvas(roi))`): the
// region shares the canvas's pixels, which now hold the crop's (tensor data), so the contours
// found on it follow the data; the canvas's element type (`chip.type()`) is none of it.
int64_t pasted_contours(torch::Tensor mask_logits, cv::Rect roi) {
  torch::Tensor m = mask_logits.sigmoid().cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cv::Mat chip(64, 64, CV_32F, m.data_ptr<float>());
  cv::Mat canvas(cv::Size(256, 256), chip.type());
  chip.copyTo(canvas(roi));
  cv::Mat bin;
  cv::threshold(canvas, bin, 0.5, 255, cv::THRESH_BINARY);
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(bin, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  int64_t n = 0;
  for (const auto &c : contours)
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += static_cast<int64_t>(c.size());
  return n;
}
