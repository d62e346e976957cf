#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h>; not to be included directly.
///
/// The IValue members that need lists, dicts, tuples and modules complete.
#include <graphify/compat/script/Dict.h>
#include <graphify/compat/script/IValue.h>
#include <graphify/compat/script/List.h>
#include <graphify/compat/script/Module.h>

#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace c10 {
inline IValue::IValue(std::string s) : payload_(ivalue::ConstantString::create(std::move(s))) {}
inline IValue::IValue(intrusive_ptr<ivalue::ConstantString> s) : payload_(std::move(s)) {}
inline IValue::IValue(intrusive_ptr<ivalue::Tuple> t) : payload_(std::move(t)) {}
inline IValue::IValue(intrusive_ptr<ivalue::Object> o) : payload_(std::move(o)) {}
inline IValue::IValue(const gfy::Scalar &s) {
  if (s.isFloatingPoint())
    payload_ = s.toDouble();
  else if (s.isBoolean())
    payload_ = s.toBool();
  else
    payload_ = s.toLong();
}
template <class T> IValue::IValue(List<T> l) : payload_(l.impl()) {}
template <class K, class V> IValue::IValue(Dict<K, V> d) : payload_(d.impl()) {}
template <class T>
  requires(!std::is_same_v<T, IValue> && std::is_constructible_v<IValue, T>)
IValue::IValue(const std::vector<T> &v) {
  List<T> list;
  list.reserve(v.size());
  for (const T &e : v)
    list.push_back(e);
  *this = IValue(std::move(list));
}
template <class T, size_t N>
  requires std::is_constructible_v<IValue, T>
IValue::IValue(const std::array<T, N> &v) : IValue(std::vector<T>(v.begin(), v.end())) {}
template <class... Ts>
  requires(std::is_constructible_v<IValue, Ts> && ...)
IValue::IValue(const std::tuple<Ts...> &t)
    : payload_(std::apply([](const auto &...e) { return ivalue::Tuple::create(std::vector<IValue>{IValue(e)...}); },
                          t)) {}

inline std::string IValue::tagKind() const {
  static const char *const names[] = {"None",   "Tensor",      "Double",      "Int",    "Bool",  "Tuple",
                                      "String", "GenericList", "GenericDict", "Device", "Object"};
  return names[payload_.index()];
}

