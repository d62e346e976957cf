#pragma once
/// \file
/// `gfy::ArrayRef<T>`: a non-owning view of a contiguous list, as c10::ArrayRef. Sizes keep
/// their own `IntArrayRef` (core/Types.h); this template is for the other element types public
/// code passes by view (`ArrayRef<size_t>` batch indices, `ArrayRef<double>` means and deviations).
///
/// \code
///   double mean(gfy::ArrayRef<double> v) { double s = 0; for (double x : v) s += x; return s / v.size(); }
///   mean({1.0, 2.0});  mean(std::vector<double>{3.0});  mean(0.5);
/// \endcode

#include <graphify/core/Functions.h>
#include <graphify/core/Types.h>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace gfy {

template <class T> class ArrayRef {
public:
  using value_type = T;
  using iterator = const T *;
  using const_iterator = const T *;
  using size_type = size_t;

  ArrayRef() = default;
  /* implicit */ ArrayRef(const T &single) : data_(&single), size_(1) {}
  ArrayRef(const T *data, size_t n) : data_(data), size_(n) {}
  ArrayRef(const T *begin, const T *end) : data_(begin), size_(static_cast<size_t>(end - begin)) {}
  template <class A> /* implicit */ ArrayRef(const std::vector<T, A> &v) : data_(v.data()), size_(v.size()) {}
  template <size_t N> /* implicit */ ArrayRef(const std::array<T, N> &a) : data_(a.data()), size_(N) {}
  template <size_t N> /* implicit */ ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  // As c10::ArrayRef: a braced list lives until the end of the full expression of the call.
  /* implicit */ ArrayRef(std::initializer_list<T> l) : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /// `ArrayRef<int64_t>` is what LibTorch calls IntArrayRef; here the two are distinct types
  /// that convert into each other.
  template <class U = T, std::enable_if_t<std::is_same_v<U, int64_t>, int> = 0>
  /* implicit */ ArrayRef(IntArrayRef a) : data_(a.data()), size_(a.size()) {}
  template <class U = T, std::enable_if_t<std::is_same_v<U, int64_t>, int> = 0>
  operator IntArrayRef() const {
    return IntArrayRef(data_, size_);
  }

  const T *data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  const T &operator[](size_t i) const { return data_[i]; }
  const T &at(size_t i) const {
    GFY_CHECK(i < size_, "ArrayRef: invalid index Index = ", i, "; Length = ", size_);
    return data_[i];
  }
  const T &front() const {
    GFY_CHECK(size_ > 0, "ArrayRef: attempted to access front() of empty list");
    return data_[0];
  }
  const T &back() const {
    GFY_CHECK(size_ > 0, "ArrayRef: attempted to access back() of empty list");
    return data_[size_ - 1];
  }
  ArrayRef slice(size_t start, size_t n) const {
    GFY_CHECK(start + n <= size_, "ArrayRef: invalid slice, N = ", start, "; M = ", n, "; size = ", size_);
    return ArrayRef(data_ + start, n);
  }
  ArrayRef slice(size_t start) const { return slice(start, size_ - start); }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  /// A copy as a vector, implicitly as c10::ArrayRef's, so an `at::TensorList` passes where the
  /// runtime takes `const std::vector<Tensor>&`. Not for int64_t, whose lists are IntArrayRefs.
  template <class U = T, std::enable_if_t<!std::is_same_v<U, int64_t>, int> = 0> operator std::vector<T>() const {
    return vec();
  }
  bool equals(ArrayRef o) const {
    if (size_ != o.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == o.data_[i])) return false;
    return true;
  }

private:
  const T *data_ = nullptr;
  size_t size_ = 0;
};

/// at::TensorList: a view of tensors held elsewhere (a vector, a braced list for the call).
using TensorList = ArrayRef<Tensor>;

/// `torch::tensor(ArrayRef<float>(p, n))`: a 1-d tensor holding a copy of the values.
template <class T> Tensor tensor(ArrayRef<T> values, const TensorOptions &options = {}) {
  return tensor(values.vec(), options);
}

} // namespace gfy
