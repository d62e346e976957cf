#pragma once
/// \file
/// Constants a function's callers choose for it. A helper written for any device
/// (`postprocess(pred, torch::Device device) { auto p = pred.to(device); ... }`) copies to the
/// host when every call the unit can make passes `torch::kCPU`: its reads are of host memory and
/// the copy is the sync. ApiResolver::mentionsConstant asks here about a parameter, while a
/// unit's analysis holds a CallerConstantsScope; elsewhere (the rewriter, tests of one
/// expression) a parameter names no constant, as before.
///
/// The calls are CallSites' (all the calls there can be, or nothing): one file alone, a function
/// other files may call is never answered for, nor any externally visible function in
/// whole-program mode.
///
/// \code
///   CallerConstantsScope Scope(Ast, /*WholeProgram=*/false);   // for the unit's analysis
///   ... ApiResolver::mentionsConstant(E, "CPU", "cpu") ...       // follows parameters too
/// \endcode

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/SmallVector.h>

#include <memory>
#include <optional>

namespace graphify {

class CallSites;

/// Makes the unit's calls visible to callerArguments() on this thread while it lives (scopes
/// nest: the innermost one answers).
class CallerConstantsScope {
public:
  CallerConstantsScope(clang::ASTContext &Ast, bool WholeProgram);
  ~CallerConstantsScope();
  CallerConstantsScope(const CallerConstantsScope &) = delete;
  CallerConstantsScope &operator=(const CallerConstantsScope &) = delete;

private:
  std::unique_ptr<CallSites> Sites;
  bool WholeProgram;
  CallerConstantsScope *Outer;
  friend std::optional<llvm::SmallVector<const clang::Expr *, 4>> callerArguments(const clang::ParmVarDecl &P);
};

/// What every call of `P`'s function passes for `P` (its default argument where a call leaves it
/// out), when the unit shows all the calls, there is one at least, and the function never gives
/// `P` another value (a parameter taken by value or by const reference, never assigned); else
/// nothing. Nothing either outside a CallerConstantsScope.
std::optional<llvm::SmallVector<const clang::Expr *, 4>> callerArguments(const clang::ParmVarDecl &P);

} // namespace graphify
