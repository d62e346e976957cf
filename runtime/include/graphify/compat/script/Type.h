#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h> as LibTorch's <torch/torch.h> reaches c10's IValue; not to be included directly.
///
/// The TorchScript types that LibTorch's containers carry (`c10::IntType::get()`,
/// `c10::impl::GenericList(c10::AnyType::get())`, `module.register_attribute("k",
/// c10::IntType::get(), 5)`), as far as an IValue needs them: a list knows its element type, so
/// `isIntList()` and `c10::impl::toTypedList<T>` answer as LibTorch's, and an attribute keeps its
/// declared type, so `setattr` refuses a value of another type with LibTorch's message. Types
/// print as TorchScript spells them ("int", "float", "List[int]", "Dict[str, Tensor]").
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace gfy {
class Tensor;
struct Device;
} // namespace gfy

namespace c10 {
class IValue;
template <class T> class List;
template <class K, class V> class Dict;

class Type;
using TypePtr = std::shared_ptr<const Type>;

/// One TorchScript type: a kind and, for containers, the types it contains.
class Type {
public:
  enum class Kind { Any, Tensor, Int, Float, Bool, String, Device, None, List, Dict, Tuple, Optional, Object };
  Type(Kind kind, std::vector<TypePtr> contained = {}, std::string name = {})
      : kind_(kind), contained_(std::move(contained)), name_(std::move(name)) {}
  Kind kind() const { return kind_; }
  const std::vector<TypePtr> &containedTypes() const { return contained_; }
  TypePtr containedType(size_t i) const { return contained_.at(i); }
  /// TorchScript's spelling: "int", "List[Tensor]", "Tuple[int, float]", "Optional[str]".
  std::string str() const {
    switch (kind_) {
    case Kind::Any: return "Any";
    case Kind::Tensor: return "Tensor";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Bool: return "bool";
    case Kind::String: return "str";
    case Kind::Device: return "Device";
    case Kind::None: return "NoneType";
    case Kind::List: return "List[" + contained_[0]->str() + "]";
    case Kind::Dict: return "Dict[" + contained_[0]->str() + ", " + contained_[1]->str() + "]";
    case Kind::Optional: return "Optional[" + contained_[0]->str() + "]";
    case Kind::Object: return name_;
    case Kind::Tuple: {
      std::string s = "Tuple[";
      for (size_t i = 0; i < contained_.size(); ++i)
        s += (i ? ", " : "") + contained_[i]->str();
      return s + "]";
    }
    }
    return "?";
  }
  std::string annotation_str() const { return str(); }
  std::string repr_str() const { return str(); }
  /// Structural equality, as TorchScript compares types.
  bool equals(const Type &o) const {
    if (kind_ != o.kind_ || name_ != o.name_ || contained_.size() != o.contained_.size())
      return false;
    for (size_t i = 0; i < contained_.size(); ++i)
      if (!contained_[i]->equals(*o.contained_[i]))
        return false;
    return true;
  }
  /// Whether a value of this type may stand where `o` is expected: equal, `o` is Any, or `o` is
  /// Optional[T] and this is T or NoneType.
  bool isSubtypeOf(const Type &o) const {
    if (o.kind_ == Kind::Any || equals(o))
      return true;
    if (o.kind_ == Kind::Optional)
      return kind_ == Kind::None || isSubtypeOf(*o.contained_[0]);
    return false;
  }

private:
  Kind kind_;
  std::vector<TypePtr> contained_;
  std::string name_;
};
inline bool operator==(const Type &a, const Type &b) { return a.equals(b); }
inline bool operator!=(const Type &a, const Type &b) { return !a.equals(b); }

namespace detail {
inline TypePtr singletonType(Type::Kind kind) {
  // One object per kind, as LibTorch's `IntType::get()` returns a singleton.
  static const TypePtr types[] = {
      std::make_shared<Type>(Type::Kind::Any),    std::make_shared<Type>(Type::Kind::Tensor),
      std::make_shared<Type>(Type::Kind::Int),    std::make_shared<Type>(Type::Kind::Float),
      std::make_shared<Type>(Type::Kind::Bool),   std::make_shared<Type>(Type::Kind::String),
      std::make_shared<Type>(Type::Kind::Device), std::make_shared<Type>(Type::Kind::None)};
  return types[static_cast<int>(kind)];
}
} // namespace detail

struct AnyType { static TypePtr get() { return detail::singletonType(Type::Kind::Any); } };
struct TensorType { static TypePtr get() { return detail::singletonType(Type::Kind::Tensor); } };
struct IntType { static TypePtr get() { return detail::singletonType(Type::Kind::Int); } };
struct FloatType { static TypePtr get() { return detail::singletonType(Type::Kind::Float); } };
struct BoolType { static TypePtr get() { return detail::singletonType(Type::Kind::Bool); } };
struct StringType { static TypePtr get() { return detail::singletonType(Type::Kind::String); } };
/// TorchScript's `Device` type (c10::DeviceType is the enum of device kinds, as in LibTorch).
struct DeviceObjType { static TypePtr get() { return detail::singletonType(Type::Kind::Device); } };
struct NoneType { static TypePtr get() { return detail::singletonType(Type::Kind::None); } };
struct ListType {
  static TypePtr create(TypePtr element) { return std::make_shared<Type>(Type::Kind::List, std::vector{element}); }
  static TypePtr ofTensors() { return create(TensorType::get()); }
  static TypePtr ofInts() { return create(IntType::get()); }
  static TypePtr ofFloats() { return create(FloatType::get()); }
  static TypePtr ofBools() { return create(BoolType::get()); }
  static TypePtr ofStrings() { return create(StringType::get()); }
};
struct DictType {
  static TypePtr create(TypePtr key, TypePtr value) {
    return std::make_shared<Type>(Type::Kind::Dict, std::vector{key, value});
  }
};
struct OptionalType {
  static TypePtr create(TypePtr element) {
    return std::make_shared<Type>(Type::Kind::Optional, std::vector{element});
  }
};
struct TupleType {
  static TypePtr create(std::vector<TypePtr> elements) {
    return std::make_shared<Type>(Type::Kind::Tuple, std::move(elements));
  }
};

namespace detail {
template <class T, class = void> struct getTypePtr_;
template <> struct getTypePtr_<gfy::Tensor> { static TypePtr call() { return TensorType::get(); } };
template <> struct getTypePtr_<int64_t> { static TypePtr call() { return IntType::get(); } };
template <> struct getTypePtr_<int32_t> { static TypePtr call() { return IntType::get(); } };
template <> struct getTypePtr_<double> { static TypePtr call() { return FloatType::get(); } };
template <> struct getTypePtr_<bool> { static TypePtr call() { return BoolType::get(); } };
template <> struct getTypePtr_<std::string> { static TypePtr call() { return StringType::get(); } };
template <> struct getTypePtr_<gfy::Device> { static TypePtr call() { return DeviceObjType::get(); } };
template <> struct getTypePtr_<IValue> { static TypePtr call() { return AnyType::get(); } };
template <class T> struct getTypePtr_<std::vector<T>> {
  static TypePtr call() { return ListType::create(getTypePtr_<T>::call()); }
};
template <class T> struct getTypePtr_<List<T>> {
  static TypePtr call() { return ListType::create(getTypePtr_<T>::call()); }
};
template <class K, class V> struct getTypePtr_<Dict<K, V>> {
  static TypePtr call() { return DictType::create(getTypePtr_<K>::call(), getTypePtr_<V>::call()); }
};
template <class T> struct getTypePtr_<std::optional<T>> {
  static TypePtr call() { return OptionalType::create(getTypePtr_<T>::call()); }
};
template <class... Ts> struct getTypePtr_<std::tuple<Ts...>> {
  static TypePtr call() { return TupleType::create({getTypePtr_<Ts>::call()...}); }
};
} // namespace detail

/// The TorchScript type of a C++ type (`c10::getTypePtr<std::vector<int64_t>>()` is List[int]).
template <class T> TypePtr getTypePtr() { return detail::getTypePtr_<std::decay_t<T>>::call(); }

} // namespace c10
