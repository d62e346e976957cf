#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h>; not to be included directly.
///
/// `c10::IValue` (also `torch::IValue`, `at::IValue`, `torch::jit::IValue`): the boxed value that
/// TorchScript modules take and return, and that inference code unpacks
/// (`module.forward(inputs).toTuple()->elements()[0].toTensor()`). It is a plain container, so the
/// shim has it whole for the kinds user code builds and reads: None, Tensor, float, int, bool,
/// str, tuple, list, dict, Device and module objects, with LibTorch's constructors, `isX`/`toX`,
/// `tagKind()`, `to<T>()`, printing and error messages. Lists, dicts, tuples and objects are shared
/// on copy, as LibTorch's intrusive pointers are.
#include <graphify/compat/script/Type.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <array>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace torch::jit {
class Module;
} // namespace torch::jit

namespace c10 {
/// LibTorch's reference-counted pointer; shared ownership is all the shim's containers need.
template <class T> using intrusive_ptr = std::shared_ptr<T>;
template <class T, class... Args> intrusive_ptr<T> make_intrusive(Args &&...args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

namespace ivalue {
struct Tuple;
struct Object;
struct ConstantString;
} // namespace ivalue
namespace detail {
struct ListImpl;
struct DictImpl;
} // namespace detail

class IValue {
public:
  /// The kinds, in the order of `payload_`'s alternatives; their names are LibTorch's tags.
  enum class Tag { None, Tensor, Double, Int, Bool, Tuple, String, GenericList, GenericDict, Device, Object };

  IValue() = default;
  IValue(gfy::Tensor t) : payload_(std::move(t)) {}
  IValue(double d) : payload_(d) {}
  IValue(int64_t i) : payload_(i) {}
  IValue(int32_t i) : payload_(int64_t(i)) {}
  IValue(bool b) : payload_(b) {}
  IValue(std::string s);
  IValue(const char *s) : IValue(std::string(s)) {}
  IValue(std::string_view s) : IValue(std::string(s)) {}
  IValue(gfy::Device d) : payload_(d) {}
  /// A dtype is boxed as LibTorch's integer code for it (kFloat is 6), as LibTorch boxes it.
  IValue(gfy::ScalarType t) : payload_(libtorchCode(t)) {}
  IValue(const gfy::Scalar &s);
  IValue(std::nullopt_t) {}
  IValue(intrusive_ptr<ivalue::Tuple> t);
  IValue(intrusive_ptr<ivalue::ConstantString> s);
  IValue(intrusive_ptr<ivalue::Object> o);
  template <class T> IValue(List<T> l);
  template <class K, class V> IValue(Dict<K, V> d);
  template <class T>
    requires(!std::is_same_v<T, IValue> && std::is_constructible_v<IValue, T>)
  IValue(const std::vector<T> &v);
  template <class T, size_t N>
    requires std::is_constructible_v<IValue, T>
  IValue(const std::array<T, N> &v);
  template <class T>
    requires(!std::is_same_v<T, IValue> && std::is_constructible_v<IValue, T>)
  IValue(gfy::ArrayRef<T> v) : IValue(v.vec()) {}
  template <class T>
    requires std::is_constructible_v<IValue, T>
  IValue(std::optional<T> v) {
    if (v)
      *this = IValue(std::move(*v));
  }
  template <class... Ts>
    requires(std::is_constructible_v<IValue, Ts> && ...)
  IValue(const std::tuple<Ts...> &t);

  Tag tag() const { return static_cast<Tag>(payload_.index()); }
  /// LibTorch's name of the kind held ("Tensor", "Int", "GenericList", ...), as its messages use.
  std::string tagKind() const;

  bool isNone() const { return tag() == Tag::None; }
  bool isTensor() const { return tag() == Tag::Tensor; }
  bool isDouble() const { return tag() == Tag::Double; }
  bool isInt() const { return tag() == Tag::Int; }
  bool isBool() const { return tag() == Tag::Bool; }
  bool isTuple() const { return tag() == Tag::Tuple; }
  bool isString() const { return tag() == Tag::String; }
  bool isList() const { return tag() == Tag::GenericList; }
  bool isGenericDict() const { return tag() == Tag::GenericDict; }
  bool isDevice() const { return tag() == Tag::Device; }
  bool isObject() const { return tag() == Tag::Object; }
  /// Every object here is a module: the shim has no TorchScript classes.
  bool isModule() const { return isObject(); }
  bool isScalar() const { return isDouble() || isInt() || isBool(); }
  bool isIntList() const { return isListOf(Type::Kind::Int); }
  bool isDoubleList() const { return isListOf(Type::Kind::Float); }
  bool isBoolList() const { return isListOf(Type::Kind::Bool); }
  bool isTensorList() const { return isListOf(Type::Kind::Tensor); }
  bool isComplexDouble() const { return false; }
  bool isFuture() const { return false; }
  bool isCapsule() const { return false; }
  bool isCustomClass() const { return false; }
  bool isPyObject() const { return false; }
  bool isEnum() const { return false; }
  bool isStream() const { return false; }
  bool isGenerator() const { return false; }

  const gfy::Tensor &toTensor() const &;
  gfy::Tensor &toTensor() &;
  gfy::Tensor toTensor() &&;
  double toDouble() const {
    TORCH_INTERNAL_ASSERT(isDouble());
    return std::get<double>(payload_);
  }
  int64_t toInt() const {
    TORCH_INTERNAL_ASSERT(isInt());
    return std::get<int64_t>(payload_);
  }
  bool toBool() const {
    TORCH_INTERNAL_ASSERT(isBool());
    return std::get<bool>(payload_);
  }
  gfy::Device toDevice() const {
    TORCH_INTERNAL_ASSERT(isDevice());
    return std::get<gfy::Device>(payload_);
  }
  gfy::ScalarType toScalarType() const { return scalarTypeOfCode(toInt()); }
  gfy::Scalar toScalar() const;
  std::string toNone() const {
    TORCH_INTERNAL_ASSERT(isNone());
    return "None";
  }
  intrusive_ptr<ivalue::Tuple> toTuple() const;
  ivalue::Tuple &toTupleRef() const;
  intrusive_ptr<ivalue::ConstantString> toString() const;
  const std::string &toStringRef() const;
  std::string_view toStringView() const { return toStringRef(); }
  std::optional<std::reference_wrapper<const std::string>> toOptionalStringRef() const;
  List<IValue> toList() const;
  std::vector<IValue> toListRef() const;
  List<int64_t> toIntList() const;
  std::vector<int64_t> toIntVector() const;
  List<double> toDoubleList() const;
  std::vector<double> toDoubleVector() const;
  List<bool> toBoolList() const;
  List<gfy::Tensor> toTensorList() const;
  std::vector<gfy::Tensor> toTensorVector() const;
  Dict<IValue, IValue> toGenericDict() const;
  intrusive_ptr<ivalue::Object> toObject() const;
  ivalue::Object &toObjectRef() const;
  torch::jit::Module toModule() const;
  const IValue &toIValue() const { return *this; }
  IValue &toIValue() { return *this; }

  /// `value.to<T>()`: the value as T (Tensor, int64_t, double, bool, std::string, std::vector<T>,
  /// List<T>, Dict<K, V>, std::tuple<...>, std::optional<T>, IValue), with toX's checks.
  template <class T> T to() const;
  template <class T> std::optional<T> toOptional() const {
    if (isNone())
      return std::nullopt;
    return to<T>();
  }

  /// The TorchScript type of the value held (a list's or dict's declared element types).
  TypePtr type() const;
  /// Whether both hold the same object (tensors, containers) or equal plain values.
  bool is(const IValue &rhs) const;
  /// Number of IValues sharing a container or object; 1 for plain values.
  size_t use_count() const noexcept;
  void swap(IValue &rhs) noexcept { payload_.swap(rhs.payload_); }

  /// Keys of a dict: hashing and equality by value, tensors by identity (LibTorch's rules).
  struct HashAliasedIValue;
  struct CompIdentityIValues;
  size_t hashForDict() const;
  bool equalsForDict(const IValue &rhs) const;

private:
  static int64_t libtorchCode(gfy::ScalarType t) {
    switch (t) {
    case gfy::ScalarType::Byte: return 0;
    case gfy::ScalarType::Char: return 1;
    case gfy::ScalarType::Short: return 2;
    case gfy::ScalarType::Int: return 3;
    case gfy::ScalarType::Long: return 4;
    case gfy::ScalarType::Float: return 6;
    case gfy::ScalarType::Half: return 5;
    case gfy::ScalarType::Double: return 7;
    case gfy::ScalarType::Bool: return 11;
    case gfy::ScalarType::BFloat16: return 15;
    }
    return -1;
  }
  static gfy::ScalarType scalarTypeOfCode(int64_t code) {
    for (int i = 0; i < gfy::kNumScalarTypes; ++i)
      if (libtorchCode(gfy::ScalarType(i)) == code)
        return gfy::ScalarType(i);
    TORCH_CHECK(false, "dtype code ", code, " names a dtype that graphify's runtime does not have");
  }
  bool isListOf(Type::Kind kind) const;
  using Payload = std::variant<std::monostate, gfy::Tensor, double, int64_t, bool, intrusive_ptr<ivalue::Tuple>,
                               intrusive_ptr<ivalue::ConstantString>, std::shared_ptr<detail::ListImpl>,
                               std::shared_ptr<detail::DictImpl>, gfy::Device, intrusive_ptr<ivalue::Object>>;
  Payload payload_;
};

std::ostream &operator<<(std::ostream &out, const IValue &v);

namespace ivalue {
/// A string in an IValue (`value.toString()->string()`).
struct ConstantString {
  explicit ConstantString(std::string s) : str_(std::move(s)) {}
  static intrusive_ptr<ConstantString> create(std::string s) { return make_intrusive<ConstantString>(std::move(s)); }
  const std::string &string() const { return str_; }
  std::string_view string_view() const { return str_; }
  operator const std::string &() const { return str_; }

private:
  std::string str_;
};

/// A tuple's elements (`tuple->elements()[0]`, `.size()`, range-for, `.vec()`).
class TupleElements {
public:
  TupleElements() = default;
  explicit TupleElements(std::vector<IValue> v) : v_(std::move(v)) {}
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  const IValue &operator[](size_t i) const { return v_[i]; }
  IValue &operator[](size_t i) { return v_[i]; }
  const IValue &at(size_t i) const { return v_.at(i); }
  const IValue &front() const { return v_.front(); }
  const IValue &back() const { return v_.back(); }
  std::vector<IValue>::const_iterator begin() const { return v_.begin(); }
  std::vector<IValue>::const_iterator end() const { return v_.end(); }
  std::vector<IValue>::iterator begin() { return v_.begin(); }
  std::vector<IValue>::iterator end() { return v_.end(); }
  std::vector<IValue> vec() const { return v_; }
  operator std::vector<IValue>() const { return v_; }

private:
  std::vector<IValue> v_;
};

struct Tuple {
  explicit Tuple(std::vector<IValue> elements) : elements_(std::move(elements)) {}
  static intrusive_ptr<Tuple> create(std::vector<IValue> elements) {
    return make_intrusive<Tuple>(std::move(elements));
  }
  static intrusive_ptr<Tuple> create(std::initializer_list<IValue> elements) {
    return create(std::vector<IValue>(elements));
  }
  template <class... Args>
    requires(sizeof...(Args) >= 1 && (std::is_constructible_v<IValue, Args> && ...) &&
             !(sizeof...(Args) == 1 && (std::is_same_v<std::decay_t<Args>, std::vector<IValue>> && ...)))
  static intrusive_ptr<Tuple> create(Args &&...elements) {
    return create(std::vector<IValue>{IValue(std::forward<Args>(elements))...});
  }
  const TupleElements &elements() const & { return elements_; }
  TupleElements elements() && { return std::move(elements_); }
  void setElement(size_t i, IValue v) { elements_[i] = std::move(v); }
  size_t size() const { return elements_.size(); }
  TypePtr type() const;

private:
  TupleElements elements_;
};
} // namespace ivalue

} // namespace c10
