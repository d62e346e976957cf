// Constants a function's callers choose for it (CallerConstants.h). The scope is per thread:
// units are analysed one per thread, and the answer must never outlive the unit's AST.
#include "CallerConstants.h"

#include "CallSites.h"

#include "graphify/analyzer/ApiResolver.h"

namespace graphify {

using namespace clang;

namespace {
thread_local CallerConstantsScope *Current = nullptr;
} // namespace

CallerConstantsScope::CallerConstantsScope(ASTContext &Ast, bool WholeProgram)
    : Sites(std::make_unique<CallSites>(Ast)), WholeProgram(WholeProgram), Outer(Current) {
  Current = this;
}

CallerConstantsScope::~CallerConstantsScope() { Current = Outer; }

/// A parameter whose value inside the function is the one its caller passed.
static bool keepsPassedValue(const ParmVarDecl &P) {
  QualType T = P.getType();
  if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
    return false;
  return !isAssignedAfterDeclaration(&P);
}

std::optional<llvm::SmallVector<const Expr *, 4>> callerArguments(const ParmVarDecl &P) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  if (!Current || !FD || !keepsPassedValue(P))
    return std::nullopt;
  auto Calls = Current->Sites->allCallsOf(*FD, Current->WholeProgram);
  if (!Calls || Calls->empty())
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Out;
  for (const CallExpr *CE : *Calls) {
    const Expr *Arg = CallSites::argumentFor(*CE, *FD, P.getFunctionScopeIndex());
    if (!Arg)
      Arg = P.hasDefaultArg() && !P.hasUninstantiatedDefaultArg() ? P.getDefaultArg() : nullptr;
    if (!Arg)
      return std::nullopt;
    Out.push_back(Arg);
  }
  return Out;
}

} // namespace graphify
