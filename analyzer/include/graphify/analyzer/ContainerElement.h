#pragma once
/// \file
/// The element type a container names for itself: its `value_type` member typedef, the
/// standard library's convention (std::vector, std::map, and OpenCV's Point_ and Rect_, whose
/// value_type names their coordinates). Several analyses ask what a container holds (numbers,
/// host arrays, callables); they ask here.
///
/// \code
///   containerValueType(std::vector<float>)              // float
///   containerValueType(std::map<int, std::function<>>)  // std::pair<const int, std::function<>>
///   containerValueType(torch::Tensor)                   // null: no value_type
/// \endcode

#include <clang/AST/Type.h>

namespace graphify {

/// The type `T` (through references) names as its `value_type`, or a null type when it is not a
/// class or names none.
clang::QualType containerValueType(clang::QualType T);

} // namespace graphify
