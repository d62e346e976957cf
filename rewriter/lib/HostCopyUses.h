#pragma once
/// \file
/// Where a tensor copied to the host goes: back to the caller (the copy moves there), or only into
/// tensor work (the copy can go, keeping everything on the device). The manual recipe of a host
/// copy follows these answers.
///
/// \code
///   auto h = x.cpu(); return h;                      // copyIsReturned: true
///   auto h = x.cpu(); auto iou = box_iou(h[0], h);   // copyFeedsOnlyTensorWork: true
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify::rewriter {

/// Whether the host copy is what the function hands back (`out = out.cpu(); return out;`): the
/// caller reads a host tensor, so the copy moves to the caller rather than going away.
bool copyIsReturned(const clang::Expr *Copy, clang::ASTContext &Ctx);

/// Whether the host copy `Copy` feeds tensor work only (`h = x.cpu(); iou = box_iou(h[0], h);`):
/// then it only moves device work to the host, and dropping it keeps everything on the device.
bool copyFeedsOnlyTensorWork(const clang::Expr *Copy, clang::ASTContext &Ctx, const ApiModel &Api);

} // namespace graphify::rewriter
