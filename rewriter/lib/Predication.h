#pragma once
/// \file
/// If-conversion (predication, as compilers do it) for the where() rewrites. A region of
/// side-effect-free straight-line code whose ifs read tensor values on the host is rewritten so
/// that every statement runs unconditionally and each value the branches disagree on becomes a
/// where() select:
///
/// \code
///   if (x.sum().item<float>() > 0) {         auto h = fc(x);
///     auto h = fc(x);                  ->    auto h2 = x * 2;
///     return h.relu();                       return torch::where(x.sum() > 0, h.relu(), h2 + 1);
///   }
///   auto h = x * 2;    // clashes: renamed
///   return h + 1;
/// \endcode
///
/// Locals declared in the branches are hoisted (renamed where their names clash), assignments
/// become fresh values (static single assignment, so nothing a later select reads is
/// overwritten), several live-out variables, nested ifs, and statements between an early return
/// and the final return are handled. Everything that runs unconditionally must be free of side
/// effects (Safety.h); each refusal names the construct and its line.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace graphify::rewriter {

/// The replacement of a predicated region.
struct PredicatedCode {
  std::string Text;
  /// Host locals the lifted conditions turn into tensors (their declarations are edited too).
  std::vector<const clang::VarDecl *> LiftedLocals;
};

/// `Region` runs from an if through the `return` that ends it, in one block: every path
/// through it returns a tensor. The result replaces the whole region.
llvm::Expected<PredicatedCode> predicateReturnRegion(llvm::ArrayRef<const clang::Stmt *> Region,
                                                     const ApiModel &Api, clang::ASTContext &Ctx);

/// An if (chain) that does not return: its branches declare locals and assign variables; the
/// result computes every branch and assigns each changed variable its selected value.
llvm::Expected<PredicatedCode> predicateAssignIf(const clang::IfStmt *If, const ApiModel &Api,
                                                 clang::ASTContext &Ctx);

/// Whether `V` holds a value before `If`: a parameter, an initialised local, or a local
/// assigned somewhere before it in `Body`.
bool isDefinedBefore(const clang::VarDecl *V, const clang::Stmt *If, const clang::Stmt *Body,
                     clang::ASTContext &Ctx);

/// `Base`, or `Base2`, `Base3`, ...: the first name neither declared nor used in `Body` nor in
/// `Taken` (which receives it).
std::string freshName(llvm::StringRef Base, const clang::Stmt *Body, std::vector<std::string> &Taken);

} // namespace graphify::rewriter
