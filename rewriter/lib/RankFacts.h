#pragma once
/// \file
/// Rank facts for the rewrites that are exact only for tensors of a known rank. The type of
/// every tensor is `torch::Tensor`, so the rank comes from the code itself:
///
/// \code
///   auto t = torch::arange(n);            // one-dimensional producers (tag one_dimensional_output)
///   auto m = (t > 0) & (t < 5);           // element-wise calls keep their operands' rank (elementwise)
///   TORCH_CHECK(x.dim() == 1, "...");     // a check that exits otherwise (rank_query), also
///   if (x.ndimension() != 1) return x;    //   assert(), throw, return, break and continue
///   x.index_put_({m.nonzero()}, 0);       // x and m are one-dimensional here
/// \endcode
///
/// Locals are followed to their initialiser when never reassigned; parameters and fields are
/// known only through a check in front of the use. Unknown is "not proven": a rewrite that
/// needs the fact refuses, saying how to state it.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify::rewriter {

/// Whether the tensor `E`, evaluated at the statement `At` of the function body `Body`, is
/// provably one-dimensional.
bool isProvablyOneDimensional(const clang::Expr *E, const clang::Stmt *At, const clang::Stmt *Body,
                              const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
