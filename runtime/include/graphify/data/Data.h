#pragma once
/// \file
/// gfy::data: datasets, transforms, samplers and data loaders with the API of LibTorch 1.13's
/// `torch::data`, so that training and evaluation loops written against it compile unchanged.
///
/// \code
///   auto ds = gfy::data::datasets::MNIST("./mnist")
///                 .map(gfy::data::transforms::Normalize<>(0.1307, 0.3081))
///                 .map(gfy::data::transforms::Stack<>());
///   auto loader = gfy::data::make_data_loader<gfy::data::samplers::SequentialSampler>(
///       std::move(ds), gfy::data::DataLoaderOptions().batch_size(64));
///   for (auto &batch : *loader) model->forward(batch.data);   // batch.target: (64) long
/// \endcode
///
/// Batches are produced on the calling thread, in the sampler's order: `workers` and `max_jobs`
/// are accepted and do not start threads. LibTorch's workers with `enforce_ordering` (the
/// default) deliver the same batches in the same order, so results agree; only the overlap of
/// loading with computing is lost. Stateful datasets (chunked reading) are not provided.

#include <graphify/core/ArrayRef.h>
#include <graphify/core/Functions.h>
#include <graphify/core/Tensor.h>
#include <graphify/nn/Options.h>
#include <graphify/nn/Serialize.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gfy::data {

// ---------------------------------------------------------------------------------------------
// Examples

/// One input and its target; `Example<>` is a pair of tensors.
template <class Data = Tensor, class Target = Tensor> struct Example {
  using DataType = Data;
  using TargetType = Target;
  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}
  Data data;
  Target target;
};

namespace example {
/// The target type of examples that have none (`TensorExample`).
using NoTarget = void;
} // namespace example

template <class Data> struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;
  Example() = default;
  /* implicit */ Example(Data data) : data(std::move(data)) {}
  operator Data &() { return data; }
  operator const Data &() const { return data; }
  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

// ---------------------------------------------------------------------------------------------
// Datasets

namespace datasets {

template <class Source, class Transform> class MapDataset;
template <class D, class T> MapDataset<D, T> map(D dataset, T transform);

/// A dataset that answers a batch request (by default a list of indices) with a batch.
/// `Self` is the derived class (CRTP), so that `map` returns a dataset of the right type.
template <class Self, class Batch = std::vector<Example<>>, class BatchRequest = ArrayRef<size_t>>
class BatchDataset {
public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  /// Stateful (chunk) datasets are not provided; every dataset here is indexed.
  static constexpr bool is_stateful = false;

  virtual ~BatchDataset() = default;
  virtual Batch get_batch(BatchRequest request) = 0;
  virtual std::optional<size_t> size() const = 0;

  /// A dataset whose batches are this one's passed through `transform`.
  template <class TransformType> MapDataset<Self, TransformType> map(TransformType transform) & {
    return datasets::map(static_cast<Self &>(*this), std::move(transform));
  }
  template <class TransformType> MapDataset<Self, TransformType> map(TransformType transform) && {
    return datasets::map(std::move(static_cast<Self &>(*this)), std::move(transform));
  }
};

/// A dataset of single examples: implement `get(index)` and `size()`; a batch is the examples at
/// the requested indices.
template <class Self, class SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
public:
  using ExampleType = SingleExample;
  virtual ExampleType get(size_t index) = 0;
  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (size_t i : indices) batch.push_back(get(i));
    return batch;
  }
};

/// `source.map(transform)`: the source's batches through `transform.apply_batch`.
template <class Source, class AppliedTransform>
class MapDataset : public BatchDataset<MapDataset<Source, AppliedTransform>,
                                       typename AppliedTransform::OutputBatchType,
                                       typename Source::BatchRequestType> {
public:
  using DatasetType = Source;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename Source::BatchRequestType;
  using OutputBatchType = typename AppliedTransform::OutputBatchType;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}
  OutputBatchType get_batch(BatchRequestType indices) override {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }
  std::optional<size_t> size() const noexcept override { return dataset_.size(); }
  const Source &dataset() noexcept { return dataset_; }
  const AppliedTransform &transform() noexcept { return transform_; }

private:
  Source dataset_;
  AppliedTransform transform_;
};

