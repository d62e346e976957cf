#pragma once
// A small stand-in for LibTorch's API, enough for the rewriter's golden cases to type-check in a
// fraction of a second (the real <torch/torch.h> takes ~10 s to parse). Same names and namespaces
// as LibTorch (at::Tensor, torch:: functions), declarations only: the cases are parsed, never run.
#include <cstdint>
#include <initializer_list>
#include <ostream>

namespace c10 {
enum class ScalarType { Bool, Int, Long, Float, Double };
class Scalar {
public:
  Scalar(double);
  Scalar(float);
  Scalar(int);
  Scalar(int64_t);
  Scalar(bool);
  float toFloat() const;
  double toDouble() const;
  int toInt() const;
  int64_t toLong() const;
  bool toBool() const;
  template <typename T> T to() const;
};
} // namespace c10

namespace at {
using c10::Scalar;
using c10::ScalarType;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;

class Tensor;
class TensorOptions {
public:
  TensorOptions dtype(ScalarType t) const;
};
namespace indexing {
class TensorIndex {
public:
  TensorIndex(const Tensor &);
  TensorIndex(int64_t);
};
} // namespace indexing

class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  Tensor &operator=(const Tensor &) &&; // copies into the (view) tensor, as LibTorch's does
  template <typename T> T item() const;
  Scalar item() const;
  Tensor sum() const;
  Tensor sum(int64_t dim) const;
  Tensor mean() const;
  Tensor max() const;
  Tensor min() const;
  Tensor all() const;
  Tensor any() const;
  Tensor abs() const;
  Tensor exp() const;
  Tensor relu() const;
  Tensor clone() const;
  TensorOptions options() const;
  int64_t ndimension() const;
  Tensor flatten() const;
  Tensor flatten(int64_t start_dim, int64_t end_dim = -1) const;
  Tensor argmax(int64_t dim) const;
  Tensor nonzero() const;
  Tensor masked_select(const Tensor &mask) const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  const Tensor &masked_fill_(const Tensor &mask, const Scalar &value) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor operator[](int64_t i) const;
  Tensor view(std::initializer_list<int64_t> size) const;
  Tensor reshape(std::initializer_list<int64_t> size) const;
  Tensor contiguous() const;
  const Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar &v) const;
  const Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor &v) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor gather(int64_t dim, const Tensor &index) const;
  Tensor floor_divide(const Tensor &other) const;
  Tensor multinomial(int64_t num_samples) const;
  Tensor to(ScalarType t) const;
  Tensor logical_not() const;
  const Tensor &add_(const Tensor &other) const;
  const Tensor &add_(const Scalar &other) const;
  const Tensor &mul_(const Scalar &other) const;
  Tensor cpu() const;
  int64_t size(int64_t dim) const;
  int64_t dim() const;
  Tensor operator-() const;
  Tensor operator~() const;
  Tensor &operator+=(const Tensor &) const;
  Tensor &operator+=(const Scalar &) const;
};

Tensor operator+(const Tensor &, const Tensor &);
Tensor operator+(const Tensor &, const Scalar &);
Tensor operator+(const Scalar &, const Tensor &);
Tensor operator-(const Tensor &, const Tensor &);
Tensor operator-(const Tensor &, const Scalar &);
Tensor operator-(const Scalar &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Scalar &);
Tensor operator*(const Scalar &, const Tensor &);
Tensor operator/(const Tensor &, const Tensor &);
Tensor operator/(const Tensor &, const Scalar &);
Tensor operator>(const Tensor &, const Tensor &);
Tensor operator>(const Tensor &, const Scalar &);
Tensor operator>(const Scalar &, const Tensor &);
Tensor operator<(const Tensor &, const Tensor &);
Tensor operator<(const Tensor &, const Scalar &);
Tensor operator<(const Scalar &, const Tensor &);
Tensor operator>=(const Tensor &, const Scalar &);
Tensor operator<=(const Tensor &, const Scalar &);
Tensor operator==(const Tensor &, const Scalar &);
Tensor operator!=(const Tensor &, const Scalar &);
Tensor operator&(const Tensor &, const Tensor &);
Tensor operator|(const Tensor &, const Tensor &);
std::ostream &operator<<(std::ostream &, const Tensor &);

Tensor where(const Tensor &c, const Tensor &a, const Tensor &b);
Tensor where(const Tensor &c, const Tensor &a, const Scalar &b);
Tensor logical_and(const Tensor &a, const Tensor &b);
Tensor logical_or(const Tensor &a, const Tensor &b);
Tensor logical_not(const Tensor &a);
Tensor cat(std::initializer_list<Tensor> tensors, int64_t dim = 0);
Tensor argsort(const Tensor &self, bool stable, int64_t dim = -1, bool descending = false);
Tensor masked_select(const Tensor &self, const Tensor &mask);
Tensor nonzero(const Tensor &self);
Tensor sum(const Tensor &self);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor zeros_like(const Tensor &a);
Tensor arange(int64_t end);
Tensor ones(std::initializer_list<int64_t> size, const TensorOptions &options);
Tensor zeros(std::initializer_list<int64_t> size, const TensorOptions &options);
Tensor ones_like(const Tensor &a);
Tensor ones_like(const Tensor &a, ScalarType t);
Tensor randn_like(const Tensor &a);
} // namespace at

namespace torch {
using namespace at;
} // namespace torch
