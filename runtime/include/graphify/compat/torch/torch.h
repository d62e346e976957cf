#pragma once
/// \file
/// LibTorch-compatibility shim: makes `#include <torch/torch.h>` and the `torch::`, `at::` and
/// `c10::` names of graphify's subset resolve to the bundled runtime (`gfy::`), so that model
/// code written against LibTorch compiles unchanged against graphify. Reached through the
/// `graphify::torch_compat` CMake target, which puts `include/graphify/compat` first on the
/// include path.
///
/// \code
///   #include <torch/torch.h>                 // this file, under graphify::torch_compat
///   struct NetImpl : torch::nn::Module { ... };
///   TORCH_MODULE(Net);
///   torch::Tensor y = torch::where(x.sum() > 0, x * 2, x + 2);
/// \endcode
///
/// The runtime mirrors LibTorch's names, argument orders and defaults, so this header is almost
/// only namespace aliasing; the few adapters below exist where LibTorch spells something that
/// the runtime does not (a macro name, `torch::cuda`, c10's optional). Nothing is re-implemented here:
/// a name that is missing from gfy:: is missing from the shim, and compiling fails at the call,
/// which is the honest answer for code outside the subset. docs/compat.md lists the subset and
/// the known differences.

#include <graphify/graphify.h>
#include <c10/util/Logging.h>
#include <torch/version.h>

// LibTorch's <torch/torch.h> pulls in much of the standard library, and model code leans on it
// (std::numeric_limits, std::cout, strcmp, std::ostream_iterator without their own includes):
// provide the same C++ headers, the list `g++ -M` gives for LibTorch 1.13's <torch/torch.h>.
#include <algorithm>
#include <array>
#include <atomic>
#include <bitset>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <clocale>
#include <cmath>
#include <complex>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <exception>
#include <forward_list>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <ios>
#include <iosfwd>
#include <iostream>
#include <istream>
#include <iterator>
#include <limits>
#include <list>
#include <locale>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <ostream>
#include <queue>
#include <ratio>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <stack>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

/// Defined when `<torch/torch.h>` is graphify's shim, so that code built both ways (benchmarks,
/// the differential suite) can use gfy-only features such as `gfy::capture` under `#ifdef`.
#define GRAPHIFY_TORCH_COMPAT 1

// `using namespace` rather than per-name using-declarations: qualified lookup of `torch::X`
// follows the directive into gfy::, so every name the runtime adds is available at once and the
// shim cannot drift out of sync with the runtime's op list.
//
// One rule keeps user code free of ambiguous names: torch:: and at:: never declare a namespace
// that gfy:: already has (nn, nn::functional, nn::init, indexing, ...). `torch::nn::Linear` reaches
// gfy::nn through the directive, and after `using namespace torch;` (or torch and at together)
// the unqualified `nn::` or `indexing::` finds exactly one namespace, gfy's. A second namespace
// `torch::nn` beside `gfy::nn` made every such use "reference to 'nn' is ambiguous". Only what
// gfy:: lacks (torch::cuda) is declared here. testdata/compat/namespaces holds the mixes checked.
namespace torch {
using namespace ::gfy;
// LibTorch re-exports c10's optional as torch::optional / torch::nullopt.
using std::nullopt;
using std::optional;
namespace cuda {
/// The runtime is CPU-only where graphify is built without a CUDA backend.
inline bool is_available() { return ::gfy::has_backend(::gfy::kCUDA); }
inline int64_t device_count() { return is_available() ? 1 : 0; }
/// cuDNN comes with the runtime's CUDA backend (its LSTM path).
inline bool cudnn_is_available() { return is_available(); }
/// `at::cuda::getNumGPUs()` (reached through the alias below): the devices the runtime uses.
inline int64_t getNumGPUs() { return device_count(); }
/// The runtime drives one device, index 0.
inline int64_t current_device() {
  GFY_CHECK(is_available(), "No CUDA GPUs are available");
  return 0;
}
/// Waits for the work queued on the CUDA device (a one-element device-to-host read, which a
/// captured graph refuses, as graphify-lint's capture-unsafe-api check reports).
inline void synchronize(int64_t device_index = -1) {
  (void)device_index;
  GFY_CHECK(is_available(), "No CUDA GPUs are available");
  (void)::gfy::zeros({1}, ::gfy::Device(::gfy::kCUDA)).cpu();
}
} // namespace cuda
} // namespace torch