template <class D, class T> MapDataset<D, T> map(D dataset, T transform) {
  static_assert(std::is_same_v<typename D::BatchType, typename T::InputBatchType>,
                "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

/// Rows of one tensor as examples without targets.
class TensorDataset : public Dataset<TensorDataset, TensorExample> {
public:
  explicit TensorDataset(const std::vector<Tensor> &tensors) : TensorDataset(stack(tensors)) {}
  explicit TensorDataset(Tensor tensor) : tensor(std::move(tensor)) {}
  TensorExample get(size_t index) override { return tensor[static_cast<int64_t>(index)]; }
  std::optional<size_t> size() const override { return static_cast<size_t>(tensor.size(0)); }
  Tensor tensor;
};

/// The MNIST digits from the four IDX files under `root` (train-images-idx3-ubyte,
/// train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte), as LibTorch reads
/// them: images (N, 1, 28, 28) float in [0, 1], targets (N) long; N is 60000 (train) or 10000
/// (test), and a file with other counts or sizes is an error.
class MNIST : public Dataset<MNIST> {
public:
  enum class Mode { kTrain, kTest };
  explicit MNIST(const std::string &root, Mode mode = Mode::kTrain);
  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept;
  const Tensor &images() const { return images_; }
  const Tensor &targets() const { return targets_; }

private:
  Tensor images_, targets_;
};

} // namespace datasets

using datasets::BatchDataset;
using datasets::Dataset;

// ---------------------------------------------------------------------------------------------
// Transforms

namespace transforms {

/// Maps a whole batch.
template <class InputBatch, class OutputBatch> class BatchTransform {
public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;
  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

/// Maps each example of a batch (`apply`).
template <class Input, class Output> class Transform : public BatchTransform<std::vector<Input>, std::vector<Output>> {
public:
  using InputType = Input;
  using OutputType = Output;
  virtual OutputType apply(InputType input) = 0;
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override {
    std::vector<Output> out;
    out.reserve(input_batch.size());
    for (auto &&input : input_batch) out.push_back(apply(std::move(input)));
    return out;
  }
};

template <class Input, class Output = Input> class BatchLambda : public BatchTransform<Input, Output> {
public:
  using FunctionType = std::function<Output(Input)>;
  explicit BatchLambda(FunctionType function) : function_(std::move(function)) {}
  Output apply_batch(Input input_batch) override { return function_(std::move(input_batch)); }

private:
  FunctionType function_;
};

template <class Input, class Output = Input> class Lambda : public Transform<Input, Output> {
public:
  using FunctionType = std::function<Output(Input)>;
  explicit Lambda(FunctionType function) : function_(std::move(function)) {}
  Output apply(Input input) override { return function_(std::move(input)); }

private:
  FunctionType function_;
};

/// A transform that turns a batch (vector of T) into one T.
template <class T, class BatchType = std::vector<T>> using Collation = BatchTransform<BatchType, T>;
template <class T, class BatchType = std::vector<T>> using Collate = BatchLambda<BatchType, T>;

/// Stacks the examples of a batch along a new first dimension.
template <class T = Example<>> struct Stack;

template <> struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override {
    std::vector<Tensor> data, targets;
    data.reserve(examples.size());
    targets.reserve(examples.size());
    for (auto &e : examples) {
      data.push_back(std::move(e.data));
      targets.push_back(std::move(e.target));
    }
    return {stack(data), stack(targets)};
  }
};

template <> struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override {
    std::vector<Tensor> data;
    data.reserve(examples.size());
    for (auto &e : examples) data.push_back(std::move(e.data));
    return stack(data);
  }
};

/// Maps the data tensor of each example, keeping its target.
template <class Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;
  virtual Tensor operator()(Tensor input) = 0;
  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

template <class Target = Tensor> class TensorLambda : public TensorTransform<Target> {
public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function) : function_(std::move(function)) {}
  Tensor operator()(Tensor input) override { return function_(std::move(input)); }

private:
  FunctionType function_;
};

/// `(x - mean) / stddev` per channel: mean and stddev hold one value (all channels) or one per
/// channel of a (C, H, W) image, as float.
template <class Target = Tensor> struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(channels(mean)), stddev(channels(stddev)) {}
  Tensor operator()(Tensor input) override { return input.sub(mean).div(stddev); }
  Tensor mean, stddev;

private:
  static Tensor channels(ArrayRef<double> v) {
    return gfy::tensor(v.vec(), kFloat).unsqueeze(1).unsqueeze(2);  // (C, 1, 1)
  }
};

} // namespace transforms

// ---------------------------------------------------------------------------------------------
// Samplers

namespace samplers {

/// Produces the index lists of successive batches; `reset` starts an epoch; `save` and `load`
/// keep the position in an archive (every sampler has them, as in LibTorch).
template <class BatchRequest = std::vector<size_t>> class Sampler {
public:
  using BatchRequestType = BatchRequest;
  virtual ~Sampler() = default;
  virtual void reset(std::optional<size_t> new_size) = 0;
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
  virtual void save(serialize::OutputArchive &archive) const = 0;
  virtual void load(serialize::InputArchive &archive) = 0;
};

/// `archive << sampler` / `archive >> sampler` (torch/data/samplers/serialize.h).
template <class BatchRequest>
serialize::OutputArchive &operator<<(serialize::OutputArchive &archive, const Sampler<BatchRequest> &sampler) {
  sampler.save(archive);
  return archive;
}
template <class BatchRequest>
serialize::InputArchive &operator>>(serialize::InputArchive &archive, Sampler<BatchRequest> &sampler) {
  sampler.load(archive);
  return archive;
}

/// A random permutation of [0, size) per epoch, drawn from the runtime's generator
/// (`manual_seed`); LibTorch draws its own, so the orders differ between the two libraries.
class RandomSampler : public Sampler<> {
public:
  explicit RandomSampler(int64_t size, ScalarType index_dtype = kLong);
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  /// The permutation ("indices") and the position in it ("index").
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept { return static_cast<size_t>(index_); }

private:
  Tensor indices_;
  int64_t index_ = 0;
};

/// 0, 1, ..., size - 1, in order.
class SequentialSampler : public Sampler<> {
public:
  explicit SequentialSampler(size_t size) : size_(size) {}
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  /// The position ("index").
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept { return index_; }

private:
  size_t size_;
  size_t index_ = 0;
};

} // namespace samplers

