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
} // namespace at

// c10 spellings that appear in user code: optionals (`c10::nullopt`) and the value types.
namespace c10 {
using ::gfy::AutoGradMode;
using ::gfy::InferenceMode;
using ::gfy::Device;
using ::gfy::DeviceType;
using ::gfy::ArrayRef;
using ::gfy::Error;
using ::gfy::IntArrayRef;
using ::gfy::Scalar;
using ::gfy::ScalarType;
using ::gfy::scalarTypeToTypeMeta;
using ::gfy::TypeMeta;
using ::gfy::typeMetaToScalarType;
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
} // namespace c10

// `caffe2::TypeMeta` is what LibTorch's `x.dtype()` returns.
namespace caffe2 {
using ::gfy::TypeMeta;
} // namespace caffe2

/// `TORCH_MODULE(Name)` declares `Name` as a module holder of `NameImpl`.
#define TORCH_MODULE(Name) GFY_MODULE(Name)

/// LibTorch's checking macros, as user code calls them: TORCH_CHECK(cond, message parts...) and
/// the assertion forms throw a gfy::Error (also spelled `c10::Error`) with the message parts, or
/// LibTorch's default message without them; TORCH_WARN prints to stderr.
namespace graphify_compat_detail {
inline std::string check_message(const char *cond) {
  return std::string("Expected ") + cond + " to be true, but got false.  (Could this error message be improved?  "
                                           "If so, please report an enhancement request to PyTorch.)";
}
template <class A, class... Rest> std::string check_message(const char *, const A &a, const Rest &...rest) {
  return ::gfy::detail::str_cat(a, rest...);
}
} // namespace graphify_compat_detail
#define TORCH_CHECK(cond, ...)                                                                     \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      ::gfy::detail::throw_error(::graphify_compat_detail::check_message(#cond __VA_OPT__(, ) __VA_ARGS__)); \
  } while (0)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond __VA_OPT__(, ) __VA_ARGS__)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_WARN(...) (std::cerr << "Warning: " << ::gfy::detail::str_cat(__VA_ARGS__) << std::endl)
