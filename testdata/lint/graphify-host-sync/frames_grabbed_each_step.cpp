// A video loop that draws last frame's detections onto the frame, then grabs the next one with
// cv::VideoCapture::read, as webcam YOLO demos do. read() replaces the image whatever it held, so
// neither the emptiness test after it nor the frame's copy to the device follows the values the
// drawing read from tensors; the reads themselves and the copy from pageable memory are the
// findings.
// RUN-ARGS: --graph-region=run_video
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <torch/torch.h>

void run_video(cv::VideoCapture &cap, torch::jit::Module &model) {
  cv::Mat frame;
  for (int step = 0; step < 100; ++step) {
    cap.read(frame);
    if (frame.empty())
      break;
    auto x = torch::from_blob(frame.data, {1, frame.rows, frame.cols, 3}, torch::kByte).to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:89: warning: 'to' copies a tensor built in host memory ('from_blob', line 17) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto det = model.forward({x.permute({0, 3, 1, 2}).to(torch::kFloat)}).toTensor();
    float left = det[0][0].item().toFloat();
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    float top = det[0][1].item().toFloat();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cv::rectangle(frame, cv::Rect(left, top, 10, 10), cv::Scalar(0, 255, 0), 2);
  }
}
