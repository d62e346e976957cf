#pragma once
/// \file
/// A list walked by a range-based for (`for (const auto &d : per_image)`): clang hides the list
/// in the initialiser of the loop's `__range` variable, so a use of the list there has no
/// statement as its parent. These helpers find the loop from that use and say whether the loop
/// only reads the elements, so a list of host tensors stays one (HostOrigin's listUse) and the
/// loop variable holds one of them (BodyInterpreter).

#include <clang/AST/ASTContext.h>
#include <clang/AST/StmtCXX.h>

namespace graphify {

/// The range-based for whose range expression contains `Use`, or null.
const clang::CXXForRangeStmt *rangeForOver(const clang::Expr *Use, clang::ASTContext &Ctx);

/// The range-based for that walks `List` itself (`for (auto &d : parts)`, not `: f(parts)`), or null.
const clang::CXXForRangeStmt *rangeForWalking(const clang::Expr *List, clang::ASTContext &Ctx);

/// Whether the loop variable of `For` never rebinds an element of the range: it is a copy (a
/// tensor handle), a const reference, or a reference the body never assigns to (`d = d.cuda()`
/// would move that element of the list). In-place ops on it keep the element where it is.
bool loopVariableKeepsElements(const clang::CXXForRangeStmt &For);

} // namespace graphify
