#pragma once
/// \file
/// Reference parameters the epilogue may read after the core: a tensor parameter taken by
/// non-const reference is the caller's own variable, so the core (which takes it the same way)
/// leaves it holding its final value. A read of its metadata at some statement of the original
/// sees that final value too when nothing from that statement on assigns it or changes it in
/// place — then the epilogue, after calling the core, reads the same device, dtype and sizes.
///
/// \code
///   Tensor nms(Tensor &pred) {
///     pred = pred.transpose(-1, -2);          // the core assigns it, the caller sees it
///     std::vector<Tensor> out;
///     for (...) out.push_back(torch::zeros({0, 6}, pred.device()));   // settled: same device
///     ...
/// \endcode

#include "ApiModel.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <llvm/ADT/ArrayRef.h>

#include <set>

namespace graphify::rewriter {

/// The parameters of `F` that `Read` mentions and that are settled for it: tensors taken by
/// non-const lvalue reference, read only as the object of a shape or metadata query
/// (`p.device()`, `p.size(1)`, `p.options()`), and neither assigned nor written in place (a
/// call tagged in_place or named with a trailing underscore on it, or passing it to a
/// non-const reference) by any of `Later`. Parameters read otherwise are not in the set.
std::set<const clang::ParmVarDecl *> settledReferenceParameters(const clang::Stmt *Read,
                                                                llvm::ArrayRef<const clang::Stmt *> Later,
                                                                const clang::FunctionDecl &F, const ApiModel &Api);

/// `S` assigns `P`, writes it in place, or passes it to a non-const reference.
bool changesParameter(const clang::Stmt *S, const clang::ParmVarDecl *P, const ApiModel &Api);

} // namespace graphify::rewriter
