// A stand-in for OpenCV's core module in the goldens: the image class and the array wrappers its
// functions take, declared as OpenCV declares them (cv::Mat holds host pixels and a shape; a
// function takes cv::InputArray and writes cv::OutputArray, both built from a cv::Mat by a
// converting constructor; Rect_, Point_ and Size_ name their coordinates' type value_type; m.t()
// is a cv::MatExpr). Declarations only: the goldens are analysed, not linked.
#pragma once
#include <cstddef>
#include <vector>

#define CV_8U 0
#define CV_32F 5
#define CV_8UC1 0
#define CV_8UC3 16

namespace cv {
typedef unsigned char uchar;

template <typename T> struct Size_ {
  typedef T value_type;
  Size_() = default;
  Size_(T width, T height) : width(width), height(height) {}
  T width = 0, height = 0;
};
using Size = Size_<int>;

template <typename T> struct Rect_ {
  typedef T value_type;
  Rect_() = default;
  Rect_(T x, T y, T width, T height) : x(x), y(y), width(width), height(height) {}
  T x = 0, y = 0, width = 0, height = 0;
};
using Rect = Rect_<int>;

struct Range {
  Range(int start, int end) : start(start), end(end) {}
  int start, end;
};

struct MatSize {
  Size operator()() const;
  int operator[](int i) const;
  int *p;
};

class Mat;
class MatExpr;
class _InputArray {
public:
  _InputArray(const Mat &m);
};
class _OutputArray : public _InputArray {
public:
  _OutputArray(Mat &m);
  _OutputArray(const Mat &m); // a region of interest, a temporary header over another image's pixels
  template <typename T> _OutputArray(std::vector<T> &v);
};
class _InputOutputArray : public _OutputArray {
public:
  _InputOutputArray(Mat &m);
};
typedef const _InputArray &InputArray;
typedef const _OutputArray &OutputArray;
typedef const _InputOutputArray &InputOutputArray;
typedef const _OutputArray &OutputArrayOfArrays;

template <typename T> struct Point_ {
  typedef T value_type;
  Point_() = default;
  Point_(T x, T y) : x(x), y(y) {}
  T x = 0, y = 0;
};
using Point = Point_<int>;

struct Scalar {
  Scalar(double v0, double v1 = 0, double v2 = 0, double v3 = 0);
};

class Mat {
public:
  Mat();
  // Inline as in OpenCV, whose headers define much of cv::Mat: a header filter selecting them
  // must not make these bodies the project's (graphify-host-sync/library_headers_selected.cpp).
  Mat(int rows, int cols, int type) : rows(rows), cols(cols) { create(rows, cols, type); }
  Mat(int rows, int cols, int type, const Scalar &s);
  Mat(int rows, int cols, int type, void *data, size_t step = 0);
  Mat(Size size, int type);
  Mat(const Mat &m);
  Mat(const Mat &m, const Rect &roi);
  Mat &operator=(const Mat &m);
  Mat operator()(const Rect &roi) const;
  Mat operator()(Range rowRange, Range colRange) const;
  Mat row(int y) const;
  Mat col(int x) const;
  Mat clone() const;
  MatExpr t() const;
  void copyTo(OutputArray m) const;
  void convertTo(OutputArray m, int rtype, double alpha = 1, double beta = 0) const;
  Mat &setTo(InputArray value);
  void create(int rows, int cols, int type);
  size_t total() const;
  bool empty() const;
  int channels() const;
  int type() const;
  template <typename T> T &at(int i0, int i1) { return reinterpret_cast<T *>(data)[i0 * cols + i1]; }
  template <typename T> T *ptr(int i0 = 0);
  Mat &operator*=(double s);

  int flags = 0;
  int dims = 0;
  int rows = 0;
  int cols = 0;
  uchar *data = nullptr;
  MatSize size;
};

// The lazy result of matrix arithmetic (`m.t()`), made into a cv::Mat by its conversion.
class MatExpr {
public:
  operator Mat() const;
};

Mat operator*(const Mat &a, double s);
} // namespace cv
