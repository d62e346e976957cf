#pragma once
/// \file
/// Static bounds the user gives: a promise that a host integer of a function never exceeds a
/// number, so that a loop it bounds can run a fixed number of iterations (the iterations past the
/// value masked). They come from the function's annotation or from the configuration:
///
/// \code
///   GRAPHIFY_GRAPH_REGION GRAPHIFY_STATIC_BOUND(len, 64)
///   torch::Tensor decode(torch::Tensor memory, torch::Tensor lengths) {
///     const int64_t len = lengths.max().item<int64_t>();
///     for (int64_t t = 0; t < len; ++t) ...        // runs to 64, masked past len
///
///   # .graphify.yaml
///   StaticBounds:
///     "decode::len": 64          # <function glob>::<variable>: <bound>
/// \endcode
///
/// A bound is trusted, as an engine's maximum shape is: the rewrite is exact while the value stays
/// within it, which graphify-validate checks on its inputs (docs/rewrites.md, "Static bounds").

#include "graphify/analyzer/StaticBoundKey.h"

#include <clang/AST/Decl.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string>

namespace graphify {

/// The annotation GRAPHIFY_STATIC_BOUND writes (`[[clang::annotate("graphify.static_bound",
/// "name", N)]]`).
inline constexpr llvm::StringRef StaticBoundAnnotation = "graphify.static_bound";

/// The smallest bound the user gave for the local or parameter `V` (its function's annotations,
/// then the configured bounds whose glob names the function), or nullopt.
std::optional<int64_t> staticBoundOf(const clang::VarDecl *V, llvm::ArrayRef<StaticBound> Configured);

/// Whether the configured bound `B` names a parameter or a local of `FD` (a definition whose
/// qualified name its glob matches).
bool staticBoundNamesVariable(const clang::FunctionDecl *FD, const StaticBound &B);

/// Why an annotation named `graphify.static_bound` on `FD` is malformed (not a variable name and a
/// positive integer constant, or naming no parameter or local of `FD`), or empty when it is not.
std::string staticBoundAnnotationProblem(const clang::FunctionDecl *FD);

} // namespace graphify
