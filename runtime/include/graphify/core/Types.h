#pragma once
/// \file
/// The small value types of the gfy:: runtime: dtypes, devices, tensor options, scalars,
/// size lists and the two exception types. Names and semantics mirror LibTorch (c10) so that
/// code written against `torch::` compiles unchanged through the compat header.
///
/// \code
///   auto opts = gfy::TensorOptions().dtype(gfy::kFloat).device(gfy::kCPU);
///   gfy::Tensor z = gfy::zeros({2, 3}, opts);
///   gfy::Tensor i = gfy::arange(5, gfy::dtype(gfy::kLong));
/// \endcode

#include <graphify/core/Half.h>

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ostream>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gfy {

// ---------------------------------------------------------------------------------------------
// Errors

/// Every runtime failure (bad shape, dtype, index, device) is reported as a gfy::Error; the
/// runtime never aborts on user mistakes.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &msg) : std::runtime_error(msg) {}
  /// The message, as c10::Error::msg() (which LibTorch gives without its backtrace).
  std::string msg() const { return what(); }
  const char *what_without_backtrace() const noexcept { return what(); }
};

/// Thrown when an op that needs tensor values on the host (item(), nonzero(), boolean-mask
/// indexing, ...) runs while a graph is being captured. `file()`/`line()` are the caller's
/// source location, so the message points at the user's code, not at the runtime.
class CaptureError : public Error {
public:
  CaptureError(std::string op, const std::source_location &loc, const std::string &why);
  const std::string &op() const { return op_; }
  const std::string &file() const { return file_; }
  unsigned line() const { return line_; }

private:
  std::string op_;
  std::string file_;
  unsigned line_;
};

namespace detail {
[[noreturn]] void throw_error(const std::string &msg);
/// Prints one of LibTorch's run-time warnings (TORCH_WARN: "Warning: " and the text, every time
/// the call runs, as LibTorch does) to stderr.
void warn(const std::string &msg);
template <class... Args> std::string str_cat(const Args &...args);
} // namespace detail

