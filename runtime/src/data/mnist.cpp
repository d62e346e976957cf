// MNIST in the IDX format (big-endian 32-bit header words, then one byte per pixel or label),
// read as LibTorch 1.13 reads it: fixed counts (60000 train, 10000 test) and 28x28 images, pixels
// scaled to [0, 1] in float, labels as long. Every header word is checked before any allocation.
#include <graphify/data/Data.h>

#include <fstream>

namespace gfy::data::datasets {

namespace {

constexpr uint32_t kTrainSize = 60000;
constexpr uint32_t kTestSize = 10000;
constexpr uint32_t kImageMagicNumber = 2051;
constexpr uint32_t kTargetMagicNumber = 2049;
constexpr uint32_t kImageRows = 28;
constexpr uint32_t kImageColumns = 28;

std::string join_paths(std::string head, const std::string &tail) {
  if (head.empty() || head.back() != '/') head.push_back('/');
  return head + tail;
}

uint32_t read_int32(std::istream &in) {
  unsigned char b[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char *>(b), 4);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

void expect_int32(std::istream &in, uint32_t expected) {
  const uint32_t value = read_int32(in);
  GFY_CHECK(value == expected, "Expected to read number ", expected, " but found ", value, " instead");
}

/// `count` bytes from `in`, widened to float (the caller scales or converts).
std::vector<float> read_bytes(std::istream &in, size_t count, const std::string &path) {
  std::vector<unsigned char> bytes(count);
  in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(count));
  GFY_CHECK(static_cast<size_t>(in.gcount()) == count, "MNIST: ", path, " is truncated");
  return std::vector<float>(bytes.begin(), bytes.end());
}

Tensor read_images(const std::string &root, bool train) {
  const std::string path = join_paths(root, train ? "train-images-idx3-ubyte" : "t10k-images-idx3-ubyte");
  std::ifstream images(path, std::ios::binary);
  GFY_CHECK(images.good(), "Error opening images file at ", path);
  const uint32_t count = train ? kTrainSize : kTestSize;
  expect_int32(images, kImageMagicNumber);
  expect_int32(images, count);
  expect_int32(images, kImageRows);
  expect_int32(images, kImageColumns);
  std::vector<float> pixels = read_bytes(images, size_t{count} * kImageRows * kImageColumns, path);
  // out: (count, 1, 28, 28), the bytes divided by 255 in float as LibTorch's div_(255)
  return tensor(pixels, kFloat).view({int64_t{count}, 1, int64_t{kImageRows}, int64_t{kImageColumns}}).div_(255);
}

Tensor read_targets(const std::string &root, bool train) {
  const std::string path = join_paths(root, train ? "train-labels-idx1-ubyte" : "t10k-labels-idx1-ubyte");
  std::ifstream targets(path, std::ios::binary);
  GFY_CHECK(targets.good(), "Error opening targets file at ", path);
  const uint32_t count = train ? kTrainSize : kTestSize;
  expect_int32(targets, kTargetMagicNumber);
  expect_int32(targets, count);
  return tensor(read_bytes(targets, count, path), kFloat).to(kLong);  // out: (count)
}

} // namespace

MNIST::MNIST(const std::string &root, Mode mode)
    : images_(read_images(root, mode == Mode::kTrain)), targets_(read_targets(root, mode == Mode::kTrain)) {}

Example<> MNIST::get(size_t index) {
  const auto i = static_cast<int64_t>(index);
  return {images_[i], targets_[i]};
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(images_.size(0)); }

bool MNIST::is_train() const noexcept { return images_.size(0) == kTrainSize; }

} // namespace gfy::data::datasets
