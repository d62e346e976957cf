// Loops bounded by a value the user bounded (UserBounds.h). Invariant: the static condition is the
// original comparison with the bound in place of the variable, on a side that grows with it, so it
// holds in every iteration the original runs while the promise holds; the original comparison
// stays, as the mask's, so no iteration past the original's last is kept.
#include "UserBounds.h"
#include "ExprUtil.h"
#include "HostRead.h"
#include "Safety.h"

#include "graphify/analyzer/Analysis.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

using namespace clang;

namespace graphify::rewriter {
namespace {

bool refersTo(const Expr *E, const VarDecl *V) { return !usesOf(V, E).empty(); }

/// The reference to `V` that the greater side `E` of a comparison is, through implicit numeric
/// conversions (`t < len` with `t` an int64_t and `len` an int), or null. Arithmetic and casts are
/// left out: the mask's condition could not lift them.
const DeclRefExpr *boundedReference(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParens();
  while (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
    const QualType T = C->getType();
    if (C->getCastKind() != CK_LValueToRValue && !T->isIntegerType() && !T->isRealFloatingType())
      return nullptr;
    E = C->getSubExpr()->IgnoreParens();
  }
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR && DR->getDecl() == V ? DR : nullptr;
}

/// The lesser and greater sides of a comparison `a < b`, `a <= b`, `b > a`, `b >= a`.
std::optional<std::pair<const Expr *, const Expr *>> orderedSides(const Expr *C) {
  const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParenImpCasts());
  if (!B)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_LT:
  case BO_LE:
    return std::make_pair(B->getLHS(), B->getRHS());
  case BO_GT:
  case BO_GE:
    return std::make_pair(B->getRHS(), B->getLHS());
  default:
    return std::nullopt;
  }
}

/// The locals and parameters the greater side reads (in order), for which a bound would do; not
/// those `Loop` declares (its counter).
llvm::SmallVector<const VarDecl *, 2> boundCandidates(const Stmt *Loop, const Expr *Greater) {
  llvm::SmallVector<const VarDecl *, 2> Out;
  findExpr(Greater, [&](const Expr *X) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(X))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->isLocalVarDeclOrParm() && !Loop->getSourceRange().fullyContains(V->getSourceRange()) &&
          !llvm::is_contained(Out, V))
        Out.push_back(V);
    return false;
  });
  return Out;
}

/// `C`'s text with `Ref` replaced by `Text`, or nullopt when either comes from a macro.
std::optional<std::string> replacedText(const Expr *C, const DeclRefExpr *Ref, llvm::StringRef Text,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (C->getBeginLoc().isMacroID() || Ref->getBeginLoc().isMacroID() || Ref->getEndLoc().isMacroID())
    return std::nullopt;
  const std::string Whole = sourceText(C, Ctx);
  const unsigned Begin = SM.getFileOffset(Ref->getBeginLoc()) - SM.getFileOffset(C->getBeginLoc());
  const unsigned Length = sourceText(Ref, Ctx).size();
  if (Whole.empty() || Begin + Length > Whole.size())
    return std::nullopt;
  return Whole.substr(0, Begin) + Text.str() + Whole.substr(Begin + Length);
}

} // namespace

std::optional<BoundedTrip> userBoundedTrip(const Stmt *Loop, llvm::ArrayRef<const Expr *> Conjuncts,
                                           const ApiModel &Api, ASTContext &Ctx) {
  const DataFacts *Facts = Api.facts();
  if (!Facts)
    return std::nullopt;
  for (const Expr *C : Conjuncts) {
    auto Sides = orderedSides(C);
    if (!Sides || readsTensorOnHost(Sides->first, Api))
      continue;
    for (const VarDecl *V : boundCandidates(Loop, Sides->second)) {
      std::optional<int64_t> Bound = Facts->staticBoundOf(V);
      if (!Bound || refersTo(Sides->first, V))
        continue;
      const DeclRefExpr *Ref = boundedReference(Sides->second, V);
      if (!Ref)
        continue;
      auto Text = replacedText(C, Ref, std::to_string(*Bound), Ctx);
      if (!Text)
        continue;
      return BoundedTrip{C, V, *Bound, *Text};
    }
  }
  return std::nullopt;
}

std::string staticBoundAdvice(const Stmt *Loop, llvm::ArrayRef<const Expr *> Conjuncts, const FunctionDecl *F,
                              const ApiModel &Api, ASTContext &Ctx) {
  if (!Api.facts())
    return {};
  for (const Expr *C : Conjuncts) {
    auto Sides = orderedSides(C);
    if (!Sides || readsTensorOnHost(Sides->first, Api))
      continue;
    for (const VarDecl *V : boundCandidates(Loop, Sides->second)) {
      if (refersTo(Sides->first, V))
        continue;
      const std::string Name = V->getNameAsString();
      if (!boundedReference(Sides->second, V)) {
        if (!Api.facts()->staticBoundOf(V))
          continue;
        return "'" + Name + "' has a static bound, but the header compares the counter with '" +
               sourceText(Sides->second, Ctx) + "', not with '" + Name + "' itself, which is the form the bound " +
               "and the mask take";
      }
      const std::string Function = F ? F->getQualifiedNameAsString() : std::string("the function");
      return "if '" + Name + "' has a known maximum, give it as a static bound (GRAPHIFY_STATIC_BOUND(" + Name +
             ", <max>) on '" + Function + "', or StaticBounds: {\"" + Function + "::" + Name +
             "\": <max>} in .graphify.yaml) and the loop runs to it, masked past '" + Name + "'";
    }
  }
  return {};
}

} // namespace graphify::rewriter
