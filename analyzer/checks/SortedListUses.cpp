// Uses of a sorted host list, told apart by what they take from it: a tensor (its order then
// positions device data) or host values only (the order stays on the host).
#include "SortedListUses.h"

#include "lib/RangeForLists.h"

#include "lib/StatementParents.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace graphify {

using namespace clang;

namespace {

class ListUses {
public:
  ListUses(const ApiResolver &Api, ASTContext &Ast) : Api(Api), Ast(Ast) {}

  /// Whether the use `Ref` of the list may take a tensor out of it.
  bool listUseHandsOn(const Expr *Ref) const {
    const Stmt *P = parentPastWrappers(Ref);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(parentPastWrappers(ME));
      if (!MD || !Call)
        return true;
      QualType R = MD->getReturnType();
      if (R->isReferenceType()) // front(), back(), at(i), operator[](i): an element
        return elementUseHandsOn(Call);
      return R->getAsCXXRecordDecl() != nullptr; // begin()/end() hand out iterators; size(), push_back() do not
    }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 && containsStmt(Op->getArg(0), Ref))
      return elementUseHandsOn(Op);
    if (const auto *For = rangeForOver(Ref, Ast))
      return variableHandsOn(For->getLoopVariable(), For->getBody());
    return true;
  }

  /// Whether a use of an element `E` of the list may take a tensor from it: anything but reading a
  /// field, or calling a method, whose type holds no tensors (`best.prediction`, `h.score()`).
  bool elementUseHandsOn(const Expr *E) const {
    const Stmt *P = parentPastWrappers(E);
    const auto *ME = dyn_cast_or_null<MemberExpr>(P);
    if (!ME)
      return true;
    QualType T = ME->getType();
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
      T = MD->getReturnType();
    return Api.isTensor(T) || Api.holdsTensors(T.getNonReferenceType());
  }

  /// Whether any use of the variable `V` (a range-for's element) in `Body` may take a tensor.
  bool variableHandsOn(const VarDecl *V, const Stmt *Body) const {
    bool HandsOn = false;
    forEachRef(Body, V, [&](const DeclRefExpr *R) { HandsOn = HandsOn || elementUseHandsOn(R); });
    return HandsOn;
  }

  template <typename Fn> static void forEachRef(const Stmt *S, const VarDecl *V, Fn &&F) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V)
      F(R);
    for (const Stmt *Child : S->children())
      forEachRef(Child, V, F);
  }

private:
  /// The first parent of `E` that is not an implicit cast, parenthesis or temporary.
  const Stmt *parentPastWrappers(const Expr *E) const {
    DynTypedNode N = DynTypedNode::create(*E);
    for (unsigned Depth = 0; Depth < 8; ++Depth) {
      DynTypedNodeList Parents = Ast.getParents(N);
      if (Parents.empty())
        return nullptr;
      const auto *S = Parents[0].get<Stmt>();
      if (!S || !(isa<ImplicitCastExpr>(S) || isa<ParenExpr>(S) || isa<MaterializeTemporaryExpr>(S) ||
                  isa<CXXBindTemporaryExpr>(S) || isa<ExprWithCleanups>(S)))
        return S;
      N = Parents[0];
    }
    return nullptr;
  }


  const ApiResolver &Api;
  ASTContext &Ast;
};

/// The innermost loop that holds `S` in its function, or null.
const Stmt *enclosingLoop(const Stmt &S, ASTContext &Ast) {
  for (auto N = statementParent(DynTypedNode::create(S), Ast); N; N = statementParent(*N, Ast))
    if (const auto *L = N->get<Stmt>(); L && (isa<ForStmt>(L) || isa<WhileStmt>(L) || isa<DoStmt>(L) ||
                                              isa<CXXForRangeStmt>(L)))
      return L;
  return nullptr;
}

} // namespace

bool sortedListHandsOnTensors(const ApiResolver &Api, ASTContext &Ast, const Expr *List, const Expr *Sort) {
  const auto *Ref = dyn_cast<DeclRefExpr>(skipValueWrappers(List));
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return true;
  const Stmt *Body = enclosingBody(*Sort, Ast);
  if (!Body)
    return true;
  // Uses before the sort see the list unordered, unless a loop runs them again afterwards.
  const Stmt *Loop = enclosingLoop(*Sort, Ast);
  const SourceManager &SM = Ast.getSourceManager();
  ListUses Uses(Api, Ast);
  bool HandsOn = false;
  ListUses::forEachRef(Loop ? Loop : Body, V, [&](const DeclRefExpr *R) {
    if (!HandsOn && !containsStmt(Sort, R) &&
        (Loop || SM.isBeforeInTranslationUnit(Sort->getEndLoc(), R->getBeginLoc())))
      HandsOn = Uses.listUseHandsOn(R);
  });
  if (!Loop)
    return HandsOn;
  ListUses::forEachRef(Body, V, [&](const DeclRefExpr *R) {
    if (!HandsOn && !containsStmt(Loop, R) && SM.isBeforeInTranslationUnit(Sort->getEndLoc(), R->getBeginLoc()))
      HandsOn = Uses.listUseHandsOn(R);
  });
  return HandsOn;
}

} // namespace graphify
