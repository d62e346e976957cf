// The signature tests and lvalue walks of TaintSupport.h.
#include "TaintSupport.h"

#include <clang/AST/DeclTemplate.h>

namespace graphify::taint {

using namespace clang;

const FunctionDecl *key(const FunctionDecl *FD) { return FD ? FD->getCanonicalDecl() : nullptr; }

const VarDecl *rootVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E))
      E = UO->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      E = MC->getImplicitObjectArgument();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() >= 1)
      E = OC->getArg(0);
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

const FieldDecl *rootThisField(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
      E = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = MC->getImplicitObjectArgument();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() >= 1) {
      E = OC->getArg(0);
    } else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool isForwardingReference(const FunctionDecl &F, unsigned I) {
  const FunctionDecl *Pattern = F.getTemplateInstantiationPattern();
  if (!Pattern)
    return false;
  unsigned Covered = 0;
  for (const ParmVarDecl *P : Pattern->parameters()) {
    // A pack stands for as many instantiated parameters as the others leave.
    const unsigned Count = P->isParameterPack() ? F.getNumParams() + 1 - Pattern->getNumParams() : 1;
    if (I < Covered + Count) {
      QualType T = P->getType();
      if (const auto *Pack = T->getAs<PackExpansionType>())
        T = Pack->getPattern();
      const auto *Ref = T->getAs<RValueReferenceType>();
      return Ref && !Ref->getPointeeType().hasQualifiers() && Ref->getPointeeType()->getAs<TemplateTypeParmType>();
    }
    Covered += Count;
  }
  return false;
}

bool isSizeQuery(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  return MD.isConst() && MD.getNumParams() == 0 && !R->isReferenceType() &&
         (R->isIntegerType() || R->isBooleanType());
}

bool isElementRead(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  // A subscript may return a proxy by value (std::vector<bool>'s bit reference).
  return (R->isLValueReferenceType() || R->isPointerType() || MD.getOverloadedOperator() == OO_Subscript) &&
         llvm::all_of(MD.parameters(), [](const ParmVarDecl *P) {
           return !P->getType()->isReferenceType() && P->getType()->isIntegerType();
         });
}

bool storesArguments(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  if (R->isVoidType())
    return true;
  const CXXRecordDecl *Self = MD.getParent();
  const CXXRecordDecl *Returned = R.getNonReferenceType()->getAsCXXRecordDecl();
  return Returned && Self && Returned->getCanonicalDecl() == Self->getCanonicalDecl();
}

void findExits(const Stmt *S, Exits &J, bool InLoop, bool InSwitch) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S))
    J.Returns = true;
  else if (isa<ContinueStmt>(S) && !InLoop)
    J.Continues = true;
  else if (isa<BreakStmt>(S) && !InLoop && !InSwitch)
    J.Breaks = true;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    findExits(Child, J, InLoop || Loop, InSwitch || isa<SwitchStmt>(S));
}

std::string nameOf(const NamedDecl *D) {
  if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(D)) {
    std::string Names;
    for (const BindingDecl *B : DD->bindings())
      Names += (Names.empty() ? "" : ", ") + B->getNameAsString();
    return "[" + Names + "]";
  }
  if (!D || !D->getIdentifier())
    return "value";
  return D->getNameAsString();
}

std::string calleeName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return "the lambda";
  return "'" + FD->getNameAsString() + "'";
}

llvm::ArrayRef<const Expr *> tiedReferences(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(skipValueWrappers(E));
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "tie" || !FD->isInStdNamespace())
    return {};
  return llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
}

} // namespace graphify::taint
