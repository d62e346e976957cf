// Shapes of tensor fields of local structs, along the flow. A field's shape is otherwise one fact
// per field for the whole TU (whatever any function stores there, at any point), which is what a
// caller reading a returned struct needs; but inside the function that fills a local struct, a
// field holds a static tensor until the line that stores a selection into it:
//
//   Out out;
//   out.boxes = torch::cat(parts, 0);            // static rows
//   auto keep = keep_rows(out.boxes, scores);    // keep_rows sees the static tensor
//   out.boxes = out.boxes.index_select(0, keep); // from here on, a selection
//   return out;
//
// Tracked so only when nothing could store into the struct behind the interpreter's back: every
// use of the variable is a field access or a `return` of it, none inside a lambda, and it starts
// default-constructed. Stores still reach the TU-wide fact too, for the callers.
#include "BodyInterpreter.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace graphify::taint {

using namespace clang;

namespace {

/// Counts the uses of one variable in a body, and those that are a field access or a return.
struct UseCounter : RecursiveASTVisitor<UseCounter> {
  const VarDecl *VD;
  unsigned Uses = 0, Allowed = 0;
  bool InLambda = false;
  explicit UseCounter(const VarDecl *V) : VD(V) {}

  static bool refersTo(const Expr *E, const VarDecl *V) {
    const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return DRE && DRE->getDecl() == V;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() == VD)
      Uses += InLambda ? 2 : 1; // a use inside a lambda is never allowed
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (!ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) && refersTo(ME->getBase(), VD))
      ++Allowed;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    const Expr *V = R->getRetValue();
    if (const auto *CE = V ? dyn_cast<CXXConstructExpr>(V->IgnoreParenImpCasts()) : nullptr; CE && CE->getNumArgs() == 1)
      V = CE->getArg(0);
    if (refersTo(V, VD))
      ++Allowed;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    const bool Was = InLambda;
    InLambda = true;
    const bool Ok = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    InLambda = Was;
    return Ok;
  }
};

/// Made by its default constructor (or an empty brace list): every field starts undefined.
bool startsEmpty(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init)
    return true;
  Init = Init->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    return CE->getNumArgs() == 0;
  if (const auto *IL = dyn_cast<InitListExpr>(Init))
    return IL->getNumInits() == 0;
  return false;
}

} // namespace

bool BodyInterpreter::tracksFieldsLocally(const VarDecl *VD) {
  auto [It, New] = FieldsTrackedLocally.try_emplace(VD, false);
  if (!New)
    return It->second;
  if (!FD || !FD->getBody() || !isLocal(VD) || VD->getType()->isReferenceType() || !VD->hasLocalStorage() ||
      !VD->getType()->isRecordType() || !startsEmpty(VD))
    return false;
  UseCounter Counter(VD);
  Counter.TraverseStmt(FD->getBody());
  return It->second = Counter.Uses == Counter.Allowed;
}

const void *BodyInterpreter::localFieldKey(const MemberExpr *ME) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!F || ME->isArrow() || !VD || !Api.holdsTensors(F->getType()) || !tracksFieldsLocally(VD))
    return nullptr;
  std::unique_ptr<char> &Key = LocalFieldKeys[{VD, F}];
  if (!Key)
    Key = std::make_unique<char>();
  return Key.get();
}

// Tensor fields of *this rebound in the body: `op = outputs[i]; bs = op.size(0);` reads the size of
// what was just stored, not of whatever any function ever stores into `op` (a later `op =
// nms(op, ...)` in the same method). Tracked from the store to the next call that may rebind the
// field — one whose summary says it does, or one graphify has no summary for.

void BodyInterpreter::noteTensorFieldRebound(const FieldDecl *F) {
  if (!llvm::is_contained(TensorFieldsRebound, F))
    TensorFieldsRebound.push_back(F);
}

std::optional<TaintValue> BodyInterpreter::reboundThisFieldShape(const MemberExpr *ME) const {
  if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return std::nullopt;
  auto It = S.ThisFieldShapes.find(ME->getMemberDecl());
  if (It == S.ThisFieldShapes.end())
    return std::nullopt;
  return It->second;
}

void BodyInterpreter::rebindThisFieldShape(const MemberExpr *ME, TaintValue V) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F)
    return;
  noteTensorFieldRebound(F);
  // Only a tensor is replaced whole by an assignment; a container of tensors also grows.
  if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && Api.isTensor(F->getType()))
    S.ThisFieldShapes[F] = V;
  else
    S.ThisFieldShapes.erase(F);
}

void BodyInterpreter::forgetFieldShapesCallMayRebind(const ApiCall *C) {
  const FunctionDecl *Callee = C ? C->Callee : nullptr;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
  const FunctionSummary *Sum = nullptr;
  if (Callee)
    if (auto It = A.Summaries.find(key(Callee)); It != A.Summaries.end())
      Sum = &It->second;
  if (Sum && !Sum->RebindsAnyTensorField && !(MD && MD->isVirtual())) {
    for (const FieldDecl *F : Sum->RebindsTensorFields) {
      noteTensorFieldRebound(F);
      S.ThisFieldShapes.erase(F);
    }
    return;
  }
  // No body to read: the packs' ops, the standard library and what the compiler wrote rebind
  // none of the project's fields, and other code reaches this object's only when handed it.
  if (C && (!C->Entries.empty() || !Callee || Api.isLibraryDecl(Callee) || Callee->isImplicit() ||
            Callee->isDefaulted() || Ctx().getSourceManager().isInSystemHeader(Callee->getLocation())))
    return;
  auto IsThis = [](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(E); Deref && Deref->getOpcode() == UO_Deref)
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
    return isa<CXXThisExpr>(E);
  };
  if (C && !(MD && MD->getParent()->isLambda()) && llvm::none_of(C->Args, IsThis))
    return;
  MayRebindAnyTensorField = true;
  S.ThisFieldShapes.clear();
}

} // namespace graphify::taint