/// GFY_CHECK(cond, "message parts", ...) throws gfy::Error with the concatenated message.
#define GFY_CHECK(cond, ...)                                                                       \
  do {                                                                                             \
    if (!(cond)) ::gfy::detail::throw_error(::gfy::detail::str_cat(__VA_ARGS__));                  \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Dtypes

/// Element types. The values are stable (the runtime's archive stores them), so the narrow integer
/// types come last; promotion follows LibTorch's lattice (promote_types), not the values.
enum class ScalarType : int8_t {
  Bool = 0, Int = 1, Long = 2, Float = 3, Double = 4, Byte = 5, Char = 6, Short = 7, Half = 8, BFloat16 = 9
};
constexpr int kNumScalarTypes = 10;

inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kUInt8 = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kInt8 = ScalarType::Char;
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kInt16 = ScalarType::Short;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kInt32 = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kInt64 = ScalarType::Long;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kFloat32 = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kFloat64 = ScalarType::Double;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kFloat16 = ScalarType::Half;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
// LibTorch's short spellings (torch/types.h) of the dtypes the runtime has.
inline constexpr ScalarType kU8 = kUInt8;
inline constexpr ScalarType kI8 = kInt8;
inline constexpr ScalarType kI16 = kInt16;
inline constexpr ScalarType kI32 = kInt32;
inline constexpr ScalarType kI64 = kInt64;
inline constexpr ScalarType kF32 = kFloat32;
inline constexpr ScalarType kF64 = kFloat64;
inline constexpr ScalarType kF16 = kFloat16;

/// Bytes per element.
size_t element_size(ScalarType t);
/// "Float", "Long", ... as LibTorch prints them.
const char *to_string(ScalarType t);
std::ostream &operator<<(std::ostream &os, ScalarType t);
/// Half and bfloat16: stored in 16 bits, computed in float (graphify/core/Half.h).
inline bool isReducedFloatingType(ScalarType t) { return t == kHalf || t == kBFloat16; }
inline bool isFloatingType(ScalarType t) { return t == kFloat || t == kDouble || isReducedFloatingType(t); }
inline bool isIntegralType(ScalarType t, bool include_bool) {
  return t == kByte || t == kChar || t == kShort || t == kInt || t == kLong || (include_bool && t == kBool);
}
/// What `x.dtype()` returns, as LibTorch's caffe2::TypeMeta: it prints and names the C++ element
/// type (`float`, `long int`, ...) where a ScalarType prints `Float`, `Long`. Beyond LibTorch it
/// also converts implicitly to ScalarType, so `ScalarType t = x.dtype();` compiles here.
/// \code
///   std::cout << x.dtype();                       // float
///   if (x.dtype() == gfy::kFloat) { ... }
///   auto y = gfy::zeros({2}, x.dtype());          // TensorOptions from a TypeMeta
/// \endcode
class TypeMeta {
public:
  constexpr TypeMeta() = default;
  constexpr TypeMeta(ScalarType t) : type_(t) {}
  constexpr ScalarType toScalarType() const { return type_; }
  constexpr operator ScalarType() const { return type_; }
  /// The element type's C++ name, as LibTorch's TypeMeta::name() ("float", "long int", ...).
  const char *name() const;
  size_t itemsize() const { return element_size(type_); }
  friend constexpr bool operator==(TypeMeta a, TypeMeta b) { return a.type_ == b.type_; }
  friend constexpr bool operator==(TypeMeta a, ScalarType b) { return a.type_ == b; }
  friend constexpr bool operator==(ScalarType a, TypeMeta b) { return a == b.type_; }
  friend constexpr bool operator!=(TypeMeta a, TypeMeta b) { return a.type_ != b.type_; }
  friend constexpr bool operator!=(TypeMeta a, ScalarType b) { return a.type_ != b; }
  friend constexpr bool operator!=(ScalarType a, TypeMeta b) { return a != b.type_; }

private:
  ScalarType type_ = ScalarType::Float;
};
/// Prints name(), as LibTorch.
std::ostream &operator<<(std::ostream &os, TypeMeta t);
inline ScalarType typeMetaToScalarType(TypeMeta t) { return t.toScalarType(); }
inline TypeMeta scalarTypeToTypeMeta(ScalarType t) { return TypeMeta(t); }
/// torch::Dtype, as LibTorch: the ScalarType (x.dtype() is a TypeMeta there too).
using Dtype = ScalarType;

/// The type both operands are converted to (LibTorch's promoteTypes for the runtime's dtypes).
ScalarType promote_types(ScalarType a, ScalarType b);
/// Whether a result of type `from` may be written into a tensor of type `to` (LibTorch canCast).
bool can_cast(ScalarType from, ScalarType to);
/// The default floating dtype (float32), used for int / int division and float scalars.
inline ScalarType get_default_dtype() { return kFloat; }

template <class T> struct CppTypeToScalarType;
template <> struct CppTypeToScalarType<bool> { static constexpr ScalarType value = kBool; };
template <> struct CppTypeToScalarType<uint8_t> { static constexpr ScalarType value = kByte; };
template <> struct CppTypeToScalarType<int8_t> { static constexpr ScalarType value = kChar; };
template <> struct CppTypeToScalarType<int16_t> { static constexpr ScalarType value = kShort; };
template <> struct CppTypeToScalarType<int32_t> { static constexpr ScalarType value = kInt; };
template <> struct CppTypeToScalarType<int64_t> { static constexpr ScalarType value = kLong; };
template <> struct CppTypeToScalarType<float> { static constexpr ScalarType value = kFloat; };
template <> struct CppTypeToScalarType<double> { static constexpr ScalarType value = kDouble; };
template <> struct CppTypeToScalarType<Half> { static constexpr ScalarType value = kHalf; };
template <> struct CppTypeToScalarType<BFloat16> { static constexpr ScalarType value = kBFloat16; };
/// The C++ element type of a dtype (c10::impl::ScalarTypeToCPPTypeT), for the dispatch macros.
template <ScalarType S> struct ScalarTypeToCPPType;
template <> struct ScalarTypeToCPPType<ScalarType::Bool> { using type = bool; };
template <> struct ScalarTypeToCPPType<ScalarType::Byte> { using type = uint8_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Char> { using type = int8_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Short> { using type = int16_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Int> { using type = int32_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Long> { using type = int64_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Float> { using type = float; };
template <> struct ScalarTypeToCPPType<ScalarType::Double> { using type = double; };
template <> struct ScalarTypeToCPPType<ScalarType::Half> { using type = Half; };
template <> struct ScalarTypeToCPPType<ScalarType::BFloat16> { using type = BFloat16; };
template <ScalarType S> using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<S>::type;
/// The real type under an element type (c10::scalar_value_type): the type itself for the
/// runtime's dtypes, the component type of a complex number.
template <class T> struct scalar_value_type { using type = T; };
template <class T> struct scalar_value_type<std::complex<T>> { using type = T; };

// ---------------------------------------------------------------------------------------------
// Memory formats

/// How a dense tensor orders its dims in memory (c10::MemoryFormat). The runtime's ops make
/// row-major (Contiguous) results; `x.contiguous(gfy::MemoryFormat::ChannelsLast)` gives an NCHW
/// tensor whose channels are innermost, which every op reads through its strides.
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
/// "Contiguous", "ChannelsLast", ... as LibTorch prints them.
std::ostream &operator<<(std::ostream &os, MemoryFormat f);

// ---------------------------------------------------------------------------------------------
// Devices

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr int kNumDeviceTypes = 2;

/// A device: type plus index (-1 = current). Implicitly constructible from a DeviceType as in
/// LibTorch, so `t.to(gfy::kCPU)` works.
struct Device {
  DeviceType type_ = DeviceType::CPU;
  int8_t index_ = -1;
  /// Marks for the CPU-only run, where the CPU stands in for the device a graph is captured on
  /// (docs/runtime.md, "Host memory in a CPU capture"). A device read from a tensor (`x.device()`)
  /// names the device the graph runs on; memory a factory allocated inside a graph region
  /// without being given a device is pageable host memory, which a CUDA graph cannot copy from.
  /// Neither takes part in equality or printing.
  bool of_tensor_ = false;
  bool pageable_host_ = false;
  Device(DeviceType t = DeviceType::CPU, int index = -1) : type_(t), index_(int8_t(index)) {}
  /// Parses "cpu", "cuda", "cuda:1".
  Device(const std::string &spec);
  Device(const char *spec) : Device(std::string(spec)) {}
  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  std::string str() const;
  bool operator==(const Device &o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device &o) const { return !(*this == o); }
};
std::ostream &operator<<(std::ostream &os, const Device &d);
} // namespace gfy
/// Devices key hash maps (`std::unordered_map<torch::Device, Tensor>`), as LibTorch's std::hash.
template <> struct std::hash<gfy::Device> {
  size_t operator()(const gfy::Device &d) const noexcept {
    return std::hash<int>()((int(d.type()) << 16) | uint8_t(d.index()));
  }
};
namespace gfy {
/// "cpu" / "cuda", as LibTorch (a declared overload: DeviceType converts to Device and to
/// TensorOptions alike).
std::ostream &operator<<(std::ostream &os, DeviceType t);

namespace detail {
/// The device of a factory given none: the CPU, marked as pageable host memory while a graph is
/// being captured or traced (Graph.h).
Device factory_default_device();
} // namespace detail

// ---------------------------------------------------------------------------------------------
// TensorOptions

/// Builder for creation options, as `torch::TensorOptions`. Implicit from a dtype or a device.
struct TensorOptions {
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  bool requires_grad_ = false;
  bool layout_set_ = false; ///< only Strided exists; set by Tensor::options(), for printing as LibTorch

  TensorOptions() = default;
  TensorOptions(ScalarType t) : dtype_(t) {}
  TensorOptions(TypeMeta t) : dtype_(t.toScalarType()) {}
  TensorOptions(Device d) : device_(d) {}
  TensorOptions(DeviceType d) : device_(Device(d)) {}

  TensorOptions dtype(ScalarType t) const { auto o = *this; o.dtype_ = t; return o; }
  TensorOptions dtype(TypeMeta t) const { return dtype(t.toScalarType()); }
  TensorOptions device(Device d) const { auto o = *this; o.device_ = d; return o; }
  /// Accepted for source compatibility; the runtime has no autograd.
  TensorOptions requires_grad(bool r) const { auto o = *this; o.requires_grad_ = r; return o; }

  TypeMeta dtype() const { return dtype_.value_or(get_default_dtype()); }
  /// The device; unset, the host (pageable memory when a graph region is being captured).
  Device device() const { return device_.has_value() ? *device_ : detail::factory_default_device(); }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
};
/// What LibTorch's deprecated `x.type()` returns (at::DeprecatedTypeProperties): a device type
/// and a dtype, compared together, printed as "CPUFloatType". Kept for the old code that still
/// writes `x.type().scalarType()`, `x.type() == y.type()` or `x.type().is_cuda()`.
///
/// \code
///   if (x.type() != y.type()) y = y.to(x.type().scalarType());
/// \endcode
class DeprecatedTypeProperties {
public:
  constexpr DeprecatedTypeProperties(DeviceType device_type, ScalarType scalar_type)
      : device_type_(device_type), scalar_type_(scalar_type) {}
  DeviceType device_type() const { return device_type_; }
  bool is_cuda() const { return device_type_ == kCUDA; }
  bool is_sparse() const { return false; }
  ScalarType scalarType() const { return scalar_type_; }
  TypeMeta typeMeta() const { return TypeMeta(scalar_type_); }
  /// "CPUFloatType", "CUDALongType", as LibTorch.
  std::string toString() const;
  const DeprecatedTypeProperties &toScalarType(ScalarType s) const;
  const DeprecatedTypeProperties &cpu() const;
  const DeprecatedTypeProperties &cuda() const;
  TensorOptions options() const { return TensorOptions().dtype(scalar_type_).device(Device(device_type_)); }
  operator TensorOptions() const { return options(); }
  bool operator==(const DeprecatedTypeProperties &o) const {
    return device_type_ == o.device_type_ && scalar_type_ == o.scalar_type_;
  }
  bool operator!=(const DeprecatedTypeProperties &o) const { return !(*this == o); }

private:
  DeviceType device_type_;
  ScalarType scalar_type_;
};
/// The one instance for each (device type, dtype), as LibTorch's registry: `type()` returns a
/// reference that outlives the tensor.
const DeprecatedTypeProperties &deprecated_type_properties(DeviceType device_type, ScalarType scalar_type);
std::ostream &operator<<(std::ostream &os, const DeprecatedTypeProperties &t);

inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
inline TensorOptions dtype(TypeMeta t) { return TensorOptions().dtype(t); }
/// As LibTorch: `TensorOptions(dtype=float, device=cpu, layout=Strided, ...)`.
std::ostream &operator<<(std::ostream &os, const TensorOptions &o);
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }

// ---------------------------------------------------------------------------------------------
// Scalar

/// A host number: bool, integer or floating, as c10::Scalar. Implicit from any arithmetic type.
class Scalar {
public:
  enum class Kind : int8_t { Bool, Int, Double };
  Scalar() : kind_(Kind::Int), i_(0) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> Scalar(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::Bool;
      i_ = v ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      kind_ = Kind::Int;
      i_ = static_cast<int64_t>(v);
    } else {
      kind_ = Kind::Double;
      d_ = static_cast<double>(v);
    }
  }
  Scalar(Half v) : Scalar(float(v)) {}
  Scalar(BFloat16 v) : Scalar(float(v)) {}
  bool isFloatingPoint() const { return kind_ == Kind::Double; }
  bool isIntegral(bool include_bool) const {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  Kind kind() const { return kind_; }
  /// The dtype LibTorch gives a wrapped number of this kind (Double, Long or Bool).
  ScalarType type() const {
    return kind_ == Kind::Double ? kDouble : kind_ == Kind::Int ? kLong : kBool;
  }
  double toDouble() const { return kind_ == Kind::Double ? d_ : double(i_); }
  float toFloat() const { return float(toDouble()); }
  Half toHalf() const { return Half(toFloat()); }
  BFloat16 toBFloat16() const { return BFloat16(toFloat()); }
  /// Integer reads are checked, as c10::checked_convert: NaN, infinities and values outside the
  /// type's range throw gfy::Error ("value cannot be converted to type int64_t without
  /// overflow") instead of being undefined behaviour.
  int64_t toLong() const { return to<int64_t>(); }
  int32_t toInt() const { return to<int32_t>(); }
  bool toBool() const { return kind_ == Kind::Double ? d_ != 0.0 : i_ != 0; }
  template <class T> T to() const {
    if constexpr (std::is_same_v<T, bool>) return toBool();
    else if constexpr (std::is_integral_v<T>) return to_integer<T>();
    else return static_cast<T>(toDouble());
  }
  Scalar operator-() const {
    if (kind_ == Kind::Double) return Scalar(-d_);
    return Scalar(-i_);
  }

private:
  /// In range for T as c10's overflows(): a float in [min, max] (no wrap-around), an integer in
  /// [min, max], or for an unsigned T in [-max, max] (c10 lets -1 become 255).
  template <class T> T to_integer() const {
    using L = std::numeric_limits<T>;
    const double lo = L::is_signed ? double(L::min()) : -double(L::max());
    if (kind_ == Kind::Double) {
      // max + 1 is a power of two, exact in a double, unlike int64's max itself.
      const bool fits = sizeof(T) < sizeof(int64_t) ? d_ >= double(L::min()) && d_ <= double(L::max())
                                                    : d_ >= double(L::min()) && d_ < double(L::max()) + 1.0;
      if (!fits) throw_conversion_overflow(integer_type_name<T>());
      return static_cast<T>(static_cast<int64_t>(d_));
    }
    if constexpr (sizeof(T) < sizeof(int64_t)) {
      if (i_ < int64_t(lo) || i_ > int64_t(L::max())) throw_conversion_overflow(integer_type_name<T>());
    }
    return static_cast<T>(i_);
  }
  template <class T> static const char *integer_type_name() {
    if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else return "an integer type";
  }
  [[noreturn]] static void throw_conversion_overflow(const char *type_name);

  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};
std::ostream &operator<<(std::ostream &os, const Scalar &s);

// ---------------------------------------------------------------------------------------------
// IntArrayRef

/// A non-owning view of a list of sizes, as c10::IntArrayRef: constructible from a
/// std::vector<int64_t>, a braced list `{2, 3}` or a single integer. Only valid for the
/// duration of the call it is passed to.
class IntArrayRef {
public:
  IntArrayRef() = default;
  IntArrayRef(const std::vector<int64_t> &v) : data_(v.data()), size_(v.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  // Like c10::IntArrayRef: the list lives until the end of the full expression of the call.
  IntArrayRef(std::initializer_list<int64_t> l) : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  IntArrayRef(const int64_t &single) : data_(&single), size_(1) {}
  IntArrayRef(const int64_t *data, size_t n) : data_(data), size_(n) {}
  const int64_t *data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const int64_t *begin() const { return data_; }
  const int64_t *end() const { return data_ + size_; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t front() const { return data_[0]; }
  int64_t back() const { return data_[size_ - 1]; }
  /// Bounds-checked element, with c10::ArrayRef's message.
  int64_t at(size_t i) const;
  /// The `m` elements from `n` on, and the elements from `n` on (c10::ArrayRef::slice; a range
  /// past the end throws c10's "ArrayRef: invalid slice, ...").
  IntArrayRef slice(size_t n, size_t m) const;
  IntArrayRef slice(size_t n) const;
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }
  bool equals(IntArrayRef o) const;
  bool operator==(IntArrayRef o) const { return equals(o); }
  bool operator!=(IntArrayRef o) const { return !equals(o); }

private:
  const int64_t *data_ = nullptr;
  size_t size_ = 0;
};
std::ostream &operator<<(std::ostream &os, IntArrayRef a);
bool operator==(const std::vector<int64_t> &a, IntArrayRef b);

namespace detail {
std::string to_display(const ScalarType &t);
std::string to_display(const Device &d);
std::string to_display(const IntArrayRef &a);
std::string to_display(const std::vector<int64_t> &a);
/// A floating value as LibTorch's messages stream it (c10::str: `<<` with the default six
/// significant digits, "-1", "0.001", "1e-08"), not std::to_string's fixed "%f".
std::string format_floating(double v);
template <class... Args> std::string str_cat(const Args &...args) {
  std::string out;
  auto add = [&out](const auto &a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (std::is_convertible_v<A, std::string> || std::is_same_v<A, std::string_view>) out += std::string(a);
    else if constexpr (std::is_same_v<A, bool>) out += a ? "true" : "false";
    else if constexpr (std::is_same_v<A, char>) out += a;
    else if constexpr (std::is_floating_point_v<A>) out += format_floating(double(a));
    else if constexpr (std::is_arithmetic_v<A>) out += std::to_string(a);
    else out += to_display(a);
  };
  (add(args), ...);
  return out;
}
} // namespace detail

} // namespace gfy
