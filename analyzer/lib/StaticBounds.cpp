// Static bounds the user gives (StaticBounds.h). Invariant: a bound is found only for a variable
// the function declares (a parameter or a local) under the name the bound gives; a bound that
// names nothing is reported by the driver, never silently ignored.
#include "graphify/analyzer/StaticBounds.h"
#include "graphify/analyzer/GraphRegions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace graphify {
namespace {

/// The function whose parameter or local `V` is (the pattern of an instantiation: annotations and
/// configured names are written there).
const FunctionDecl *owningFunction(const VarDecl *V) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    return Pattern;
  return FD;
}

/// The string an annotation argument spells (`"len"`), or empty.
llvm::StringRef stringArgument(const Expr *E) {
  if (const auto *C = dyn_cast<ConstantExpr>(E))
    E = C->getSubExpr();
  if (const auto *S = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()))
    return S->getString();
  return {};
}

struct AnnotatedBound {
  llvm::StringRef Name;
  std::optional<int64_t> Bound; ///< nullopt: not a positive integer constant
};

/// The bounds annotated on any declaration of `FD`.
llvm::SmallVector<AnnotatedBound, 2> annotatedBounds(const FunctionDecl *FD) {
  llvm::SmallVector<AnnotatedBound, 2> Out;
  const ASTContext &Ctx = FD->getASTContext();
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() != StaticBoundAnnotation)
        continue;
      AnnotatedBound B;
      if (A->args_size() == 2) {
        B.Name = stringArgument(A->args_begin()[0]);
        if (auto V = A->args_begin()[1]->getIntegerConstantExpr(Ctx); V && V->isStrictlyPositive() &&
                                                                         V->getSignificantBits() <= 64)
          B.Bound = V->getExtValue();
      }
      Out.push_back(B);
    }
  return Out;
}

/// Whether `FD` declares a parameter or a local named `Name`.
bool declaresVariable(const FunctionDecl *FD, llvm::StringRef Name) {
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getName() == Name)
      return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    bool Found = false;
    bool VisitVarDecl(VarDecl *V) {
      Found |= V->getName() == Name;
      return !Found;
    }
  } F;
  F.Name = Name;
  if (FD->getBody())
    F.TraverseStmt(FD->getBody());
  return F.Found;
}

} // namespace

std::optional<int64_t> staticBoundOf(const VarDecl *V, llvm::ArrayRef<StaticBound> Configured) {
  const FunctionDecl *FD = V ? owningFunction(V) : nullptr;
  if (!FD || !V->getIdentifier())
    return std::nullopt;
  std::optional<int64_t> Best;
  auto Take = [&](int64_t B) { Best = Best ? std::min(*Best, B) : B; };
  for (const AnnotatedBound &B : annotatedBounds(FD))
    if (B.Bound && B.Name == V->getName())
      Take(*B.Bound);
  if (!Configured.empty()) {
    const std::string Qualified = FD->getQualifiedNameAsString();
    for (const StaticBound &B : Configured) {
      if (B.Name != V->getName())
        continue;
      auto Pattern = GraphRegionFinder::compileGlob(B.Function);
      if (!Pattern) { // refused by the config parser before it gets here
        llvm::consumeError(Pattern.takeError());
        continue;
      }
      if (Pattern->match(Qualified))
        Take(B.Bound);
    }
  }
  return Best;
}

bool staticBoundNamesVariable(const FunctionDecl *FD, const StaticBound &B) {
  if (!FD->doesThisDeclarationHaveABody())
    return false;
  auto Pattern = GraphRegionFinder::compileGlob(B.Function);
  if (!Pattern) {
    llvm::consumeError(Pattern.takeError());
    return false;
  }
  return Pattern->match(FD->getQualifiedNameAsString()) && declaresVariable(FD, B.Name);
}

std::string staticBoundAnnotationProblem(const FunctionDecl *FD) {
  for (const AnnotatedBound &B : annotatedBounds(FD)) {
    if (B.Name.empty() || !B.Bound)
      return "GRAPHIFY_STATIC_BOUND takes a variable's name and a positive integer constant";
    if (FD->doesThisDeclarationHaveABody() && !declaresVariable(FD, B.Name))
      return "GRAPHIFY_STATIC_BOUND names '" + B.Name.str() + "', which '" + FD->getQualifiedNameAsString() +
             "' does not declare (a parameter or a local)";
  }
  return {};
}

} // namespace graphify
