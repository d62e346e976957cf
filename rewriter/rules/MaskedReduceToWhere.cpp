// masked-reduce-to-where:
//   x.masked_select(m).sum()     ->  torch::where(m, x, 0).sum()
//   x.index({m}).sum()           ->  torch::where(m, x, 0).sum()
//   x.masked_select(m).mean()    ->  torch::where(m, x, 0).sum() / m.sum()
// Zeros add nothing to a sum, so reducing the fixed-size where() equals reducing the selection.
// The mean divides by the number of selected elements; over an empty selection both sides are
// 0/0 = NaN. Conditions: x is a tensor and the mask is side-effect free; for `index({m})` the
// mask must provably have x's shape (index() with a lower-rank mask selects whole rows, where()
// would broadcast instead); for the mean, the count `m.sum()` is the number of selected
// elements only when m has x's shape — otherwise the broadcast count
// `torch::logical_and(m, torch::ones_like(x, torch::kBool)).sum()` is emitted, which is what
// masked_select counts.
#include "lib/RuleSupport.h"
#include "lib/Safety.h"
#include "lib/SingleUseLocal.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

struct Selection {
  const Expr *Source;
  const Expr *Mask;
  bool ByIndex;
  const DeclStmt *Decl = nullptr; ///< the local's declaration, removed by the rewrite
};

/// The local variables an expression reads.
llvm::SmallVector<const VarDecl *, 4> readVars(const Stmt *S) {
  llvm::SmallVector<const VarDecl *, 4> Out;
  llvm::SmallVector<const Stmt *, 16> Work{S};
  while (!Work.empty()) {
    const Stmt *N = Work.pop_back_val();
    if (!N)
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(N))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage())
        Out.push_back(V);
    for (const Stmt *C : N->children())
      Work.push_back(C);
  }
  return Out;
}

std::optional<Selection> asSelection(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  std::string N = calleeName(E);
  if (N == "masked_select" && Api.callHasTag(E, "dynamic_output_shape")) {
    if (const Expr *Obj = callObject(E)) {
      auto Args = callArgs(E);
      if (Args.size() == 1)
        return Selection{Obj, Args[0], false, nullptr};
    } else {
      auto Args = callArgs(E);
      if (Args.size() == 2)
        return Selection{Args[0], Args[1], false, nullptr};
    }
  }
  if (N == "index" && Api.callHasTag(E, "bool_mask_index")) {
    const Expr *Obj = callObject(E);
    auto Args = callArgs(E);
    if (Obj && Args.size() == 1) {
      // Only a boolean mask selects: an index tensor of integers (`x.index({ids})`, a gather of
      // fixed length) reduced is already a static reduction, not this rule's.
      auto Elements = bracedListElements(Args[0]);
      const DataFacts *Facts = Api.facts();
      if (Elements.size() == 1 && Api.isTensorExpr(Elements[0]) &&
          ((Facts && Facts->isBoolMask(Elements[0])) || isProvablyBoolean(Elements[0], Api)))
        return Selection{Obj, Elements[0], true, nullptr};
    }
  }
  return std::nullopt;
}

/// The selection the reduction reduces: its receiver, or the single-use local holding it.
llvm::Expected<Selection> selectionOf(const CXXMemberCallExpr *Reduce, const Stmt *Body, const ApiModel &Api,
                                      ASTContext &Ctx) {
  const Expr *Receiver = Reduce->getImplicitObjectArgument();
  if (!Body)
    return refuse("the reduction is not inside a function body");
  if (auto Sel = asSelection(Receiver, Api))
    return *Sel;
  const VarDecl *V = referencedVar(Receiver);
  auto Sel = V && V->getInit() ? asSelection(throughSameElements(V->getInit(), Api), Api) : std::nullopt;
  if (!Sel)
    return refuseOutOfScope("the reduced tensor is not a boolean selection 'x.masked_select(m)' or 'x.index({m})'");
  auto Decl = singleUseLocal(V, Reduce, Body, Api, Ctx, "the selection");
  if (!Decl)
    return Decl.takeError();
  for (const Expr *Input : {Sel->Source, Sel->Mask})
    for (const VarDecl *Read : readVars(Input))
      if (isReassigned(Read, Body))
        return refuse("'" + Read->getNameAsString() + "' is reassigned, so the selection cannot move to its use");
  Sel->Decl = *Decl;
  return *Sel;
}

