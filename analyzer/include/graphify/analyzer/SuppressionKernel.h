#pragma once
/// \file
/// Recognizes torchvision's CPU non-maximum suppression kernel written out in a project's own
/// function (`nms_kernel_impl`'s loops over `data_ptr` arrays, copied into many detectors), so
/// that a call of it means what a call of `vision::ops::nms` means: the packs' greedy_suppression
/// entry describes it, its body is not a region, and the padded-selection rewrite gives it the
/// exact fixed-size form.
///
/// Recognition is by structure and arithmetic, never by name: the function takes boxes, scores
/// and a threshold; reads four coordinate columns of the boxes (`select(1, k)`, copies to the CPU
/// and `contiguous` allowed), sorts the scores descending once, keeps `suppressed` and `keep`
/// buffers of the boxes' size, visits the candidates in that order and, for a candidate not
/// suppressed, appends it to `keep` and suppresses every later one whose IoU with it exceeds the
/// threshold; it returns the first `count` kept indices. The IoU must be the kernel's exact
/// expression, operand by operand: `std::max(x1[i], x1[j])` (not the swapped `std::max(x1[j],
/// x1[i])`, which differs when a coordinate is NaN), `std::max(0, xx2 - xx1)`, areas
/// `(x2 - x1) * (y2 - y1)` without the legacy `+ 1`, `inter / (area_i + area_j - inter)`, all in
/// the boxes' element type, and a box suppressed when the IoU is *greater* than the threshold.
/// Only sums and products of two operands may be written either way round (IEEE addition and
/// multiplication commute exactly). Anything else in the body — another statement, a write to
/// another array, a different comparison — and the function is not recognized: its body is
/// analysed as any other.
///
/// \code
///   if (auto K = recognizeSuppressionKernel(*FD, Api))
///     ... K->Element is float or double, K->StableSort says how it sorts ...
/// \endcode

#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>

#include <optional>
#include <vector>

namespace graphify {

class ApiResolver;

/// What a recognized kernel reads and how it orders candidates.
struct SuppressionKernel {
  /// The element types of its `data_ptr` reads of the coordinates (float or double; both for a
  /// wrapper that dispatches on the boxes' dtype): the boxes' dtype must be one of them, or the
  /// original throws.
  std::vector<clang::QualType> Elements;
  /// Whether it sorts the scores with the stable overload (`sort(/*stable=*/true, 0, true)`).
  bool StableSort = false;
  /// A wrapper that dispatches on the boxes' dtype to the kernel (recognizeDispatchingWrapper).
  bool Dispatches = false;
};

/// The kernel `FD` implements, or nullopt when its body is not the kernel as described above.
std::optional<SuppressionKernel> recognizeSuppressionKernel(const clang::FunctionDecl &FD, const ApiResolver &Api);

/// The kernel a dispatching wrapper runs, as torchvision writes its CPU op: the body is the
/// packs' assertions, one tensor local made by a pure factory, one dtype dispatch (a macro of
/// the packs' dispatch_macros, AT_DISPATCH_FLOATING_TYPES) whose every case only assigns to that
/// local a recognized kernel's instantiation called with the wrapper's three parameters in order,
/// and `return` of the local. Its element types are those of the instantiations; nullopt when
/// anything else is written there.
std::optional<SuppressionKernel> recognizeDispatchingWrapper(const clang::FunctionDecl &FD, const ApiResolver &Api);

} // namespace graphify
