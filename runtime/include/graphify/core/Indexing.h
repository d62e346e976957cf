#pragma once
/// \file
/// `x.index({...})` / `x.index_put_({...}, v)` index objects, as torch::indexing.
///
/// \code
///   using namespace gfy::indexing;
///   auto a = x.index({Slice(1, None), 0});           // basic: a view
///   auto b = x.index({x > 0});                        // bool mask: dynamic shape, host sync
///   auto c = x.index({gfy::argsort(m, true, 0)});     // long index: fixed shape
///   x.index_put_({Ellipsis, 0}, 1.0);
/// \endcode

#include <graphify/core/Tensor.h>

#include <optional>

namespace gfy::indexing {

struct EllipsisIndexType {};
inline constexpr EllipsisIndexType Ellipsis{};
/// `None` inserts a new dimension of size 1 (and means "open end" inside Slice).
inline constexpr std::nullopt_t None = std::nullopt;

/// Python's `start:stop:step`.
struct Slice {
  std::optional<int64_t> start, stop, step;
  Slice(std::optional<int64_t> start_ = std::nullopt, std::optional<int64_t> stop_ = std::nullopt,
        std::optional<int64_t> step_ = std::nullopt)
      : start(start_), stop(stop_), step(step_) {}
};

/// One entry of an index list: None, Ellipsis ("..."), an integer, a bool, a Slice or a Tensor.
class TensorIndex {
public:
  enum class Kind { None, Ellipsis, Integer, Boolean, Slice, Tensor };
  TensorIndex(std::nullopt_t) : kind_(Kind::None) {}
  TensorIndex(EllipsisIndexType) : kind_(Kind::Ellipsis) {}
  TensorIndex(const char *s);
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  TensorIndex(T i) : kind_(Kind::Integer), integer_(int64_t(i)) {}
  TensorIndex(bool b) : kind_(Kind::Boolean), boolean_(b) {}
  TensorIndex(Slice s) : kind_(Kind::Slice), slice_(s) {}
  TensorIndex(Tensor t) : kind_(Kind::Tensor), tensor_(std::move(t)) {}

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_ellipsis() const { return kind_ == Kind::Ellipsis; }
  bool is_integer() const { return kind_ == Kind::Integer; }
  bool is_boolean() const { return kind_ == Kind::Boolean; }
  bool is_slice() const { return kind_ == Kind::Slice; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  int64_t integer() const { return integer_; }
  bool boolean() const { return boolean_; }
  const Slice &slice() const { return slice_; }
  const Tensor &tensor() const { return tensor_; }

private:
  Kind kind_;
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
};

} // namespace gfy::indexing
