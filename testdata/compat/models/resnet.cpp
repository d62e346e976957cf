// A ResNet in the style of the public LibTorch ports of torchvision's resnet.py: BasicBlock and
// Bottleneck residual blocks, a Sequential of layers built in a loop, kaiming initialisation in
// the constructor, and a global-average-pooled linear head.
#include <torch/torch.h>

#include <vector>

namespace nn = torch::nn;

nn::Conv2dOptions conv_options(int64_t in_planes, int64_t out_planes, int64_t kernel_size, int64_t stride = 1,
                               int64_t padding = 0, bool with_bias = false) {
  nn::Conv2dOptions options(in_planes, out_planes, kernel_size);
  options.stride(stride);
  options.padding(padding);
  options.bias(with_bias);
  return options;
}

struct BasicBlock : nn::Module {
  static const int expansion;

  int64_t stride;
  nn::Conv2d conv1;
  nn::BatchNorm2d bn1;
  nn::Conv2d conv2;
  nn::BatchNorm2d bn2;
  nn::Sequential downsample;

  BasicBlock(int64_t inplanes, int64_t planes, int64_t stride_ = 1, nn::Sequential downsample_ = nn::Sequential())
      : stride(stride_),
        conv1(conv_options(inplanes, planes, 3, stride_, 1)),
        bn1(planes),
        conv2(conv_options(planes, planes, 3, 1, 1)),
        bn2(planes),
        downsample(downsample_) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("conv2", conv2);
    register_module("bn2", bn2);
    if (!downsample->is_empty()) {
      register_module("downsample", downsample);
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    at::Tensor residual(x.clone());

    x = conv1->forward(x);
    x = bn1->forward(x);
    x = torch::relu(x);

    x = conv2->forward(x);
    x = bn2->forward(x);

    if (!downsample->is_empty()) {
      residual = downsample->forward(residual);
    }

    x += residual;
    x = torch::relu(x);
    return x;
  }
};

const int BasicBlock::expansion = 1;

struct BottleNeck : nn::Module {
  static const int expansion;

  int64_t stride;
  nn::Conv2d conv1;
  nn::BatchNorm2d bn1;
  nn::Conv2d conv2;
  nn::BatchNorm2d bn2;
  nn::Conv2d conv3;
  nn::BatchNorm2d bn3;
  nn::Sequential downsample;

  BottleNeck(int64_t inplanes, int64_t planes, int64_t stride_ = 1, nn::Sequential downsample_ = nn::Sequential())
      : stride(stride_),
        conv1(conv_options(inplanes, planes, 1)),
        bn1(planes),
        conv2(conv_options(planes, planes, 3, stride_, 1)),
        bn2(planes),
        conv3(conv_options(planes, planes * expansion, 1)),
        bn3(planes * expansion),
        downsample(downsample_) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("conv2", conv2);
    register_module("bn2", bn2);
    register_module("conv3", conv3);
    register_module("bn3", bn3);
    if (!downsample->is_empty()) {
      register_module("downsample", downsample);
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    at::Tensor residual(x.clone());

    x = torch::relu(bn1->forward(conv1->forward(x)));
    x = torch::relu(bn2->forward(conv2->forward(x)));
    x = bn3->forward(conv3->forward(x));

    if (!downsample->is_empty()) {
      residual = downsample->forward(residual);
    }

    x += residual;
    return torch::relu(x);
  }
};

const int BottleNeck::expansion = 4;

template <class Block>
struct ResNet : nn::Module {
  int64_t inplanes = 16;
  nn::Conv2d conv1;
  nn::BatchNorm2d bn1;
  nn::Sequential layer1;
  nn::Sequential layer2;
  nn::Sequential layer3;
  nn::Linear fc;

  ResNet(const std::vector<int64_t>& layers, int64_t num_classes = 10)
      : conv1(conv_options(3, 16, 3, 1, 1)),
        bn1(16),
        layer1(_make_layer(16, layers[0])),
        layer2(_make_layer(32, layers[1], 2)),
        layer3(_make_layer(64, layers[2], 2)),
        fc(64 * Block::expansion, num_classes) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("layer1", layer1);
    register_module("layer2", layer2);
    register_module("layer3", layer3);
    register_module("fc", fc);

    for (auto& m : modules(/*include_self=*/false)) {
      if (auto* conv = m->as<nn::Conv2d>()) {
        nn::init::kaiming_normal_(conv->weight, /*a=*/0, torch::kFanOut, torch::kReLU);
      } else if (auto* bn = m->as<nn::BatchNorm2d>()) {
        nn::init::constant_(bn->weight, 1);
        nn::init::constant_(bn->bias, 0);
      }
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn1->forward(conv1->forward(x)));
    x = torch::max_pool2d(x, 3, 2, 1);

    x = layer1->forward(x);
    x = layer2->forward(x);
    x = layer3->forward(x);

    x = torch::adaptive_avg_pool2d(x, {1, 1});
    x = x.view({x.sizes()[0], -1});
    return fc->forward(x);
  }

 private:
  nn::Sequential _make_layer(int64_t planes, int64_t blocks, int64_t stride = 1) {
    nn::Sequential downsample;
    if (stride != 1 || inplanes != planes * Block::expansion) {
      downsample = nn::Sequential(nn::Conv2d(conv_options(inplanes, planes * Block::expansion, 1, stride)),
                                  nn::BatchNorm2d(planes * Block::expansion));
    }
    nn::Sequential layers;
    layers->push_back(Block(inplanes, planes, stride, downsample));
    inplanes = planes * Block::expansion;
    for (int64_t i = 1; i < blocks; i++) {
      layers->push_back(Block(inplanes, planes));
    }
    return layers;
  }
};

ResNet<BasicBlock> resnet_small(int64_t num_classes) { return ResNet<BasicBlock>({2, 1, 1}, num_classes); }

ResNet<BottleNeck> resnet_bottleneck(int64_t num_classes) { return ResNet<BottleNeck>({1, 1, 1}, num_classes); }
