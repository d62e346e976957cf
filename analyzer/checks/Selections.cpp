// Selections and the loops that shrink a worklist by them. Both are told by rule-pack tags
// (dynamic_output_shape, bool_mask_index, shape_query) and the AST's shape, never by op names.
#include "Selections.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

namespace graphify {

using namespace clang;

namespace {

/// The tensors inside an index list argument (`{m}`, `{Slice(), m}`).
void indexTensors(const Expr *E, const ApiResolver &Api, llvm::SmallVectorImpl<const Expr *> &Out,
                  unsigned Depth = 0) {
  if (!E || Depth > 8)
    return;
  E = skipValueWrappers(E);
  if (Api.isTensor(E->getType())) {
    Out.push_back(E);
    return;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      indexTensors(I, Api, Out, Depth + 1);
  } else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
    indexTensors(SIL->getSubExpr(), Api, Out, Depth + 1);
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CE->arguments())
      indexTensors(A, Api, Out, Depth + 1);
  } else if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    indexTensors(ICE->getSubExpr(), Api, Out, Depth + 1);
  }
}

/// The local tensor `E` names, if any.
const VarDecl *localTensor(const Expr *E, const ApiResolver &Api) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(skipValueWrappers(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && Api.isTensor(VD->getType()) ? VD : nullptr;
}

/// The tensor locals whose size `S` reads (`order.numel()`, `order.sizes()[0]`).
void sizeQueried(const Stmt *S, const ApiResolver &Api, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<CallExpr>(S))
    if (auto C = Api.resolve(E); C && C->hasTag("shape_query") && !C->Args.empty())
      if (const VarDecl *VD = localTensor(C->Args[0], Api))
        Out.push_back(VD);
  for (const Stmt *Child : S->children())
    sizeQueried(Child, Api, Out);
}

bool contains(const Stmt *Outer, SourceLocation Loc, const SourceManager &SM) {
  SourceRange R = Outer->getSourceRange();
  return Loc.isValid() && !SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), Loc);
}

/// Whether `E` computes a selection: it calls one, or reads a local of `Body` initialised from
/// one.
bool selects(const Stmt *E, const Stmt *Body, const AnalysisContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 4 || isa<LambdaExpr>(E))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (auto C = Ctx.api().resolve(Call); C && selectionEntry(*C, Ctx))
      return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && VD->getInit() &&
        contains(Body, VD->getLocation(), Ctx.ast().getSourceManager()))
      return selects(VD->getInit(), Body, Ctx, Depth + 1);
  for (const Stmt *Child : E->children())
    if (selects(Child, Body, Ctx, Depth))
      return true;
  return false;
}

/// Whether `Body` assigns `VD` again from a selection.
bool reassignedBySelection(const Stmt *S, const VarDecl *VD, const Stmt *Body, const AnalysisContext &Ctx) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
    LHS = BO->getLHS();
    RHS = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal &&
                                                               Op->getNumArgs() == 2) {
    LHS = Op->getArg(0);
    RHS = Op->getArg(1);
  }
  if (LHS && localTensor(LHS, Ctx.api()) == VD && selects(RHS, Body, Ctx))
    return true;
  for (const Stmt *Child : S->children())
    if (reassignedBySelection(Child, VD, Body, Ctx))
      return true;
  return false;
}

} // namespace

const ApiEntry *selectionEntry(const ApiCall &Call, const AnalysisContext &Ctx) {
  if (const ApiEntry *E = Call.entryWithTag("dynamic_output_shape"))
    return E;
  if (const ApiEntry *E = Call.entryWithTag("bool_mask_index"))
    for (unsigned Pos : E->IndexArgs) {
      llvm::SmallVector<const Expr *, 4> Tensors;
      indexTensors(Call.arg(Pos), Ctx.api(), Tensors);
      for (const Expr *T : Tensors)
        if (Ctx.facts().isBoolMask(T))
          return E;
    }
  return nullptr;
}

const VarDecl *shrinkingSelection(const Stmt &Loop, const AnalysisContext &Ctx) {
  const Expr *Cond = nullptr;
  const Stmt *Body = nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(&Loop)) {
    Cond = W->getCond();
    Body = W->getBody();
  } else if (const auto *D = dyn_cast<DoStmt>(&Loop)) {
    Cond = D->getCond();
    Body = D->getBody();
  } else if (const auto *F = dyn_cast<ForStmt>(&Loop)) {
    Cond = F->getCond();
    Body = F->getBody();
  }
  if (!Cond || !Body)
    return nullptr;
  llvm::SmallVector<const VarDecl *, 2> Queried;
  sizeQueried(Cond, Ctx.api(), Queried);
  for (const VarDecl *VD : Queried)
    if (reassignedBySelection(Body, VD, Body, Ctx))
      return VD;
  return nullptr;
}

} // namespace graphify