// ---------------------------------------------------------------------------------------------
// Data loaders

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size) : batch_size_(batch_size) {}
  GFY_ARG(size_t, batch_size) = 1;
  /// Accepted for LibTorch compatibility; batches are made on the calling thread.
  GFY_ARG(size_t, workers) = 0;
  GFY_ARG(std::optional<size_t>, max_jobs);
  GFY_ARG(std::optional<std::chrono::milliseconds>, timeout);
  GFY_ARG(bool, enforce_ordering) = true;
  /// Drop a last batch smaller than `batch_size`.
  GFY_ARG(bool, drop_last) = false;
};

/// The options with every default filled in, as `loader->options()` returns them.
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(const DataLoaderOptions &o)
      : batch_size(o.batch_size()), workers(o.workers()), max_jobs(o.max_jobs().value_or(2 * o.workers())),
        timeout(o.timeout()), enforce_ordering(o.enforce_ordering()), drop_last(o.drop_last()) {}
  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  std::optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

/// An input iterator over a loader's batches; `end()` is a sentinel. The next batch is produced
/// when the iterator is compared, dereferenced or advanced, never ahead of time.
template <class Batch> class Iterator {
public:
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch *;
  using reference = Batch &;
  using iterator_category = std::input_iterator_tag;

  Iterator() = default;  // the sentinel
  explicit Iterator(std::function<std::optional<Batch>()> next) : state_(std::make_shared<State>()) {
    state_->next = std::move(next);
  }
  Batch &operator*() const {
    fetch();
    GFY_CHECK(state_ && state_->batch, "Attempted to dereference iterator that was past the end");
    return *state_->batch;
  }
  Batch *operator->() const { return &**this; }
  Iterator &operator++() {
    fetch();
    GFY_CHECK(state_ && state_->batch, "Attempted to increment iterator past the end");
    state_->batch.reset();
    state_->fetched = false;
    return *this;
  }
  /// Two iterators are equal when both are exhausted (or both still have a batch).
  bool operator==(const Iterator &other) const { return exhausted() == other.exhausted(); }
  bool operator!=(const Iterator &other) const { return !(*this == other); }

private:
  struct State {
    std::function<std::optional<Batch>()> next;
    std::optional<Batch> batch;
    bool fetched = false;
  };
  void fetch() const {
    if (state_ && !state_->fetched) {
      state_->batch = state_->next();
      state_->fetched = true;
    }
  }
  bool exhausted() const {
    fetch();
    return !state_ || !state_->batch;
  }
  std::shared_ptr<State> state_;
};

/// Loads batches of an indexed dataset in the order `Sampler` gives; `begin()` starts an epoch
/// (resets the sampler), so a loader can be iterated once per epoch.
template <class Dataset, class Sampler> class StatelessDataLoader {
public:
  using BatchType = typename Dataset::BatchType;
  using BatchRequestType = typename Sampler::BatchRequestType;

  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options)
      : options_(options), dataset_(std::move(dataset)), sampler_(std::move(sampler)) {}
  Iterator<BatchType> begin() {
    sampler_.reset(std::nullopt);
    return Iterator<BatchType>([this]() { return next(); });
  }
  Iterator<BatchType> end() { return Iterator<BatchType>(); }
  const FullDataLoaderOptions &options() const noexcept { return options_; }
  /// No worker threads to join.
  void join() {}

private:
  std::optional<BatchType> next() {
    auto indices = sampler_.next(options_.batch_size);
    if (!indices || (indices->size() < options_.batch_size && options_.drop_last)) return std::nullopt;
    return dataset_.get_batch(std::move(*indices));
  }
  FullDataLoaderOptions options_;
  Dataset dataset_;
  Sampler sampler_;
};

template <class Dataset, class Sampler>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset, Sampler sampler,
                                                                        DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(std::move(dataset), std::move(sampler),
                                                                 std::move(options));
}

/// A loader with a `Sampler(dataset.size())` (a RandomSampler unless named).
template <class Sampler = samplers::RandomSampler, class Dataset,
          std::enable_if_t<std::is_constructible_v<Sampler, size_t>, int> = 0>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset,
                                                                        DataLoaderOptions options = {}) {
  const std::optional<size_t> size = dataset.size();
  GFY_CHECK(size.has_value(), "Expected the dataset to be sized in order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), std::move(options));
}

} // namespace gfy::data
