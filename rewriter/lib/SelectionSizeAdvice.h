#pragma once
/// \file
/// What a test on the size of a value-dependent selection does, and its padded form. The same
/// condition means different code: `if (n == 0) continue;` skips an iteration, `if (n == 0)
/// return empty;` leaves the function, `if (n > max) x = x.slice(0, 0, max);` caps the rows.
/// Each has its own graph form; naming only "the size of a selection" leaves the user to find
/// which.
///
/// \code
///   if (boxes.size(0) == 0) continue;
///   // -> "... the 'continue' skips the rest of the iteration when it holds; a graph runs every
///   //     iteration: keep the selection padded ... and drop the 'continue' ..."
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <string>

namespace graphify::rewriter {

/// The first operand inside condition `Cond` (looking through operators and conversions) whose
/// value is the size of a value-dependent selection, or null.
const clang::Expr *selectionSizeIn(const clang::Expr *Cond, const ApiModel &Api);

/// Why the condition holding `SizeUse` (a size of a selection) is not a where(), and what the
/// padded form of the statement that tests it is.
std::string selectionSizeAdvice(const clang::Expr *SizeUse, const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
