// A stand-in for OpenCV's image processing module in the goldens (see core.hpp).
#pragma once
#include "opencv2/core.hpp"

namespace cv {
enum ColorConversionCodes { COLOR_BGR2RGB = 4, COLOR_BGR2GRAY = 6 };
enum InterpolationFlags { INTER_LINEAR = 1 };
enum ThresholdTypes { THRESH_BINARY = 0, THRESH_BINARY_INV = 1 };
enum RetrievalModes { RETR_EXTERNAL = 0, RETR_LIST = 1 };
enum ContourApproximationModes { CHAIN_APPROX_NONE = 1, CHAIN_APPROX_SIMPLE = 2 };

void resize(InputArray src, OutputArray dst, Size dsize, double fx = 0, double fy = 0,
            int interpolation = INTER_LINEAR);
void cvtColor(InputArray src, OutputArray dst, int code, int dstCn = 0);
void GaussianBlur(InputArray src, OutputArray dst, Size ksize, double sigmaX, double sigmaY = 0);
double threshold(InputArray src, OutputArray dst, double thresh, double maxval, int type);
void findNonZero(InputArray src, OutputArray idx);
void findContours(InputArray image, OutputArrayOfArrays contours, int mode, int method, Point offset = Point());
void split(const Mat &src, Mat *mvbegin);
void split(InputArray m, OutputArrayOfArrays mv);
int connectedComponents(InputArray image, OutputArray labels, int connectivity = 8, int ltype = 4);
void circle(InputOutputArray img, Point center, int radius, const Scalar &color,
            int thickness = 1);
void rectangle(InputOutputArray img, Rect rec, const Scalar &color, int thickness = 1);
void line(InputOutputArray img, Point pt1, Point pt2, const Scalar &color, int thickness = 1);
} // namespace cv
