#pragma once
/// \file
/// LibTorch's `torch::ExpandingArray<D>`: D integers given as one (repeated D times) or as a list
/// of exactly D, the type of every kernel size, stride, padding and dilation of the convolution
/// and pooling options. `ExpandingArrayWithOptional<D>` allows `nullopt` entries ("keep the
/// input's size"), as adaptive pooling's output sizes do.
///
/// \code
///   gfy::ExpandingArray<2> k = 3;               // {3, 3}
///   gfy::ExpandingArray<2> s = {2, 1};
///   gfy::IntArrayRef r = k;                     // for gfy::conv2d, gfy::max_pool2d, ...
///   int64_t kh = (*k)[0];                       // or k->at(0)
///   gfy::ExpandingArrayWithOptional<2> o = {std::nullopt, 7};
/// \endcode

#include <graphify/core/Types.h>

#include <array>
#include <initializer_list>
#include <optional>
#include <vector>

namespace gfy {

template <size_t D, class T = int64_t> class ExpandingArray {
public:
  /* implicit */ ExpandingArray(T single) { values_.fill(single); }
  /* implicit */ ExpandingArray(std::initializer_list<T> list) { assign(list.begin(), list.size()); }
  /* implicit */ ExpandingArray(const std::vector<T> &v) { assign(v.data(), v.size()); }
  /* implicit */ ExpandingArray(const std::array<T, D> &values) : values_(values) {}

  std::array<T, D> &operator*() { return values_; }
  const std::array<T, D> &operator*() const { return values_; }
  std::array<T, D> *operator->() { return &values_; }
  const std::array<T, D> *operator->() const { return &values_; }
  /// The D values as the IntArrayRef the tensor functions take (valid while this array lives).
  operator IntArrayRef() const
    requires std::is_same_v<T, int64_t>
  {
    return IntArrayRef(values_.data(), D);
  }
  size_t size() const noexcept { return D; }

protected:
  /// For the derived class's own constructors. Not a default constructor: as in LibTorch,
  /// `ExpandingArray<2> k{};` takes the (empty) list and throws "Expected 2 values".
  struct Unset {};
  explicit ExpandingArray(Unset) {}
  void assign(const T *v, size_t n) {
    GFY_CHECK(n == D, "Expected ", D, " values, but instead got ", n);
    for (size_t i = 0; i < D; ++i) values_[i] = v[i];
  }
  std::array<T, D> values_;
};

/// D optional sizes; `nullopt` means "the input's size in that dim" (adaptive pooling).
template <size_t D> class ExpandingArrayWithOptional : public ExpandingArray<D, std::optional<int64_t>> {
  using Base = ExpandingArray<D, std::optional<int64_t>>;

public:
  using Base::Base;
  /* implicit */ ExpandingArrayWithOptional(int64_t single) : Base(std::optional<int64_t>(single)) {}
  /* implicit */ ExpandingArrayWithOptional(std::initializer_list<int64_t> list) : Base(typename Base::Unset{}) {
    GFY_CHECK(list.size() == D, "Expected ", D, " values, but instead got ", list.size());
    size_t i = 0;
    for (int64_t v : list) this->values_[i++] = v;
  }
  /* implicit */ ExpandingArrayWithOptional(const std::vector<int64_t> &v) : Base(typename Base::Unset{}) {
    GFY_CHECK(v.size() == D, "Expected ", D, " values, but instead got ", v.size());
    for (size_t i = 0; i < D; ++i) this->values_[i] = v[i];
  }
};

} // namespace gfy
