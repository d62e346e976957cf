// A YOLOv5-style neck and detection head in the style of the public LibTorch YOLO ports: Conv
// (conv + batch norm + SiLU) blocks, a C3-like bottleneck, SPPF max pooling, nearest upsampling
// with concatenation, and a Detect layer that turns each level's feature map into boxes with a
// meshgrid of cell offsets and anchor sizes.
#include <torch/torch.h>

#include <tuple>
#include <vector>

struct ConvImpl : torch::nn::Module {
  ConvImpl(int64_t c1, int64_t c2, int64_t k = 1, int64_t s = 1, int64_t g = 1)
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(c1, c2, k)
                                                           .stride(s)
                                                           .padding(k / 2)
                                                           .groups(g)
                                                           .bias(false)))),
        bn(register_module("bn", torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(c2).eps(1e-3).momentum(0.03)))) {}

  torch::Tensor forward(torch::Tensor x) { return torch::silu(bn(conv(x))); }

  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
};
TORCH_MODULE(Conv);

struct BottleneckImpl : torch::nn::Module {
  BottleneckImpl(int64_t c1, int64_t c2, bool shortcut = true)
      : cv1(register_module("cv1", Conv(c1, c2, 1, 1))),
        cv2(register_module("cv2", Conv(c2, c2, 3, 1))),
        add(shortcut && c1 == c2) {}

  torch::Tensor forward(torch::Tensor x) { return add ? x + cv2(cv1(x)) : cv2(cv1(x)); }

  Conv cv1, cv2;
  bool add;
};
TORCH_MODULE(Bottleneck);

struct C3Impl : torch::nn::Module {
  C3Impl(int64_t c1, int64_t c2, int64_t n = 1, bool shortcut = true) {
    const int64_t c_ = c2 / 2;
    cv1 = register_module("cv1", Conv(c1, c_, 1, 1));
    cv2 = register_module("cv2", Conv(c1, c_, 1, 1));
    cv3 = register_module("cv3", Conv(2 * c_, c2, 1));
    for (int64_t i = 0; i < n; ++i) m->push_back(Bottleneck(c_, c_, shortcut));
    register_module("m", m);
  }

  torch::Tensor forward(torch::Tensor x) { return cv3(torch::cat({m->forward(cv1(x)), cv2(x)}, 1)); }

  Conv cv1{nullptr}, cv2{nullptr}, cv3{nullptr};
  torch::nn::Sequential m;
};
TORCH_MODULE(C3);

struct SPPFImpl : torch::nn::Module {
  SPPFImpl(int64_t c1, int64_t c2, int64_t k = 5)
      : cv1(register_module("cv1", Conv(c1, c1 / 2, 1, 1))),
        cv2(register_module("cv2", Conv(c1 / 2 * 4, c2, 1, 1))),
        m(register_module("m", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(k).stride(1).padding(k / 2)))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = cv1(x);
    auto y1 = m(x);
    auto y2 = m(y1);
    return cv2(torch::cat({x, y1, y2, m(y2)}, 1));
  }

  Conv cv1, cv2;
  torch::nn::MaxPool2d m;
};
TORCH_MODULE(SPPF);

struct DetectImpl : torch::nn::Module {
  DetectImpl(int64_t nc, std::vector<std::vector<double>> anchors, std::vector<int64_t> ch,
             std::vector<double> strides)
      : nc(nc), no(nc + 5), nl(static_cast<int64_t>(anchors.size())),
        na(static_cast<int64_t>(anchors[0].size() / 2)), stride(std::move(strides)) {
    std::vector<torch::Tensor> a;
    for (const auto& level : anchors) a.push_back(torch::tensor(level).view({-1, 2}));
    anchor_grid = register_buffer("anchor_grid", torch::stack(a).view({nl, 1, na, 1, 1, 2}));
    for (int64_t c : ch) m->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(c, no * na, 1)));
    register_module("m", m);
  }

  std::tuple<torch::Tensor, std::vector<torch::Tensor>> forward(std::vector<torch::Tensor> x) {
    std::vector<torch::Tensor> z;
    for (int64_t i = 0; i < nl; ++i) {
      x[i] = m[i]->as<torch::nn::Conv2d>()->forward(x[i]);
      const int64_t bs = x[i].size(0), ny = x[i].size(2), nx = x[i].size(3);
      x[i] = x[i].view({bs, na, no, ny, nx}).permute({0, 1, 3, 4, 2}).contiguous();

      auto y = x[i].sigmoid();
      auto grid = make_grid(nx, ny);
      auto xy = (y.index({"...", torch::indexing::Slice(0, 2)}) * 2 - 0.5 + grid) * stride[i];
      auto wh = (y.index({"...", torch::indexing::Slice(2, 4)}) * 2).pow(2) * anchor_grid[i];
      auto rest = y.index({"...", torch::indexing::Slice(4, torch::indexing::None)});
      z.push_back(torch::cat({xy, wh, rest}, -1).view({bs, -1, no}));
    }
    return {torch::cat(z, 1), x};
  }

  static torch::Tensor make_grid(int64_t nx, int64_t ny) {
    auto yx = torch::meshgrid({torch::arange(ny), torch::arange(nx)}, "ij");
    return torch::stack({yx[1], yx[0]}, 2).view({1, 1, ny, nx, 2}).to(torch::kFloat);
  }

  int64_t nc, no, nl, na;
  std::vector<double> stride;
  torch::Tensor anchor_grid;
  torch::nn::ModuleList m;
};
TORCH_MODULE(Detect);

// Backbone stub + PAN neck + head on three levels (strides 8, 16, 32).
struct TinyYoloImpl : torch::nn::Module {
  explicit TinyYoloImpl(int64_t nc = 3) {
    stem = register_module("stem", Conv(3, 8, 3, 2));
    d1 = register_module("d1", Conv(8, 16, 3, 2));
    d2 = register_module("d2", Conv(16, 16, 3, 2));
    c2 = register_module("c2", C3(16, 16));
    d3 = register_module("d3", Conv(16, 32, 3, 2));
    c3 = register_module("c3", C3(32, 32));
    d4 = register_module("d4", Conv(32, 32, 3, 2, /*g=*/2));
    sppf = register_module("sppf", SPPF(32, 32));
    lat = register_module("lat", Conv(32, 32, 1, 1));
    up = register_module("up", torch::nn::Upsample(torch::nn::UpsampleOptions()
                                                       .scale_factor(std::vector<double>{2, 2})
                                                       .mode(torch::kNearest)));
    merge = register_module("merge", C3(64, 32, 1, false));
    std::vector<std::vector<double>> anchors{{10, 13, 16, 30}, {30, 61, 62, 45}, {116, 90, 156, 198}};
    detect = register_module("detect", Detect(nc, anchors, std::vector<int64_t>{16, 32, 32},
                                              std::vector<double>{8, 16, 32}));
  }

  torch::Tensor forward(torch::Tensor x) {
    auto p3 = c2(d2(d1(stem(x))));
    auto p4 = c3(d3(p3));
    auto p5 = sppf(d4(p4));
    auto n4 = merge(torch::cat({up(lat(p5)), p4}, 1));
    return std::get<0>(detect->forward({p3, n4, p5}));
  }

  Conv stem{nullptr}, d1{nullptr}, d2{nullptr}, d3{nullptr}, d4{nullptr}, lat{nullptr};
  C3 c2{nullptr}, c3{nullptr}, merge{nullptr};
  SPPF sppf{nullptr};
  torch::nn::Upsample up{nullptr};
  Detect detect{nullptr};
};
TORCH_MODULE(TinyYolo);
