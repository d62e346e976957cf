// A UNet in the style of the public LibTorch segmentation ports: DoubleConv blocks, max-pool
// downsampling, transposed-convolution upsampling with F::pad to match the skip connection, and
// GroupNorm / InstanceNorm2d variants of the normalisation.
#include <torch/torch.h>

using namespace torch;
namespace F = torch::nn::functional;

class DoubleConvImpl : public nn::Module {
 public:
  DoubleConvImpl(int64_t in_channels, int64_t out_channels, int64_t groups = 0) {
    seq = nn::Sequential(nn::Conv2d(nn::Conv2dOptions(in_channels, out_channels, 3).padding(1).bias(false)));
    if (groups > 0) {
      seq->push_back(nn::GroupNorm(nn::GroupNormOptions(groups, out_channels)));
    } else {
      seq->push_back(nn::BatchNorm2d(out_channels));
    }
    seq->push_back(nn::ReLU(nn::ReLUOptions().inplace(true)));
    seq->push_back(nn::Conv2d(nn::Conv2dOptions(out_channels, out_channels, 3).padding(1).bias(false)));
    seq->push_back(nn::InstanceNorm2d(nn::InstanceNorm2dOptions(out_channels).affine(true)));
    seq->push_back(nn::ReLU(nn::ReLUOptions().inplace(true)));
    register_module("seq", seq);
  }

  Tensor forward(const Tensor& x) { return seq->forward(x); }

 private:
  nn::Sequential seq{nullptr};
};
TORCH_MODULE(DoubleConv);

class DownImpl : public nn::Module {
 public:
  DownImpl(int64_t in_channels, int64_t out_channels)
      : pool(nn::MaxPool2dOptions(2)), conv(in_channels, out_channels, /*groups=*/4) {
    register_module("pool", pool);
    register_module("conv", conv);
  }

  Tensor forward(const Tensor& x) { return conv(pool(x)); }

 private:
  nn::MaxPool2d pool;
  DoubleConv conv;
};
TORCH_MODULE(Down);

class UpImpl : public nn::Module {
 public:
  UpImpl(int64_t in_channels, int64_t out_channels, bool bilinear) : bilinear_(bilinear) {
    if (bilinear) {
      up = nn::Sequential(nn::Upsample(nn::UpsampleOptions()
                                           .scale_factor(std::vector<double>{2.0, 2.0})
                                           .mode(torch::kBilinear)
                                           .align_corners(true)),
                          nn::Conv2d(nn::Conv2dOptions(in_channels, in_channels / 2, 1)));
    } else {
      up = nn::Sequential(
          nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in_channels, in_channels / 2, 2).stride(2)));
    }
    conv = DoubleConv(in_channels, out_channels);
    register_module("up", up);
    register_module("conv", conv);
  }

  Tensor forward(Tensor x1, const Tensor& x2) {
    x1 = up->forward(x1);
    // The skip connection may be larger when the input size is odd: pad x1 to match.
    const int64_t diff_y = x2.size(2) - x1.size(2);
    const int64_t diff_x = x2.size(3) - x1.size(3);
    x1 = F::pad(x1, F::PadFuncOptions({diff_x / 2, diff_x - diff_x / 2, diff_y / 2, diff_y - diff_y / 2}));
    return conv(torch::cat({x2, x1}, /*dim=*/1));
  }

 private:
  bool bilinear_;
  nn::Sequential up{nullptr};
  DoubleConv conv{nullptr};
};
TORCH_MODULE(Up);

class UNetImpl : public nn::Module {
 public:
  UNetImpl(int64_t n_channels, int64_t n_classes, int64_t base = 8)
      : inc(n_channels, base),
        down1(base, base * 2),
        down2(base * 2, base * 4),
        up1(base * 4, base * 2, /*bilinear=*/false),
        up2(base * 2, base, /*bilinear=*/true),
        outc(nn::Conv2dOptions(base, n_classes, 1)) {
    register_module("inc", inc);
    register_module("down1", down1);
    register_module("down2", down2);
    register_module("up1", up1);
    register_module("up2", up2);
    register_module("outc", outc);
  }

  Tensor forward(const Tensor& x) {
    auto x1 = inc(x);
    auto x2 = down1(x1);
    auto x3 = down2(x2);
    auto y = up1(x3, x2);
    y = up2(y, x1);
    // Reflection padding before the 1x1 head, then crop back: exercises the padding modes.
    y = F::pad(y, F::PadFuncOptions({1, 1, 1, 1}).mode(torch::kReflect));
    y = F::pad(y, F::PadFuncOptions({-1, -1, -1, -1}));
    return torch::sigmoid(outc(y));
  }

  DoubleConv inc;
  Down down1, down2;
  Up up1, up2;
  nn::Conv2d outc;
};
TORCH_MODULE(UNet);
