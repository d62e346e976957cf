// Shapes and dtypes of where() arms, and the single-element and same-shape facts the index
// rewrites need. Nothing here evaluates code: a small symbolic sketch records, for each arm,
// whether it is a full reduction (one element), or the broadcast of some set of variables, and
// whether it is boolean. Two arms conflict only when their sketches are known and differ — an
// unknown sketch is accepted because where() broadcasts both arms, as the brief of the rewrites
// specifies; a known difference is refused because where() would change the result's shape.
#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/STLExtras.h>

#include <set>

using namespace clang;

namespace graphify::rewriter {

/// `x.sum()` or `torch::sum(x)`: a full reduction of a tensor with no other argument.
static bool isFullReduction(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (!Api.callHasTag(E, "full_reduction"))
    return false;
  if (isa<CXXMemberCallExpr>(E))
    return callArgs(E).empty() && Api.isTensorExpr(E);
  if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CXXOperatorCallExpr>(C))
    return callArgs(E).size() == 1 && Api.isTensorExpr(E);
  return false;
}

static void collectUses(const Stmt *S, const VarDecl *V, llvm::SmallVectorImpl<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
    Out.push_back(DR);
  for (const Stmt *C : S->children())
    collectUses(C, V, Out);
}

llvm::SmallVector<const DeclRefExpr *, 4> usesOf(const VarDecl *Var, const Stmt *Body) {
  llvm::SmallVector<const DeclRefExpr *, 4> Out;
  collectUses(Body, Var, Out);
  return Out;
}

static bool namesVar(const Expr *E, const VarDecl *V) { return V && referencedVar(E) == V; }

static bool reassignedIn(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && namesVar(BO->getLHS(), V))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && namesVar(UO->getSubExpr(), V))
    return true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && (OC->isAssignmentOp() || OC->getOperator() == OO_Amp) && OC->getNumArgs() >= 1 &&
      namesVar(OC->getArg(0), V))
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      unsigned Offset = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
      for (unsigned I = Offset; I < C->getNumArgs() && I - Offset < FD->getNumParams(); ++I) {
        QualType P = FD->getParamDecl(I - Offset)->getType();
        if (P->isReferenceType() && !P.getNonReferenceType().isConstQualified() && namesVar(C->getArg(I), V))
          return true;
      }
    }
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S))
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef && Cap.getCapturedVar() == V)
        return true;
  for (const Stmt *C : S->children())
    if (reassignedIn(C, V))
      return true;
  return false;
}

bool isReassigned(const VarDecl *Var, const Stmt *Body) { return reassignedIn(Body, Var); }

/// The initializer of a local that is never reassigned, so that facts about it hold at any use.
static const Expr *stableInit(const VarDecl *V, const Stmt *Body) {
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() || isReassigned(V, Body))
    return nullptr;
  return V->getInit();
}

bool isProvablySingleElement(const Expr *E, const Stmt *Body, const ApiModel &Api) {
  if (isFullReduction(E, Api))
    return true;
  if (const Expr *Init = stableInit(referencedVar(E), Body))
    return isFullReduction(Init, Api);
  return false;
}

namespace {
/// A symbolic shape and dtype of a tensor expression.
struct Sketch {
  enum ShapeKind { Unknown, Single, Vars } Shape = Unknown;
  std::set<const VarDecl *> Of; // broadcast of these variables' shapes (Shape == Vars)
  enum DtypeKind { AnyDtype, Bool, Number } Dtype = AnyDtype;
};
} // namespace

static bool isComparisonOperator(llvm::StringRef Name) {
  return Name == "operator>" || Name == "operator<" || Name == "operator>=" || Name == "operator<=" ||
         Name == "operator==" || Name == "operator!=";
}

static bool isArithmeticOperator(llvm::StringRef Name) {
  return Name == "operator+" || Name == "operator-" || Name == "operator*" || Name == "operator/";
}

static Sketch combine(const Sketch &A, const Sketch &B) {
  Sketch S;
  if (A.Shape == Sketch::Unknown || B.Shape == Sketch::Unknown)
    S.Shape = Sketch::Unknown;
  else if (A.Shape == Sketch::Single && B.Shape == Sketch::Single)
    S.Shape = Sketch::Single;
  else {
    S.Shape = Sketch::Vars;
    S.Of = A.Of;
    S.Of.insert(B.Of.begin(), B.Of.end());
  }
  return S;
}