inline const gfy::Tensor &IValue::toTensor() const & {
  TORCH_CHECK(isTensor(), "Expected Tensor but got ", tagKind());
  return std::get<gfy::Tensor>(payload_);
}
inline gfy::Tensor &IValue::toTensor() & {
  TORCH_CHECK(isTensor(), "Expected Tensor but got ", tagKind());
  return std::get<gfy::Tensor>(payload_);
}
inline gfy::Tensor IValue::toTensor() && {
  TORCH_CHECK(isTensor(), "Expected Tensor but got ", tagKind());
  return std::move(std::get<gfy::Tensor>(payload_));
}
inline gfy::Scalar IValue::toScalar() const {
  if (isDouble())
    return toDouble();
  if (isInt())
    return toInt();
  if (isBool())
    return toBool();
  throw std::runtime_error("IValue is not a Scalar");
}
inline intrusive_ptr<ivalue::Tuple> IValue::toTuple() const {
  TORCH_INTERNAL_ASSERT(isTuple(), "Expected Tuple but got ", tagKind());
  return std::get<intrusive_ptr<ivalue::Tuple>>(payload_);
}
inline ivalue::Tuple &IValue::toTupleRef() const { return *toTuple(); }
inline intrusive_ptr<ivalue::ConstantString> IValue::toString() const {
  TORCH_INTERNAL_ASSERT(isString(), "Expected String but got ", tagKind());
  return std::get<intrusive_ptr<ivalue::ConstantString>>(payload_);
}
inline const std::string &IValue::toStringRef() const {
  TORCH_INTERNAL_ASSERT(isString(), "Expected String but got ", tagKind());
  return std::get<intrusive_ptr<ivalue::ConstantString>>(payload_)->string();
}
inline std::optional<std::reference_wrapper<const std::string>> IValue::toOptionalStringRef() const {
  if (isNone())
    return std::nullopt;
  return std::cref(toStringRef());
}
inline List<IValue> IValue::toList() const {
  TORCH_INTERNAL_ASSERT(isList(), "Expected GenericList but got ", tagKind());
  return List<IValue>(std::get<std::shared_ptr<detail::ListImpl>>(payload_));
}
inline std::vector<IValue> IValue::toListRef() const { return toList().impl()->list; }
inline bool IValue::isListOf(Type::Kind kind) const {
  return isList() && std::get<std::shared_ptr<detail::ListImpl>>(payload_)->elementType->kind() == kind;
}
inline List<int64_t> IValue::toIntList() const {
  TORCH_INTERNAL_ASSERT(isIntList(), "Expected IntList but got ", tagKind());
  return List<int64_t>(toList().impl());
}
inline std::vector<int64_t> IValue::toIntVector() const { return toIntList().vec(); }
inline List<double> IValue::toDoubleList() const {
  TORCH_INTERNAL_ASSERT(isDoubleList(), "Expected DoubleList but got ", tagKind());
  return List<double>(toList().impl());
}
inline std::vector<double> IValue::toDoubleVector() const { return toDoubleList().vec(); }
inline List<bool> IValue::toBoolList() const {
  TORCH_INTERNAL_ASSERT(isBoolList(), "Expected BoolList but got ", tagKind());
  return List<bool>(toList().impl());
}
inline List<gfy::Tensor> IValue::toTensorList() const {
  TORCH_INTERNAL_ASSERT(isTensorList(), "Expected TensorList but got ", tagKind());
  return List<gfy::Tensor>(toList().impl());
}
inline std::vector<gfy::Tensor> IValue::toTensorVector() const { return toTensorList().vec(); }
inline Dict<IValue, IValue> IValue::toGenericDict() const {
  TORCH_INTERNAL_ASSERT(isGenericDict(), "Expected GenericDict but got ", tagKind());
  return Dict<IValue, IValue>(std::get<std::shared_ptr<detail::DictImpl>>(payload_));
}
inline intrusive_ptr<ivalue::Object> IValue::toObject() const {
  TORCH_INTERNAL_ASSERT(isObject(), "Expected Object but got ", tagKind());
  return std::get<intrusive_ptr<ivalue::Object>>(payload_);
}
inline ivalue::Object &IValue::toObjectRef() const { return *toObject(); }
inline torch::jit::Module IValue::toModule() const { return torch::jit::Module(toObject()); }

inline TypePtr ivalue::Tuple::type() const {
  std::vector<TypePtr> types;
  for (const IValue &e : elements_)
    types.push_back(e.type());
  return TupleType::create(std::move(types));
}

inline TypePtr IValue::type() const {
  switch (tag()) {
  case Tag::None: return NoneType::get();
  case Tag::Tensor: return TensorType::get();
  case Tag::Double: return FloatType::get();
  case Tag::Int: return IntType::get();
  case Tag::Bool: return BoolType::get();
  case Tag::String: return StringType::get();
  case Tag::Device: return DeviceObjType::get();
  case Tag::Tuple: return toTupleRef().type();
  case Tag::GenericList: return ListType::create(toList().elementType());
  case Tag::GenericDict: {
    auto d = toGenericDict();
    return DictType::create(d.keyType(), d.valueType());
  }
  case Tag::Object: return toObjectRef().type();
  }
  return AnyType::get();
}

