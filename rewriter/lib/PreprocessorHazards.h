#pragma once
/// \file
/// Whether a rewrite's edits would cut through what the preprocessor made. A rewrite renders
/// its replacement from the AST of one configuration: a conditional directive inside the
/// replaced code (`#ifdef FOO ... #endif`) would lose the code of the other configurations, and
/// a macro whose expansion the rewrite takes apart (`if (COND(x))` with
/// `#define COND(x) (x.sum().item<float>() > 0)`) has no source text for its pieces. Such a fix
/// is refused with the reason, never written.
///
/// \code
///   if (auto Why = preprocessorHazard(Ranges, Root, Ctx, Api))
///     C.NoFixReason = *Why; // "the code it replaces holds '#ifdef' (line 14), ..."
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceLocation.h>
#include <llvm/ADT/ArrayRef.h>

#include <optional>
#include <string>

namespace graphify::rewriter {

/// Why the edits replacing `Ranges` (file character ranges) around the matched statement `Root`
/// cannot be made: a preprocessor directive inside a range, or a macro expansion in it that the
/// rewrite takes apart or that expands to nothing. A macro that one expression of the replaced
/// code spells whole and that reads no tensor value (a constant such as `EPS`) is kept verbatim
/// and accepted. Null when the edits are clear of the preprocessor.
std::optional<std::string> preprocessorHazard(llvm::ArrayRef<clang::CharSourceRange> Ranges, const clang::Stmt *Root,
                                              clang::ASTContext &Ctx, const ApiModel &Api);

} // namespace graphify::rewriter
