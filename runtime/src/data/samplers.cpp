// The samplers of gfy::data. Index lists are read on the host (the loader indexes datasets with
// them), so the permutation is brought to the CPU once per batch, as LibTorch's sampler does.
#include <graphify/data/Data.h>

#include <algorithm>

namespace gfy::data::samplers {

RandomSampler::RandomSampler(int64_t size, ScalarType index_dtype) : indices_(randperm(size, index_dtype)) {}

void RandomSampler::reset(std::optional<size_t> new_size) {
  const int64_t size = new_size ? static_cast<int64_t>(*new_size) : indices_.numel();
  indices_ = randperm(size, indices_.scalar_type());
  index_ = 0;
}

std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  const int64_t remaining = indices_.numel() - index_;
  if (remaining == 0) return std::nullopt;
  const int64_t n = std::min(static_cast<int64_t>(batch_size), remaining);
  Tensor slice = indices_.slice(0, index_, index_ + n).to(kCPU).to(kLong).contiguous();
  const int64_t *p = slice.data_ptr<int64_t>();
  std::vector<size_t> batch(p, p + n);
  index_ += n;
  return batch;
}

// The keys and layouts of LibTorch's samplers: a 0-d long "index", and the permutation
// "indices" of a random sampler.
void RandomSampler::save(serialize::OutputArchive &archive) const {
  archive.write("index", tensor(index_), /*is_buffer=*/true);
  archive.write("indices", indices_, /*is_buffer=*/true);
}
void RandomSampler::load(serialize::InputArchive &archive) {
  Tensor index = empty({}, kLong);
  archive.read("index", index, /*is_buffer=*/true);
  Tensor indices;
  archive.read("indices", indices, /*is_buffer=*/true);
  GFY_CHECK(indices.dim() == 1, "RandomSampler::load: 'indices' must be 1-d, got ", indices.sizes());
  const int64_t position = index.item<int64_t>();
  GFY_CHECK(position >= 0 && position <= indices.numel(), "RandomSampler::load: 'index' ", position,
            " is outside the permutation of ", indices.numel());
  indices_ = indices;
  index_ = position;
}

void SequentialSampler::save(serialize::OutputArchive &archive) const {
  archive.write("index", tensor(static_cast<int64_t>(index_)), /*is_buffer=*/true);
}
void SequentialSampler::load(serialize::InputArchive &archive) {
  Tensor index = empty({}, kLong);
  archive.read("index", index, /*is_buffer=*/true);
  const int64_t position = index.item<int64_t>();
  GFY_CHECK(position >= 0, "SequentialSampler::load: 'index' must be non-negative, got ", position);
  index_ = static_cast<size_t>(position);
}

void SequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size) size_ = *new_size;
  index_ = 0;
}

std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  const size_t end = std::min(size_, index_ + batch_size);
  if (end <= index_) return std::nullopt;
  std::vector<size_t> batch(end - index_);
  for (size_t i = 0; i < batch.size(); ++i) batch[i] = index_ + i;
  index_ = end;
  return batch;
}

} // namespace gfy::data::samplers
