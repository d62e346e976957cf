// A stand-in for OpenCV's videoio.hpp: the declarations the golden cases use, with OpenCV's
// signatures (a camera that fills the image it is given).
#pragma once
#include "opencv2/core.hpp"

namespace cv {
class VideoCapture {
public:
  VideoCapture();
  explicit VideoCapture(int index);
  bool isOpened() const;
  bool read(OutputArray image);
  VideoCapture &operator>>(Mat &image);
};
} // namespace cv
