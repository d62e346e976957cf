#pragma once
/// \file
/// Reference parameters the epilogue may read after the core. A tensor parameter taken by
/// non-const reference is the caller's own variable; after the core has run (and the epilogue has
/// repeated the assignments of views of it that the body makes, see selection-to-padded's
/// referenceParameters) the epilogue's parameter holds the value the original's had at the end.
/// A read of its metadata at some statement of the original sees that value too when nothing from
/// that statement on assigns it or changes it in place — so the epilogue, reading it after the
/// core, reads the same device, dtype and sizes.
///
/// \code
///   Tensor nms(Tensor &pred) {
///     pred = pred.transpose(-1, -2);          // the epilogue repeats it after the core
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

/// The first of `Statements` that changes `P` (changesParameter), or null.
const clang::Stmt *firstChangeOf(const clang::ParmVarDecl *P, llvm::ArrayRef<const clang::Stmt *> Statements,
                                 const ApiModel &Api);

/// Every mention of `P` under `S` is the object of a shape or metadata query (`p.size(1)`,
/// `p.device()`), whose answer a write into its elements leaves as it is.
bool readsOnlyMetadata(const clang::Stmt *S, const clang::ParmVarDecl *P, const ApiModel &Api);

} // namespace graphify::rewriter
