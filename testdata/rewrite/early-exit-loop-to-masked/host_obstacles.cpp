// early-exit-loop-to-masked: what blocks is named where host code is the obstacle. Coordinates
// read into value types with a value_type that convert themselves (OpenCV's Point_) are collected;
// a loop with a data-dependent bound whose body fills a host list is host work; a branch on a
// struct a host library computed from a selection names that struct; CTC's collapse (a write at a
// counter the branch advances) is a compaction, as the reads deciding it and its accessor say; a
// value stored into rows[i][j] of a host container is collected; a to(kCPU) copied back to the
// device is a round trip whose copies both go.
#include <torch/torch.h>

#include <cstring>
#include <vector>

template <typename T> struct Point_ {
  using value_type = T;
  T x, y;
  Point_(T a, T b) : x(a), y(b) {}
  template <typename U> operator Point_<U>() const { return Point_<U>(static_cast<U>(x), static_cast<U>(y)); }
};
struct Rect {
  Rect(Point_<int> a, Point_<int> b);
};
struct Mat {
  Mat(int rows, int cols);
  unsigned char *data;
};
struct RotatedBox {
  float w, h;
};
RotatedBox fit_box(const Mat &points);

std::vector<Rect> boxes_for_host_nms(const torch::Tensor &boxes) {
  std::vector<Rect> rects;
  for (int i = 0; i < 4; ++i) {
    double x1 = boxes[i][0].item<double>(); // EXPECT-RECIPE: the value is collected into a host container
    double y1 = boxes[i][1].item<double>(); // EXPECT-RECIPE: the value is collected into a host container
    rects.push_back(Rect(Point_<double>(x1, y1), Point_<double>(x1 + 4, y1 + 4)));
  }
  return rects;
}

std::vector<float> areas_per_label(const torch::Tensor &labels) {
  int n = labels.max().item<int>() + 1; // EXPECT-NO-FIX: the loop's body does host work \('areas.push_back' \(line 47\) fills a host container\).*move the loop out of the graph region
  std::vector<float> areas;
  for (int i = 1; i < n; ++i) { // EXPECT-NO-FIX: the loop's body does host work \('areas.push_back' \(line 47\) fills a host container\)
    auto pts = torch::nonzero(labels == i);
    auto c = pts.to(torch::kFloat).cpu();
    areas.push_back(static_cast<float>(c.size(0)));
  }
  return areas;
}

std::vector<float> rows_to_host(const torch::Tensor &x, float t) {
  auto sel = x.index({x.select(1, 4) > t});
  std::vector<float> xs;
  for (int64_t i = 0; i < sel.size(0); ++i) // EXPECT-NO-FIX: the loop's body does host work \('xs.push_back' \(line 56\) fills a host container\)
    xs.push_back(sel[i][0].item<float>());
  return xs;
}

int wider_than_tall(const torch::Tensor &mask) {
  auto p = torch::nonzero(mask).to(torch::kFloat).cpu();
  Mat pm(static_cast<int>(p.size(0)), 2);
  std::memcpy(pm.data, p.data_ptr(), sizeof(float) * p.numel());
  RotatedBox r = fit_box(pm);
  if (r.w > r.h) return 1; // EXPECT-NO-FIX: the condition depends on 'r', a host 'RotatedBox' \(not a number\) computed on the host from a value-dependent selection \(line 61\)
  return 0;
}

bool known_id(const torch::Tensor &x, const std::vector<int> &table) {
  int id = x.argmax().item<int>(); // EXPECT-NO-FIX: the function returns a host 'bool' that the test decides: return the result as a 0-d tensor
  if (id < static_cast<int>(table.size())) return true; // EXPECT-NO-FIX: the function returns a host 'bool' that the test decides
  return false;
}

torch::Tensor collapse_repeats(const torch::Tensor &ids_dev, int64_t blank) {
  auto ids = ids_dev.to(torch::kCPU);
  auto out = torch::zeros_like(ids);
  auto in_a = ids.accessor<int64_t, 1>();
  auto out_a = out.accessor<int64_t, 1>();
  int64_t len = 0, prev = blank;
  for (int64_t t = 0; t < ids.size(0); ++t) {
    int64_t cur = in_a[t];
    if (cur != blank && cur != prev) { // EXPECT-NO-FIX: the branch compacts: 'out_a\[len\]' \(line 84\) is written at 'len', which the branch advances.*stable argsort of the negated mask
      out_a[len] = cur;
      ++len;
    }
    prev = cur;
  }
  return out.slice(0, 0, len);
}

std::vector<std::vector<uint64_t>> tokens_to_host(const torch::Tensor &tokens) {
  std::vector<std::vector<uint64_t>> out(2, std::vector<uint64_t>(8));
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 8; ++j)
      out[i][j] = static_cast<uint64_t>(tokens[i][j].item<int64_t>()); // EXPECT-RECIPE: the value is collected into a host container
  return out;
}

torch::Tensor doubled_through_host(const torch::Tensor &x) {
  auto h = x.to(torch::kCPU);
  auto y = h * 2;
  return y.to(torch::kCUDA); // EXPECT-RECIPE: the tensor was copied to host memory \(line 101\) and is copied back here, a round trip through the host: keep it on the device and drop both copies
}

struct Size2 {
  using value_type = int; // a value type, not a container: no begin()
  int width, height;
};

int upright(const torch::Tensor &mask) {
  auto p = torch::nonzero(mask).to(torch::kFloat).cpu();
  Mat pm(static_cast<int>(p.size(0)), 2);
  std::memcpy(pm.data, p.data_ptr(), sizeof(float) * p.numel());
  RotatedBox r = fit_box(pm);
  Size2 s;
  s.width = static_cast<int>(r.w);
  s.height = static_cast<int>(r.h);
  if (s.width < s.height) return 1; // EXPECT-NO-FIX: the condition depends on 's', a host 'Size2' \(not a number\) computed on the host from a value-dependent selection
  return 0;
}

std::string label_of(const torch::Tensor &x, const std::map<int, std::string> &names) {
  int k = x.argmax().item<int>(); // EXPECT-NO-FIX: the function returns a host 'std::string' that the test decides
  if (names.count(k) > 0) return names.at(k); // EXPECT-NO-FIX: the function returns a host 'std::string' that the test decides
  return "";
}
