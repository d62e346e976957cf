// Differential cases for torch::data, the most used API that public LibTorch code needed and the
// shim lacked (scripts/compat-survey): datasets written the way tutorials write them, map with
// Normalize / Stack / Lambda, the sequential and random samplers, make_data_loader's overloads,
// drop_last, epochs, and MNIST read from IDX files the case writes itself. The random sampler
// draws a different permutation on each side, so its cases dump what a permutation must keep.
#include "dump_main.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using diff::Out;
using diff::S;
namespace data = torch::data;

/// n examples: data (3, 2, 2) float from a formula of the index, target the index (long).
class RampDataset : public torch::data::datasets::Dataset<RampDataset> {
 public:
  explicit RampDataset(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t index) override {
    auto i = static_cast<double>(index);
    auto x = torch::arange(12, torch::kFloat).view({3, 2, 2}).mul(0.25).add(i - 1.5);
    return {x, torch::tensor({static_cast<int64_t>(index)})[0]};
  }
  torch::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

/// The same, reached through the shorter torch::data::Dataset spelling and returning a vector of
/// targets of one element (a batch then stacks to (B, 1)).
class PairDataset : public torch::data::Dataset<PairDataset> {
 public:
  torch::data::Example<> get(size_t index) override {
    auto v = static_cast<float>(index);
    return {torch::tensor({v, v * v, -v}), torch::tensor({v / 2})};
  }
  torch::optional<size_t> size() const override { return 5; }
};

template <typename Loader>
Out collect(Loader& loader) {
  std::vector<torch::Tensor> out;
  int64_t batches = 0;
  for (auto& batch : loader) {
    out.push_back(batch.data);
    out.push_back(batch.target);
    ++batches;
  }
  out.push_back(torch::tensor({batches}));
  return out;
}

/// Writes a test-split MNIST (10000 images 28x28, labels) under a fresh folder; `magic` lets a
/// case write a wrong header. Returns the folder.
std::string write_mnist(uint32_t image_magic = 2051, uint32_t count = 10000) {
  char dir[] = "/tmp/graphify-diff-mnist-XXXXXX";
  if (mkdtemp(dir) == nullptr) throw std::runtime_error("mkdtemp failed");
  auto be32 = [](std::ofstream& f, uint32_t v) {
    const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                       static_cast<char>(v)};
    f.write(b, 4);
  };
  std::ofstream images(std::string(dir) + "/t10k-images-idx3-ubyte", std::ios::binary);
  be32(images, image_magic);
  be32(images, count);
  be32(images, 28);
  be32(images, 28);
  std::vector<char> pixels(static_cast<size_t>(count) * 28 * 28);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<char>((i * 37 + i / 784 * 11) % 256);
  images.write(pixels.data(), static_cast<std::streamsize>(pixels.size()));
  std::ofstream labels(std::string(dir) + "/t10k-labels-idx1-ubyte", std::ios::binary);
  be32(labels, 2049);
  be32(labels, count);
  for (uint32_t i = 0; i < count; ++i) labels.put(static_cast<char>((i * 7) % 10));
  return dir;
}

}  // namespace

DIFF_CASE(data_sequential_normalize_stack) {
  auto ds = RampDataset(7)
                .map(data::transforms::Normalize<>({0.5, -1.0, 2.0}, {2.0, 0.5, 1.0}))
                .map(data::transforms::Stack<>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(ds), data::DataLoaderOptions().batch_size(3));
  return collect(*loader);
}

DIFF_CASE(data_normalize_scalar_mean_and_drop_last) {
  auto ds = RampDataset(7).map(data::transforms::Normalize<>(0.1307, 0.3081)).map(data::transforms::Stack<>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(ds), data::DataLoaderOptions(3).drop_last(true).workers(2));
  Out out = collect(*loader);
  out.items.emplace_back(S{static_cast<double>(loader->options().batch_size)});
  out.items.emplace_back(S{static_cast<double>(loader->options().max_jobs)});
  return out;
}

DIFF_CASE(data_unstacked_batches_and_explicit_sampler) {
  // Without a collation a batch is a std::vector of examples.
  auto loader = data::make_data_loader(PairDataset(), data::samplers::SequentialSampler(5), data::DataLoaderOptions(2));
  std::vector<torch::Tensor> out;
  for (auto it = loader->begin(); it != loader->end(); ++it) {
    std::vector<torch::data::Example<>>& batch = *it;
    out.push_back(torch::tensor({static_cast<int64_t>(batch.size())}));
    for (auto& e : batch) out.push_back(e.data + e.target);
  }
  return out;
}

DIFF_CASE(data_epochs_restart_the_sampler) {
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      PairDataset().map(data::transforms::Stack<>()), 4);
  std::vector<torch::Tensor> out;
  for (int epoch = 0; epoch < 2; ++epoch)
    for (auto& batch : *loader) out.push_back(batch.target.squeeze(1) + epoch);
  return out;
}