static Sketch sketchOf(const Expr *E, const ApiModel &Api, int Depth = 0) {
  Sketch S;
  E = stripAll(E);
  if (!E || Depth > 16 || !Api.isTensorExpr(E))
    return S;
  if (const VarDecl *V = referencedVar(E)) {
    S.Shape = Sketch::Vars;
    S.Of.insert(V);
    return S;
  }
  if (isFullReduction(E, Api)) {
    S.Shape = Sketch::Single;
    std::string N = calleeName(E);
    S.Dtype = (N == "all" || N == "any") ? Sketch::Bool : Sketch::AnyDtype;
    return S;
  }
  std::string Name = calleeName(E);
  if (isComparisonOperator(Name) || isArithmeticOperator(Name)) {
    const auto *C = cast<CallExpr>(E);
    Sketch Acc;
    bool First = true;
    bool AnyBool = false;
    for (const Expr *A : C->arguments()) {
      if (!Api.isTensorExpr(A))
        continue; // a host scalar broadcasts and does not change the shape
      Sketch Part = sketchOf(A, Api, Depth + 1);
      AnyBool |= Part.Dtype == Sketch::Bool;
      Acc = First ? Part : combine(Acc, Part);
      First = false;
    }
    if (First)
      return S;
    Acc.Dtype = isComparisonOperator(Name) ? Sketch::Bool : (AnyBool ? Sketch::AnyDtype : Sketch::Number);
    return Acc;
  }
  if (Api.callHasTag(E, "bool_output"))
    S.Dtype = Sketch::Bool;
  return S;
}

static std::string describeShape(const Sketch &S) {
  if (S.Shape == Sketch::Single)
    return "has a single element";
  std::string Out = "has the shape of ";
  bool First = true;
  for (const VarDecl *V : S.Of) {
    Out += (First ? "'" : " and '") + V->getNameAsString() + "'";
    First = false;
  }
  return Out;
}

std::optional<std::string> armsIncompatible(const Expr *A, const Expr *B, const ApiModel &Api,
                                            const ASTContext &Ctx) {
  for (const Expr *Arm : {A, B})
    if (!Api.isTensorExpr(Arm))
      return "'" + sourceText(Arm, Ctx) + "' is not a tensor";
  Sketch SA = sketchOf(A, Api), SB = sketchOf(B, Api);
  bool ShapesKnown = SA.Shape != Sketch::Unknown && SB.Shape != Sketch::Unknown;
  if (ShapesKnown && (SA.Shape == Sketch::Single) != (SB.Shape == Sketch::Single))
    return "'" + sourceText(A, Ctx) + "' " + describeShape(SA) + " but '" + sourceText(B, Ctx) + "' " +
           describeShape(SB) + ", so where() would broadcast one arm to the other's shape";
  if ((SA.Dtype == Sketch::Bool && SB.Dtype == Sketch::Number) ||
      (SA.Dtype == Sketch::Number && SB.Dtype == Sketch::Bool))
    return "'" + sourceText(A, Ctx) + "' and '" + sourceText(B, Ctx) +
           "' have different dtypes (a boolean mask and a number), which where() would promote";
  return std::nullopt;
}

bool maskHasShapeOf(const Expr *Mask, const Expr *Target, const Stmt *Body, const ApiModel &Api) {
  const VarDecl *T = referencedVar(Target);
  if (!T)
    return false;
  Mask = stripAll(Mask);
  if (const VarDecl *M = referencedVar(Mask)) {
    if (M == T)
      return false;
    const Expr *Init = stableInit(M, Body);
    return Init && maskHasShapeOf(Init, Target, Body, Api);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Mask); UO && UO->getOpcode() == UO_LNot)
    return maskHasShapeOf(UO->getSubExpr(), Target, Body, Api);
  std::string Name = calleeName(Mask);
  if (Name == "operator~" || Name == "logical_not" || Name == "operator!")
    return maskHasShapeOf(callObject(Mask) ? callObject(Mask) : callArgs(Mask).front(), Target, Body, Api);
  if (!Api.callHasTag(Mask, "bool_output") && Name != "operator&" && Name != "operator|")
    return false;
  // An element-wise op: every tensor operand must have T's shape, and at least one must be T.
  auto Operands = callOperands(Mask);
  bool SawTarget = false;
  for (const Expr *Op : Operands) {
    if (!Api.isTensorExpr(Op))
      continue;
    if (referencedVar(Op) == T) {
      SawTarget = true;
      continue;
    }
    if (!maskHasShapeOf(Op, Target, Body, Api))
      return false;
    SawTarget = true;
  }
  return SawTarget;
}

} // namespace graphify::rewriter
