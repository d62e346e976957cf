#pragma once
/// \file
/// `x.accessor<float, 2>()`: LibTorch's indexed view of a CPU tensor's elements for host loops,
/// `a[i][j]` reading and writing the element through the tensor's strides. The accessor holds
/// pointers into the tensor's storage and its size and stride arrays: it must not outlive the
/// tensor, as in LibTorch. Indices are not checked (LibTorch's are not either).
///
/// \code
///   auto a = boxes.accessor<float, 2>();
///   for (int64_t i = 0; i < a.size(0); ++i) area += (a[i][2] - a[i][0]) * (a[i][3] - a[i][1]);
/// \endcode

#include <cstddef>
#include <cstdint>

namespace gfy {

template <class T, size_t N> class TensorAccessor {
public:
  TensorAccessor(T *data, const int64_t *sizes, const int64_t *strides) : data_(data), sizes_(sizes), strides_(strides) {}
  TensorAccessor<T, N - 1> operator[](int64_t i) const {
    return TensorAccessor<T, N - 1>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  int64_t size(int64_t d) const { return sizes_[d]; }
  int64_t stride(int64_t d) const { return strides_[d]; }
  T *data() const { return data_; }

private:
  T *data_;
  const int64_t *sizes_;
  const int64_t *strides_;
};

/// The last dimension: indexing yields the element.
template <class T> class TensorAccessor<T, 1> {
public:
  TensorAccessor(T *data, const int64_t *sizes, const int64_t *strides) : data_(data), sizes_(sizes), strides_(strides) {}
  T &operator[](int64_t i) const { return data_[strides_[0] * i]; }
  int64_t size(int64_t d) const { return sizes_[d]; }
  int64_t stride(int64_t d) const { return strides_[d]; }
  T *data() const { return data_; }

private:
  T *data_;
  const int64_t *sizes_;
  const int64_t *strides_;
};

} // namespace gfy
