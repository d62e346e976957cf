#pragma once
/// \file
/// What `gfy::tensor({{1, 2}, {3, 4}})` takes: a braced, possibly nested list of numbers, as
/// LibTorch's torch::detail::TensorDataContainer. Flat lists and vectors keep their own
/// `tensor` overloads (Functions.h); this one is reached by the nested forms only.
///
/// \code
///   auto m = gfy::tensor({{1.f, 2.f}, {3.f, 4.f}});        // Float [2, 2]
///   auto i = gfy::tensor({{1, 2}, {3, 4}}, gfy::kInt);    // ints give Long unless a dtype is given
/// \endcode
///
/// Rules as LibTorch's: every sub-list has the sizes of the first and the same element type
/// (`{{1, 2}, {3.5, 4}}` throws, naming both types); ints become Long and floats the default
/// dtype unless a dtype is given; a vector inside a nested list throws (LibTorch fails an internal
/// assert there).

#include <graphify/core/Tensor.h>
#include <graphify/core/Types.h>

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

namespace gfy::detail {

class TensorDataContainer {
public:
  /// `{}`: an empty 1-d list of the default dtype.
  TensorDataContainer();
  TensorDataContainer(bool v);
  TensorDataContainer(uint8_t v);
  TensorDataContainer(int8_t v);
  TensorDataContainer(int16_t v);
  TensorDataContainer(int v);
  TensorDataContainer(int64_t v);
  TensorDataContainer(float v);
  TensorDataContainer(double v);
  TensorDataContainer(std::initializer_list<TensorDataContainer> list);
  TensorDataContainer(const std::vector<uint8_t> &v);
  TensorDataContainer(const std::vector<int8_t> &v);
  TensorDataContainer(const std::vector<int16_t> &v);
  TensorDataContainer(const std::vector<int> &v);
  TensorDataContainer(const std::vector<int64_t> &v);
  TensorDataContainer(const std::vector<float> &v);
  TensorDataContainer(const std::vector<double> &v);

  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_init_list() const { return kind_ == Kind::InitList; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  const std::vector<int64_t> &sizes() const { return sizes_; }
  const ScalarType &scalar_type() const { return type_; }
  /// The CPU-built tensor moved to `options`' device, of `options`' dtype or the desired one.
  Tensor convert_to_tensor(TensorOptions options) const;
  /// `{1, 2}` / `{{1, 2}, {3, 4}}`, as LibTorch prints a container in its messages.
  void pretty_print_recursive(std::ostream &os) const;

private:
  enum class Kind : int8_t { Scalar, InitList, Tensor };
  TensorDataContainer(Scalar s, ScalarType t);
  TensorDataContainer(Tensor leaf, ScalarType t);
  void fill_tensor(Tensor &out) const;

  std::vector<int64_t> sizes_;
  ScalarType type_;
  Kind kind_;
  Scalar scalar_;
  std::vector<TensorDataContainer> list_;
  Tensor tensor_;
};

std::ostream &operator<<(std::ostream &os, const TensorDataContainer &c);
/// For GFY_CHECK messages (detail::str_cat).
std::string to_display(const TensorDataContainer &c);

} // namespace gfy::detail