DIFF_CASE(data_random_sampler_is_a_permutation) {
  torch::manual_seed(3);
  auto loader = data::make_data_loader(RampDataset(10).map(data::transforms::Stack<>()), data::DataLoaderOptions(4));
  std::vector<torch::Tensor> targets;
  std::vector<torch::Tensor> sizes;
  for (auto& batch : *loader) {
    targets.push_back(batch.target);
    sizes.push_back(torch::tensor({batch.data.size(0)}));
  }
  // The order is each library's own draw; the epoch still visits every index once.
  return {std::get<0>(torch::sort(torch::cat(targets))), torch::cat(sizes)};
}

DIFF_CASE(data_random_sampler_next_and_reset) {
  torch::manual_seed(5);
  data::samplers::RandomSampler sampler(6);
  std::vector<int64_t> seen;
  while (auto indices = sampler.next(4))
    for (size_t i : *indices) seen.push_back(static_cast<int64_t>(i));
  const bool exhausted = !sampler.next(1).has_value();
  sampler.reset(3);
  auto after_reset = sampler.next(10);
  std::vector<int64_t> small(after_reset->begin(), after_reset->end());
  return {std::get<0>(torch::sort(torch::tensor(seen))), S{exhausted ? 1.0 : 0.0},
          std::get<0>(torch::sort(torch::tensor(small))), S{static_cast<double>(sampler.index())}};
}

DIFF_CASE(data_sequential_sampler_next_and_reset) {
  data::samplers::SequentialSampler sampler(5);
  std::vector<torch::Tensor> out;
  while (auto indices = sampler.next(2)) {
    std::vector<int64_t> v(indices->begin(), indices->end());
    out.push_back(torch::tensor(v));
  }
  sampler.reset(7);
  auto first = sampler.next(10);
  out.push_back(torch::tensor(std::vector<int64_t>(first->begin(), first->end())));
  return out;
}

DIFF_CASE(data_lambda_transforms) {
  using E = torch::data::Example<>;
  auto ds = RampDataset(4)
                .map(data::transforms::Lambda<E>([](E e) {
                  e.target = e.target * 10;
                  return e;
                }))
                .map(data::transforms::TensorLambda<>([](torch::Tensor x) { return x.sum({1, 2}); }))
                .map(data::transforms::BatchLambda<std::vector<E>, E>([](std::vector<E> batch) {
                  std::vector<torch::Tensor> xs, ys;
                  for (auto& e : batch) {
                    xs.push_back(e.data);
                    ys.push_back(e.target);
                  }
                  return E(torch::cat(xs), torch::stack(ys));
                }));
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(std::move(ds), 3);
  return collect(*loader);
}

DIFF_CASE(data_tensor_dataset_stack) {
  auto rows = torch::arange(10, torch::kFloat).view({5, 2});
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(rows).map(data::transforms::Stack<data::TensorExample>()), 2);
  std::vector<torch::Tensor> out;
  for (auto& batch : *loader) out.push_back(batch.data);
  return out;
}

DIFF_CASE(data_dataset_size_and_get_batch) {
  RampDataset ds(6);
  auto batch = ds.get_batch({4, 1});
  auto mapped = RampDataset(6).map(data::transforms::Stack<>());
  auto stacked = mapped.get_batch({0, 5});
  return {batch[0].data, batch[1].target, stacked.data, stacked.target, S{static_cast<double>(*mapped.size())}};
}

DIFF_CASE(data_mnist_test_split) {
  const std::string dir = write_mnist();
  auto mnist = data::datasets::MNIST(dir, data::datasets::MNIST::Mode::kTest);
  const auto n = *mnist.size();
  const bool train = mnist.is_train();
  auto images = mnist.images();
  auto targets = mnist.targets();
  auto ds = std::move(mnist).map(data::transforms::Normalize<>(0.1307, 0.3081)).map(data::transforms::Stack<>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(std::move(ds), 4);
  std::vector<torch::Tensor> out = {images.slice(0, 9990), targets.slice(0, 0, 20), images.sum(), targets.sum()};
  int b = 0;
  for (auto& batch : *loader) {
    if (b++ == 2) break;
    out.push_back(batch.data);
    out.push_back(batch.target);
  }
  out.push_back(torch::tensor({static_cast<int64_t>(n), static_cast<int64_t>(train)}));
  std::system(("rm -rf " + dir).c_str());
  return out;
}

DIFF_CASE(data_mnist_missing_files_error) {
  return data::datasets::MNIST("/nonexistent/graphify/mnist").images();
}

DIFF_CASE(data_mnist_wrong_magic_error) {
  const std::string dir = write_mnist(/*image_magic=*/1234);
  try {
    auto mnist = data::datasets::MNIST(dir, data::datasets::MNIST::Mode::kTest);
    std::system(("rm -rf " + dir).c_str());
    return mnist.images().sum();
  } catch (...) {
    std::system(("rm -rf " + dir).c_str());
    throw;
  }
}

DIFF_CASE(data_mnist_train_split_needs_training_files_error) {
  const std::string dir = write_mnist();
  try {
    auto mnist = data::datasets::MNIST(dir);  // kTrain: train-images-idx3-ubyte is absent
    std::system(("rm -rf " + dir).c_str());
    return mnist.images().sum();
  } catch (...) {
    std::system(("rm -rf " + dir).c_str());
    throw;
  }
}