inline bool IValue::is(const IValue &rhs) const {
  if (tag() != rhs.tag())
    return false;
  switch (tag()) {
  case Tag::Tensor: return toTensor().is_same(rhs.toTensor());
  case Tag::Tuple: return toTuple() == rhs.toTuple();
  case Tag::String: return toString() == rhs.toString();
  case Tag::GenericList: return toList().is(rhs.toList());
  case Tag::GenericDict: return toGenericDict().is(rhs.toGenericDict());
  case Tag::Object: return toObject() == rhs.toObject();
  default: return equalsForDict(rhs);
  }
}

inline size_t IValue::use_count() const noexcept {
  return std::visit(
      [](const auto &p) -> size_t {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, gfy::Tensor>)
          return 1;
        else if constexpr (requires { p.use_count(); })
          return size_t(p.use_count());
        else
          return 1;
      },
      payload_);
}

inline size_t IValue::hashForDict() const {
  switch (tag()) {
  case Tag::None: return 0;
  case Tag::Bool: return std::hash<bool>()(toBool());
  case Tag::Double: return std::hash<double>()(toDouble());
  case Tag::Int: return std::hash<int64_t>()(toInt());
  case Tag::String: return std::hash<std::string>()(toStringRef());
  case Tag::Tensor: return std::hash<const void *>()(toTensor().unsafeGetTensorImpl());
  case Tag::Device: return std::hash<int>()(int(toDevice().type()) * 256 + toDevice().index());
  case Tag::Tuple: {
    size_t h = 0;
    for (const IValue &e : toTupleRef().elements())
      h = h * 31 + e.hashForDict();
    return h;
  }
  default: TORCH_CHECK(false, "Can't hash IValues with tag '", tagKind(), "'");
  }
}

inline bool IValue::equalsForDict(const IValue &rhs) const {
  if (tag() != rhs.tag())
    return false;
  switch (tag()) {
  case Tag::None: return true;
  case Tag::Bool: return toBool() == rhs.toBool();
  case Tag::Double: return toDouble() == rhs.toDouble();
  case Tag::Int: return toInt() == rhs.toInt();
  case Tag::String: return toStringRef() == rhs.toStringRef();
  case Tag::Device: return toDevice() == rhs.toDevice();
  case Tag::Tuple: {
    const auto &a = toTupleRef().elements(), &b = rhs.toTupleRef().elements();
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!a[i].equalsForDict(b[i]))
        return false;
    return true;
  }
  default: return is(rhs);
  }
}

