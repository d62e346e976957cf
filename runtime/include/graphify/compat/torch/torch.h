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
// (std::numeric_limits, std::cout, std::sqrt without their own includes): provide the same.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
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