/// Whether the replacement text must be parenthesised where `E` stands.
bool needsParens(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return true;
    N = Parents[0];
    if (N.get<ReturnStmt>() || N.get<VarDecl>() || N.get<ParenExpr>() || N.get<InitListExpr>())
      return false;
    const Expr *P = N.get<Expr>();
    if (!P)
      return true;
    if (isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
        isa<ExprWithCleanups>(P))
      continue;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P); CE && !isa<CXXTemporaryObjectExpr>(CE))
      continue; // an implicit copy into a variable or argument
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P); OC && OC->getOperator() == OO_Equal)
      return false;
    if (const auto *C = dyn_cast<CallExpr>(P); C && !isa<CXXOperatorCallExpr>(C))
      return stripAll(C->getCallee()) == E; // as an argument no parentheses are needed
    return true;
  }
  return true;
}

/// The rewrite of one reduction: its where() text, and the selection's local declaration when the
/// selection was a local used only there (removed with it).
struct ReducePlan {
  std::string Text;
  const DeclStmt *SelectionDecl = nullptr;
};

llvm::Expected<ReducePlan> planOf(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  const auto *Reduce = R.Nodes.getNodeAs<CXXMemberCallExpr>("reduce");
  const Stmt *Body = functionBody(enclosingFunction(Reduce, Ctx));
  if (!callArgs(Reduce).empty())
    return refuse("the reduction takes arguments (a dimension or dtype)");
  auto Sel = selectionOf(Reduce, Body, Api, Ctx);
  if (!Sel)
    return Sel.takeError();
  bool SameShape = maskHasShapeOf(Sel->Mask, Sel->Source, Body, Api);
  if (Sel->ByIndex && !SameShape)
    return refuse("cannot prove that the mask '" + sourceText(Sel->Mask, Ctx) + "' has the shape of '" +
                  sourceText(Sel->Source, Ctx) + "' (index() with a smaller mask selects whole rows)");
  if (auto Why = findSideEffect(Sel->Mask, Api, false, Evaluation::AsBefore))
    return refuse("the mask " + *Why);
  if (auto Why = findSideEffect(Sel->Source, Api, false, Evaluation::AsBefore))
    return refuse("the selected tensor " + *Why);
  std::string M = sourceText(stripAll(Sel->Mask), Ctx), X = sourceText(Sel->Source, Ctx);
  std::string Sum = Api.spell(Sel->Source, "where") + "(" + M + ", " + X + ", 0).sum()";
  if (calleeName(Reduce) == "sum")
    return ReducePlan{Sum, Sel->Decl};
  std::string MaskOperand = isa<DeclRefExpr>(stripAll(Sel->Mask)) || isa<CallExpr>(stripAll(Sel->Mask)) &&
                                                                         !isa<CXXOperatorCallExpr>(stripAll(Sel->Mask))
                                ? M
                                : "(" + M + ")";
  std::string Count = SameShape ? MaskOperand + ".sum()"
                                : Api.spell(Sel->Source, "logical_and") + "(" + M + ", " +
                                      Api.spell(Sel->Source, "ones_like") + "(" + X + ", " +
                                      Api.spellConstant(Sel->Source, "kBool") + ")).sum()";
  std::string Mean = Sum + " / " + Count;
  return ReducePlan{needsParens(Reduce, Ctx) ? "(" + Mean + ")" : Mean, Sel->Decl};
}

} // namespace

NamedRewriteRule makeMaskedReduceToWhereRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  // `sum()` has a defaulted dtype parameter, so "no arguments" is checked on what was written.
  // The selection is the receiver itself, or a local initialised by it (and used only here).
  auto Selection = expr(anyOf(isApiCall(A, "masked_select"), isApiCall(A, "index")));
  auto Matcher =
      cxxMemberCallExpr(isUserCode(), hasTensorType(A), callee(cxxMethodDecl(hasAnyName("sum", "mean"))),
                        on(expr(anyOf(Selection, ignoringImplicit(declRefExpr(to(varDecl(
                                                     hasLocalStorage(), hasInitializer(hasDescendant(Selection))))))))))
          .bind("reduce");
  auto Edits = planOnce<ReducePlan>([A](const MatchResult &R) { return planOf(R, *A); },
                                    [](const MatchResult &R, const ReducePlan &P)
                                        -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
                                      auto Main = replaceRange(R, node("reduce"), P.Text);
                                      if (!Main)
                                        return Main.takeError();
                                      llvm::SmallVector<Edit, 1> All{std::move(*Main)};
                                      if (P.SelectionDecl)
                                        All.push_back(removeDeclaration(P.SelectionDecl, *R.Context));
                                      return All;
                                    });
  return {"masked-reduce-to-where",
          makeRule(Matcher, Edits,
                   cat("the reduction runs over a fixed-size where() instead of a value-dependent "
                       "selection"))};
}

} // namespace graphify::rewriter
