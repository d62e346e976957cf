// nonzero-index-put-to-masked-fill:
//   auto i = m.nonzero(); x.index_put_({i}, v);   ->  x.masked_fill_(m, v);
//   x.index_put_({m.nonzero()}, v);               ->  x.masked_fill_(m, v);
//   x.index_put_({m}, v);   (m a boolean mask)    ->  x.masked_fill_(m, v);
// Conditions: the mask provably has x's shape (it is an element-wise comparison or logical op
// on x itself, directly or through a local assigned once), v is a host scalar or a single-element
// tensor, no accumulate argument, and for the nonzero form: the index local is used only here,
// and nothing between its declaration and the index_put_ has side effects (the mask is now
// computed at the index_put_, not at the declaration); x is provably one-dimensional
// (RankFacts.h), the only rank at which nonzero()'s positions and the mask fill the same elements.
// A boolean mask whose shape is not known to be x's (a row mask over a matrix) is refused with the
// recipe of a fill through it broadcast over the trailing dimensions.
#include "lib/RankFacts.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"
#include "lib/SingleUseLocal.h"

#include "graphify/analyzer/Analysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

struct MaskedFill {
  const Expr *Target;
  const Expr *Mask;
  const Expr *Value;
  const DeclStmt *IndexDecl = nullptr; // the `auto i = m.nonzero();` to remove
  bool ThroughNonzero = false;          // the index lists positions, not a mask
};

/// `m.nonzero()` or `torch::nonzero(m)` -> m.
const Expr *nonzeroOperand(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (calleeName(E) != "nonzero" || !Api.callHasTag(E, "dynamic_output_shape"))
    return nullptr;
  if (const Expr *Obj = callObject(E))
    return callArgs(E).empty() ? Obj : nullptr;
  auto Args = callArgs(E);
  return Args.size() == 1 ? Args[0] : nullptr;
}

/// The value text for every row: its selections by the mask (`.index({m})`) dropped.
std::string everyRowForm(std::string Value, const std::string &Mask) {
  const std::string Selection = ".index({" + Mask + "})";
  for (size_t At = Value.find(Selection); At != std::string::npos; At = Value.find(Selection, At))
    Value.erase(At, Selection.size());
  return Value;
}

