#pragma once
/// \file
/// Host numbers a decode loop accumulates into (`total += s.item<float>()`, `steps = steps + 1`),
/// for `early-exit-loop-to-masked`. A host variable updated by the loop cannot be masked, but a
/// sum can live on the device: a 0-d tensor of the variable's type, `total_t = torch::where(active,
/// total_t + s.reshape({}).to(torch::kFloat), total_t)`, computes in the variable's own type the same
/// additions in the same order, so it ends with the value the host variable would have had. Where
/// the code after the loop reads it, the function is split after the loop and the host epilogue
/// reads the tensor back into the variable (lib/GrowingBuffers.h, splitAfterMaskedLoop).

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>

#include <string>
#include <vector>

namespace graphify::rewriter {

/// A host number of the code around a loop that the loop only adds to.
struct Accumulation {
  const clang::VarDecl *V = nullptr;
  std::string DType;  ///< the dtype constant of its type (kFloat, kDouble, kInt, kLong)
  std::string Tensor; ///< the name of the 0-d tensor that holds it in the rewritten code (set by the caller)
  /// The statements that add to it, with what each adds.
  std::vector<std::pair<const clang::Stmt *, const clang::Expr *>> Updates;
};

/// The host numbers `Loop` accumulates into: a local or by-value parameter of type float,
/// double, or a signed 32- or 64-bit integer, declared before the loop, that the loop uses only in
/// statements `v += e;` or `v = v + e;`. A variable the loop also reads or updates otherwise is
/// not one (the masked loop refuses it as a host update).
std::vector<Accumulation> loopAccumulations(const clang::ForStmt *Loop, const ApiModel &Api, clang::ASTContext &Ctx);

/// The accumulation among `All` that `S` updates, or null.
const Accumulation *accumulationAt(const clang::Stmt *S, llvm::ArrayRef<Accumulation> All);

} // namespace graphify::rewriter
