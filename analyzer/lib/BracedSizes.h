// The braced list a size argument spells, seen through the conversions LibTorch puts around it.
#pragma once

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ExprCXX.h>

namespace graphify {

/// The braced list `{n, 2}` a size argument spells, through the IntArrayRef, initializer_list and
/// value wrappers it is converted by, or null when it is not one (a vector, a single integer).
inline const clang::InitListExpr *bracedSizes(const clang::Expr *Arg) {
  const clang::Expr *E = Arg;
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = skipValueWrappers(E);
    if (const auto *IL = llvm::dyn_cast<clang::InitListExpr>(E))
      return IL;
    if (const auto *SIL = llvm::dyn_cast<clang::CXXStdInitializerListExpr>(E))
      E = SIL->getSubExpr();
    else if (const auto *CE = llvm::dyn_cast<clang::CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
      E = CE->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

} // namespace graphify