llvm::Expected<MaskedFill> analyse(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  const auto *Call = R.Nodes.getNodeAs<CXXMemberCallExpr>("put");
  const Stmt *Body = functionBody(enclosingFunction(Call, Ctx));
  if (!Body)
    return refuse("the call is not inside a function body");
  MaskedFill F{Call->getImplicitObjectArgument(), nullptr, nullptr};
  auto Args = callArgs(Call);
  if (Args.size() == 3) {
    Expr::EvalResult Acc;
    if (!Args[2]->EvaluateAsInt(Acc, Ctx) || Acc.Val.getInt() != 0)
      return refuse("index_put_ accumulates, which masked_fill_ does not");
  }
  if (Args.size() < 2)
    return refuse("index_put_ has no value argument");
  auto Indices = bracedListElements(Args[0]);
  if (Indices.size() != 1)
    return refuse("index_put_ does not take exactly one index");
  F.Value = Args[1];
  const Expr *Index = Indices[0];
  // Elements-preserving calls after nonzero() (`.squeeze(1)`, `.view(-1)`) list the same
  // positions for the one-dimensional masks this rule is exact for.
  if (const Expr *M = nonzeroOperand(throughSameElements(Index, Api), Api)) {
    F.Mask = M;
    F.ThroughNonzero = true;
  } else if (const VarDecl *I = referencedVar(Index);
             I && I->getInit() && nonzeroOperand(throughSameElements(I->getInit(), Api), Api)) {
    F.Mask = nonzeroOperand(throughSameElements(I->getInit(), Api), Api);
    auto Decl = singleUseLocal(I, Call, Body, Api, Ctx, "the nonzero()");
    if (!Decl)
      return Decl.takeError();
    F.IndexDecl = *Decl;
    F.ThroughNonzero = true;
  } else if (maskHasShapeOf(Index, F.Target, Body, Api)) {
    F.Mask = Index;
  } else if ((Api.facts() && Api.facts()->isBoolMask(Index)) || isProvablyBoolean(Index, Api)) {
    // A row mask (`logits.index_put_({~done}, v)` with done of [B] and logits of [B, V]) fills
    // whole rows: the same as a fill through the mask given trailing dimensions of size 1,
    // which this rule cannot prove the sizes for.
    const std::string X = sourceText(F.Target, Ctx), M = sourceText(Index, Ctx);
    const std::string Broadcast = "(" + M + ").view(<its sizes, then 1 per further dimension of " + X + ">)";
    const std::string Refusal = "the mask '" + M + "' is not known to have the shape of '" + X +
                                "'; if it covers its leading dimensions, ";
    // masked_fill_ takes one value; values for the selected rows only are given for every row
    // and selected (`v.index({m})` becomes `v`, a factory sized by the count takes X's sizes).
    if (Api.isTensorExpr(F.Value) && !isProvablySingleElement(F.Value, Body, Api))
      return refuse(Refusal + "select through it broadcast, which reads nothing back: " + X + " = torch::where(" +
                    Broadcast + ", " + everyRowForm(sourceText(F.Value, Ctx), M) + ", " + X +
                    ") with the value computed on every row of " + X + " (each selection by the mask dropped, a "
                    "factory sized by its count given " + X + "'s sizes; TORCH_CHECK the sizes agree, a metadata "
                    "test)");
    return refuse(Refusal + "fill through it broadcast, which reads nothing back: " + X + ".masked_fill_(" +
                  Broadcast + ", " + sourceText(F.Value, Ctx) + ") (TORCH_CHECK the sizes agree, a metadata test)");
  } else {
    return refuse("the index is neither nonzero() of a mask nor a mask with the shape of '" +
                  sourceText(F.Target, Ctx) + "'");
  }
  if (!referencedVar(F.Target))
    return refuse("the target of index_put_ is not a variable");
  if (!maskHasShapeOf(F.Mask, F.Target, Body, Api))
    return refuse("cannot prove that the mask '" + sourceText(F.Mask, Ctx) + "' has the shape of '" +
                  sourceText(F.Target, Ctx) + "'");
  // nonzero() of a rank-r mask lists [k, r] coordinates, and index_put_ takes all of them as
  // positions in dimension 0 (whole rows, or an index error); masked_fill_ fills elements. The
  // two agree only for one-dimensional tensors.
  if (F.ThroughNonzero && !isProvablyOneDimensional(F.Target, Call, Body, Api, Ctx) &&
      !isProvablyOneDimensional(F.Mask, Call, Body, Api, Ctx))
    return refuse("'" + sourceText(F.Target, Ctx) +
                  "' is not known to be one-dimensional: with more dimensions, index_put_ reads every "
                  "coordinate that nonzero() lists as a position in dimension 0, where masked_fill_ fills "
                  "elements (state the rank with TORCH_CHECK(" +
                  sourceText(F.Target, Ctx) + ".dim() == 1), or index with the mask itself)");
  if (auto Why = findSideEffect(F.Mask, Api, false, Evaluation::AsBefore))
    return refuse("the mask " + *Why);
  if (Api.isTensorExpr(F.Value) && !isProvablySingleElement(F.Value, Body, Api))
    return refuse("the value '" + sourceText(F.Value, Ctx) + "' is a tensor that may have more than one element");
  return F;
}

} // namespace

NamedRewriteRule makeNonzeroIndexPutToMaskedFillRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = cxxMemberCallExpr(isUserCode(), isApiCall(A, "index_put_"), hasTensorIndexEntry(A)).bind("put");
  auto Edits = planOnce<MaskedFill>(
      [A](const MatchResult &R) { return analyse(R, *A); },
      [](const MatchResult &R, const MaskedFill &F) -> llvm::Expected<llvm::SmallVector<Edit, 1>> {
        ASTContext &Ctx = *R.Context;
        // `(x == 0).nonzero()` needed its parentheses; as an argument the comparison does not.
        const Expr *Mask = stripAll(F.Mask);
        if (const auto *BO = dyn_cast<BinaryOperator>(Mask); BO && BO->getOpcode() == BO_Comma)
          Mask = F.Mask;
        auto Main = replaceRange(R, node("put"), sourceText(F.Target, Ctx) + ".masked_fill_(" +
                                                     sourceText(Mask, Ctx) + ", " + sourceText(F.Value, Ctx) + ")");
        if (!Main)
          return Main.takeError();
        llvm::SmallVector<Edit, 1> All{std::move(*Main)};
        if (F.IndexDecl)
          All.push_back(removeDeclaration(F.IndexDecl, Ctx));
        return All;
      });
  return {"nonzero-index-put-to-masked-fill",
          makeRule(Matcher, Edits,
                   cat("assigning through the mask itself needs no value-dependent index tensor"))};
}

} // namespace graphify::rewriter