namespace detail {
template <class T> struct IValueTo {
  static T call(const IValue &v) {
    if constexpr (std::is_same_v<T, IValue>)
      return v;
    else if constexpr (std::is_same_v<T, gfy::Tensor>)
      return v.toTensor();
    else if constexpr (std::is_same_v<T, bool>)
      return v.toBool();
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(v.toInt());
    else if constexpr (std::is_floating_point_v<T>)
      return static_cast<T>(v.toDouble());
    else if constexpr (std::is_same_v<T, std::string>)
      return v.toStringRef();
    else if constexpr (std::is_same_v<T, gfy::Device>)
      return v.toDevice();
    else if constexpr (std::is_same_v<T, gfy::ScalarType>)
      return v.toScalarType();
    else if constexpr (std::is_same_v<T, gfy::Scalar>)
      return v.toScalar();
    else if constexpr (std::is_same_v<T, intrusive_ptr<ivalue::Tuple>>)
      return v.toTuple();
    else if constexpr (std::is_same_v<T, torch::jit::Module>)
      return v.toModule();
    else
      static_assert(sizeof(T) == 0, "IValue::to<T>: T is not a type an IValue holds");
  }
};
template <class T> struct IValueTo<List<T>> {
  static List<T> call(const IValue &v) { return impl::toTypedList<T>(v.toList()); }
};
template <class T> struct IValueTo<std::vector<T>> {
  static std::vector<T> call(const IValue &v) {
    std::vector<T> out;
    for (const IValue &e : v.toList().impl()->list)
      out.push_back(IValueTo<T>::call(e));
    return out;
  }
};
template <class K, class V> struct IValueTo<Dict<K, V>> {
  static Dict<K, V> call(const IValue &v) { return impl::toTypedDict<K, V>(v.toGenericDict()); }
};
template <class T> struct IValueTo<std::optional<T>> {
  static std::optional<T> call(const IValue &v) {
    if (v.isNone())
      return std::nullopt;
    return IValueTo<T>::call(v);
  }
};
template <class... Ts> struct IValueTo<std::tuple<Ts...>> {
  static std::tuple<Ts...> call(const IValue &v) {
    const auto &e = v.toTupleRef().elements();
    TORCH_CHECK(e.size() == sizeof...(Ts), "Expected a tuple of ", sizeof...(Ts), " elements, but got ", e.size());
    return call(e, std::index_sequence_for<Ts...>());
  }
  template <size_t... I> static std::tuple<Ts...> call(const ivalue::TupleElements &e, std::index_sequence<I...>) {
    return std::tuple<Ts...>(IValueTo<Ts>::call(e[I])...);
  }
};

/// LibTorch's spelling of a float: "2." for an integral value that fits an int64 (even 1e17),
/// else 17 significant digits ("0.10000000000000001", "1e+100", "inf").
inline std::ostream &printDouble(std::ostream &out, double d) {
  if (std::isfinite(d) && std::abs(d) < 9.2e18) {
    const auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d)
      return out << i << ".";
  }
  const auto precision = out.precision();
  return out << std::setprecision(std::numeric_limits<double>::max_digits10) << d << std::setprecision(precision);
}
template <class Range>
std::ostream &printSequence(std::ostream &out, const Range &items, const char *open, const char *close) {
  out << open;
  bool first = true;
  for (const IValue &e : items) {
    out << (first ? "" : ", ") << e;
    first = false;
  }
  return out << close;
}
} // namespace detail

template <class T> T IValue::to() const { return detail::IValueTo<T>::call(*this); }

/// LibTorch's printing of an IValue: "None", "True", "2.", "[1, 2]", "(a,)", "{a: 1}".
inline std::ostream &operator<<(std::ostream &out, const IValue &v) {
  switch (v.tag()) {
  case IValue::Tag::None: return out << "None";
  case IValue::Tag::Tensor: return out << v.toTensor();
  case IValue::Tag::Double: return detail::printDouble(out, v.toDouble());
  case IValue::Tag::Int: return out << v.toInt();
  case IValue::Tag::Bool: return out << (v.toBool() ? "True" : "False");
  case IValue::Tag::String: return out << v.toStringRef();
  case IValue::Tag::Device: return out << v.toDevice();
  case IValue::Tag::Tuple: {
    const auto &e = v.toTupleRef().elements();
    return detail::printSequence(out, e, "(", e.size() == 1 ? ",)" : ")");
  }
  case IValue::Tag::GenericList: return detail::printSequence(out, v.toList().impl()->list, "[", "]");
  case IValue::Tag::GenericDict: {
    out << "{";
    bool first = true;
    for (const auto &[key, value] : v.toGenericDict().impl()->entries) {
      out << (first ? "" : ", ") << key << ": " << value;
      first = false;
    }
    return out << "}";
  }
  case IValue::Tag::Object: return out << "<" << v.toObjectRef().name() << " object at " << v.toObject().get() << ">";
  }
  return out;
}
} // namespace c10

// The names user code spells for these types.
// LibTorch's torch:: and at:: see all of c10, so `torch::ivalue::Tuple` and `torch::Join` resolve.
namespace c10::script_names {
using ::c10::Dict;
using ::c10::IValue;
using ::c10::Join;
using ::c10::List;
using ::c10::str;
namespace ivalue = ::c10::ivalue;
} // namespace c10::script_names
namespace torch {
using namespace ::c10::script_names;
} // namespace torch
namespace at {
using namespace ::c10::script_names;
} // namespace at