// at:: is LibTorch's tensor namespace and torch:: re-exports it; here both reach gfy::, so
// `at::Tensor` and `torch::Tensor` are one type and `at::indexing` is gfy::indexing.
namespace at {
using namespace ::gfy;
// LibTorch's at:: sees all of c10 (`at::optional`, `at::nullopt`); these are the same entities
// as torch::'s and std::'s, so no mix of using-directives makes them ambiguous.
using std::make_optional;
using std::nullopt;
using std::optional;
/// `at::cuda::getNumGPUs()`, `at::cuda::is_available()`: a namespace of its own, as in LibTorch
/// (user code reopens `namespace at { namespace cuda { ... } }`), that sees torch::cuda's functions.
namespace cuda {
using namespace ::torch::cuda;
} // namespace cuda
/// `at::getNumGPUs()` (also `torch::getNumGPUs()` through torch's using-directive): the CUDA
/// devices the runtime drives.
inline size_t getNumGPUs() { return static_cast<size_t>(::torch::cuda::device_count()); }
} // namespace at
namespace torch {
using ::at::getNumGPUs;
} // namespace torch

// c10 spellings that appear in user code: optionals (`c10::nullopt`) and the value types.
namespace c10 {
using ::gfy::AutoGradMode;
using ::gfy::InferenceMode;
using ::gfy::Device;
using ::gfy::DeviceType;
using ::gfy::ArrayRef;
using ::gfy::Error;
using ::gfy::IntArrayRef;
using ::gfy::MemoryFormat;
using ::gfy::Scalar;
using ::gfy::ScalarType;
using ::gfy::scalarTypeToTypeMeta;
using ::gfy::TypeMeta;
using ::gfy::typeMetaToScalarType;
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
using OptionalIntArrayRef = std::optional<::gfy::IntArrayRef>;
using ::gfy::TensorOptions;
// c10/core/ScalarType.h's constants (kUInt8, kFloat32, ... are torch::'s, not c10's).
using ::gfy::kBool;
using ::gfy::kByte;
using ::gfy::kChar;
using ::gfy::kDouble;
using ::gfy::kFloat;
using ::gfy::kInt;
using ::gfy::kLong;
using ::gfy::kShort;
using ::gfy::kHalf;
using ::gfy::kBFloat16;
using ::gfy::Half;
using ::gfy::BFloat16;
using ::gfy::DeprecatedTypeProperties;
using ::gfy::scalar_value_type;
namespace impl {
template <::gfy::ScalarType S> using ScalarTypeToCPPTypeT = ::gfy::ScalarTypeToCPPTypeT<S>;
} // namespace impl
/// `for (const auto i : c10::irange(n))`: the integers [begin, end) of end's type (an empty
/// range when end <= begin), as c10/util/irange.h.
template <class I> class integer_range {
public:
  struct iterator {
    I value;
    I operator*() const { return value; }
    iterator &operator++() {
      ++value;
      return *this;
    }
    bool operator==(const iterator &o) const { return value == o.value; }
    bool operator!=(const iterator &o) const { return value != o.value; }
  };
  integer_range(I begin, I end) : begin_(begin), end_(end < begin ? begin : end) {}
  iterator begin() const { return {begin_}; }
  iterator end() const { return {end_}; }

private:
  I begin_, end_;
};
template <class I, class = std::enable_if_t<std::is_integral_v<I>>> integer_range<I> irange(I end) {
  return integer_range<I>(I(0), end);
}
template <class B, class E, class = std::enable_if_t<std::is_integral_v<B> && std::is_integral_v<E>>>
integer_range<E> irange(B begin, E end) {
  return integer_range<E>(E(begin), end);
}
/// The c10::Error subclasses that the TORCH_CHECK_* forms throw (LibTorch maps them to Python's
/// ValueError, IndexError, ...); each is a c10::Error, so `catch (const c10::Error &)` sees them.
/// c10/util/StringUtil.h's joiners, as user code spells them (`torch::Join("-", ys)`): `str` streams
/// its arguments into one string, `Join` streams a container's elements with a delimiter between.
template <class... Args> std::string str(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
template <class Container> std::string Join(const std::string &delimiter, const Container &v) {
  std::ostringstream os;
  for (auto i = v.begin(); i != v.end(); ++i)
    os << (i == v.begin() ? "" : delimiter) << *i;
  return os.str();
}
struct ValueError : ::gfy::Error { using ::gfy::Error::Error; };
struct IndexError : ::gfy::Error { using ::gfy::Error::Error; };
struct TypeError : ::gfy::Error { using ::gfy::Error::Error; };
struct NotImplementedError : ::gfy::Error { using ::gfy::Error::Error; };
struct LinAlgError : ::gfy::Error { using ::gfy::Error::Error; };
} // namespace c10

// LibTorch's <torch/torch.h> streams std containers (c10/util/logging_is_not_google_glog.h), and
// model code prints shapes kept in vectors with it: elements separated by spaces, at most 100 and
// then " ...", pairs as "(a, b)", nullptr as "(null)". Declared in std as LibTorch's are, so
// argument-dependent lookup finds them from any namespace.
namespace c10 {
template <class Iter> void PrintSequence(std::ostream &out, Iter begin, Iter end);
} // namespace c10
namespace std {
template <class First, class Second> std::ostream &operator<<(std::ostream &out, const std::pair<First, Second> &p);
template <class... Types> std::ostream &operator<<(std::ostream &out, const std::vector<Types...> &seq) {
  c10::PrintSequence(out, seq.begin(), seq.end());
  return out;
}
template <class... Types> std::ostream &operator<<(std::ostream &out, const std::map<Types...> &seq) {
  c10::PrintSequence(out, seq.begin(), seq.end());
  return out;
}
template <class... Types> std::ostream &operator<<(std::ostream &out, const std::set<Types...> &seq) {
  c10::PrintSequence(out, seq.begin(), seq.end());
  return out;
}
template <class First, class Second> std::ostream &operator<<(std::ostream &out, const std::pair<First, Second> &p) {
  return out << '(' << p.first << ", " << p.second << ')';
}
inline std::ostream &operator<<(std::ostream &out, const std::nullptr_t &) { return out << "(null)"; }
} // namespace std
namespace c10 {
template <class Iter> void PrintSequence(std::ostream &out, Iter begin, Iter end) {
  for (int i = 0; begin != end && i < 100; ++i, ++begin)
    out << (i > 0 ? " " : "") << *begin;
  if (begin != end)
    out << " ...";
}
} // namespace c10

// `caffe2::TypeMeta` is what LibTorch's `x.dtype()` returns.
namespace caffe2 {
using ::gfy::TypeMeta;
} // namespace caffe2

/// `TORCH_MODULE(Name)` declares `Name` as a module holder of `NameImpl`.
#define TORCH_MODULE(Name) GFY_MODULE(Name)
// c10/macros/Export.h and Macros.h: export and attribute macros user code puts on its own
// declarations (`class TORCH_API MyImpl : public torch::nn::Module`). Nothing is exported from a
// shared LibTorch here, so the export macros are empty; the unused markers keep their meaning.
#ifndef TORCH_API
#define TORCH_API
#endif
#ifndef C10_API
#define C10_API
#endif
#ifndef TORCH_CUDA_CPP_API
#define TORCH_CUDA_CPP_API
#endif
#ifndef C10_UNUSED
#define C10_UNUSED __attribute__((__unused__))
#endif
#ifndef TORCH_UNUSED_EXCEPT_CUDA
#define TORCH_UNUSED_EXCEPT_CUDA C10_UNUSED
#endif

/// LibTorch's checking macros, as user code calls them. The message parts are joined with
/// `operator<<` as c10::str joins them (`1.5` prints as "1.5", a tensor or a vector prints as it
/// streams). TORCH_CHECK(cond, parts...) throws a gfy::Error (also spelled `c10::Error`), with
/// LibTorch's default message when no parts are given; the _VALUE/_INDEX/_TYPE/_NOT_IMPLEMENTED/
/// _LINALG forms throw the c10:: subclass of that name; the assertion forms (TORCH_INTERNAL_ASSERT,
/// AT_ASSERT, AT_ASSERTM) word it as LibTorch's "INTERNAL ASSERT FAILED at file:line"; AT_ERROR
/// throws unconditionally. TORCH_CHECK_EQ and its relatives are glog-style fatal checks in
/// LibTorch: they print "Check failed: a == b (1 vs. 2) " and whatever is streamed after, then
/// abort the process, and so do these. TORCH_WARN prints to stderr, TORCH_WARN_ONCE once per site.
///
/// \code
///   TORCH_CHECK(x.dim() == 4, "expected a 4-d input, got ", x.sizes());
///   TORCH_CHECK_EQ(boxes.size(1), 4) << "boxes are (x1, y1, x2, y2)";
///   AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "nms", [&] { keep = nms_kernel<scalar_t>(x); });
/// \endcode
namespace graphify_compat_detail {
using ::c10::str;
inline std::string check_message(const char *cond) {
  return std::string("Expected ") + cond + " to be true, but got false.  (Could this error message be improved?  "
                                           "If so, please report an enhancement request to PyTorch.)";
}
template <class A, class... Rest> std::string check_message(const char *, const A &a, const Rest &...rest) {
  return str(a, rest...);
}
inline std::string assert_message(const char *cond, const char *file, int line, const std::string &parts) {
  return str(cond, " INTERNAL ASSERT FAILED at \"", file, "\":", line, ", please report a bug to PyTorch. ", parts);
}
template <class E> [[noreturn]] void fail(const std::string &message) { throw E(message); }

/// The stream of a failed glog-style check: collects what follows the macro, then aborts.
class FatalCheck {
public:
  FatalCheck(const char *file, int line) { os_ << "F " << file << ":" << line << "] "; }
  FatalCheck(const FatalCheck &) = delete;
  FatalCheck &operator=(const FatalCheck &) = delete;
  [[noreturn]] ~FatalCheck() {
    std::cerr << os_.str() << std::endl;
    std::abort();
  }
  FatalCheck &stream() { return *this; }
  template <class T> FatalCheck &operator<<(const T &v) {
    os_ << v;
    return *this;
  }

private:
  std::ostringstream os_;
};
/// Turns `FatalCheck << ...` into a void expression (`cond ? (void)0 : Voidify() & stream`).
struct Voidify {
  void operator&(FatalCheck &) {}
};

inline ::gfy::ScalarType dispatch_type(::gfy::ScalarType t) { return t; }
inline ::gfy::ScalarType dispatch_type(const ::gfy::DeprecatedTypeProperties &t) { return t.scalarType(); }
} // namespace graphify_compat_detail

#define TORCH_CHECK(cond, ...)                                                                     \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      ::graphify_compat_detail::fail<::gfy::Error>(                                                \
          ::graphify_compat_detail::check_message(#cond __VA_OPT__(, ) __VA_ARGS__));              \
  } while (0)
#define TORCH_CHECK_WITH(error_t, cond, ...)                                                       \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      ::graphify_compat_detail::fail<::c10::error_t>(                                              \
          ::graphify_compat_detail::check_message(#cond __VA_OPT__(, ) __VA_ARGS__));              \
  } while (0)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK_WITH(ValueError, cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK_WITH(IndexError, cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK_WITH(TypeError, cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK_WITH(NotImplementedError, cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_LINALG(cond, ...) TORCH_CHECK_WITH(LinAlgError, cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_ARG(cond, argN, ...)                                                           \
  TORCH_CHECK(cond, "invalid argument ", argN, ": " __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                           \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      ::graphify_compat_detail::fail<::gfy::Error>(::graphify_compat_detail::assert_message(       \
          #cond, __FILE__, __LINE__, ::graphify_compat_detail::str(__VA_ARGS__)));                 \
  } while (0)
#ifdef NDEBUG
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...)                                                      \
  while (false) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif
#define AT_ASSERT(cond, ...) TORCH_INTERNAL_ASSERT(cond __VA_OPT__(, ) __VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_INTERNAL_ASSERT(cond __VA_OPT__(, ) __VA_ARGS__)
#define AT_ERROR(...) ::graphify_compat_detail::fail<::gfy::Error>(::graphify_compat_detail::str(__VA_ARGS__))
#define TORCH_WARN(...) (std::cerr << "Warning: " << ::graphify_compat_detail::str(__VA_ARGS__) << std::endl)
#define TORCH_WARN_ONCE(...)                                                                       \
  do {                                                                                             \
    static const bool graphify_warned_once = (TORCH_WARN(__VA_ARGS__), true);                      \
    (void)graphify_warned_once;                                                                    \
  } while (0)

#define TORCH_CHECK_OP(val1, val2, op)                                                             \
  ((val1)op(val2)) ? (void)0                                                                       \
                   : ::graphify_compat_detail::Voidify() &                                         \
                         ::graphify_compat_detail::FatalCheck(__FILE__, __LINE__).stream()         \
                             << "Check failed: " #val1 " " #op " " #val2 " (" << (val1) << " vs. " \
                             << (val2) << ") "
#define TORCH_CHECK_EQ(val1, val2) TORCH_CHECK_OP(val1, val2, ==)
#define TORCH_CHECK_NE(val1, val2) TORCH_CHECK_OP(val1, val2, !=)
#define TORCH_CHECK_LE(val1, val2) TORCH_CHECK_OP(val1, val2, <=)
#define TORCH_CHECK_LT(val1, val2) TORCH_CHECK_OP(val1, val2, <)
#define TORCH_CHECK_GE(val1, val2) TORCH_CHECK_OP(val1, val2, >=)
#define TORCH_CHECK_GT(val1, val2) TORCH_CHECK_OP(val1, val2, >)
#ifdef NDEBUG
#define TORCH_DCHECK_EQ(val1, val2) while (false) TORCH_CHECK_EQ(val1, val2)
#define TORCH_DCHECK_NE(val1, val2) while (false) TORCH_CHECK_NE(val1, val2)
#define TORCH_DCHECK_LE(val1, val2) while (false) TORCH_CHECK_LE(val1, val2)
#define TORCH_DCHECK_LT(val1, val2) while (false) TORCH_CHECK_LT(val1, val2)
#define TORCH_DCHECK_GE(val1, val2) while (false) TORCH_CHECK_GE(val1, val2)
#define TORCH_DCHECK_GT(val1, val2) while (false) TORCH_CHECK_GT(val1, val2)
#else
#define TORCH_DCHECK_EQ(val1, val2) TORCH_CHECK_EQ(val1, val2)
#define TORCH_DCHECK_NE(val1, val2) TORCH_CHECK_NE(val1, val2)
#define TORCH_DCHECK_LE(val1, val2) TORCH_CHECK_LE(val1, val2)
#define TORCH_DCHECK_LT(val1, val2) TORCH_CHECK_LT(val1, val2)
#define TORCH_DCHECK_GE(val1, val2) TORCH_CHECK_GE(val1, val2)
#define TORCH_DCHECK_GT(val1, val2) TORCH_CHECK_GT(val1, val2)
#endif

/// LibTorch's AT_DISPATCH_* macros: run a lambda with `scalar_t` bound to the C++ type of a
/// dtype, for the dtypes a form names, and throw LibTorch's "\"NAME\" not implemented for
/// 'Int'" for the others. The integral forms cover uint8, int8, int16, int and long, as
/// LibTorch's; _AND_HALF adds half (`scalar_t` is at::Half, which converts to and from float),
/// and naming a dtype the runtime lacks (complex) in a _AND form fails to compile. The type may be
/// a ScalarType, a TypeMeta (`x.dtype()`) or LibTorch's deprecated `x.type()`.
#define AT_DISPATCH_CASE(enum_type, ...)                                                           \
  case enum_type: {                                                                                \
    using scalar_t [[maybe_unused]] = ::gfy::ScalarTypeToCPPTypeT<enum_type>;                      \
    return __VA_ARGS__();                                                                          \
  }
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                                        \
  [&] {                                                                                            \
    const auto &the_type = TYPE;                                                                   \
    constexpr const char *at_dispatch_name = NAME;                                                 \
    const ::gfy::ScalarType _st = ::graphify_compat_detail::dispatch_type(the_type);               \
    switch (_st) {                                                                                 \
      __VA_ARGS__                                                                                  \
    default:                                                                                       \
      ::graphify_compat_detail::fail<::gfy::Error>(                                                \
          ::graphify_compat_detail::str('"', at_dispatch_name, "\" not implemented for '", _st, "'")); \
    }                                                                                              \
  }()
#define AT_DISPATCH_CASE_FLOATING_TYPES(...)                                                       \
  AT_DISPATCH_CASE(::gfy::ScalarType::Double, __VA_ARGS__)                                         \
  AT_DISPATCH_CASE(::gfy::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)                                                       \
  AT_DISPATCH_CASE(::gfy::ScalarType::Byte, __VA_ARGS__)                                           \
  AT_DISPATCH_CASE(::gfy::ScalarType::Char, __VA_ARGS__)                                           \
  AT_DISPATCH_CASE(::gfy::ScalarType::Int, __VA_ARGS__)                                            \
  AT_DISPATCH_CASE(::gfy::ScalarType::Long, __VA_ARGS__)                                           \
  AT_DISPATCH_CASE(::gfy::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES(...)                                                            \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__)                                                     \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                                                \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                                       \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(::gfy::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(SCALARTYPE, TYPE, NAME, ...)                                \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(SCALARTYPE, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, TYPE, NAME, ...)                 \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                                   \
                     AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(SCALARTYPE1, __VA_ARGS__) \
                         AT_DISPATCH_CASE(SCALARTYPE2, __VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...)                                                \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND(SCALARTYPE, TYPE, NAME, ...)                                \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(SCALARTYPE, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(SCALARTYPE, TYPE, NAME, ...)                                     \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(SCALARTYPE, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, TYPE, NAME, ...)                      \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                                   \
                     AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(SCALARTYPE1, __VA_ARGS__)      \
                         AT_DISPATCH_CASE(SCALARTYPE2, __VA_ARGS__))

// TorchScript's values and modules, as LibTorch's <torch/torch.h> reaches them (c10::IValue,
// c10::List, c10::Dict, torch::jit::Module, torch::jit::load): containers in full, and modules
// whose methods cannot run, since the runtime has no TorchScript interpreter (docs/compat.md,
// "TorchScript"). Last, because they build on everything above.
#include <graphify/compat/script/IValue_inl.h>
