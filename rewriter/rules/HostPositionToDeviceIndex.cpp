// host-position-to-device-index:
//   int64_t i = t.argmax().item<int64_t>();   ->  auto i = t.argmax().reshape({1});
//   x[i]                                      ->  x.index({i}).squeeze(0)
//   x.select(1, i)                            ->  x.index({torch::indexing::Slice(), i}).squeeze(1)
//   x.index({0, i})                           ->  x.index({0, i}).squeeze(0)
//   x[0][i] = v;                              ->  x[0].index_put_({i}, v);
//   x.index_put_({i}, v)                      ->  (unchanged: i is now a tensor)
// A position read on the host (item()) becomes a one-element long tensor, so the element is
// picked on the device and nothing is copied to the host.
//
// Why a one-element tensor and not a 0-d one: LibTorch's index() turns a 0-d integer index
// tensor back into an integer with item() (ATen/TensorIndexing.h, applySlicing), which is the
// very sync being removed. A (1,)-shaped long index is an advanced index: it keeps one position
// as a dimension of size 1 (squeezed again for reads), counts negative positions from the end as
// the integer did, and raises for positions out of range as the integer did. reshape({1}) raises
// where item() would (a receiver with more than one element). Positions computed from the read
// with integer `+ - *` stay integer tensor arithmetic (int64, as the host computed them).
//
// Refused: a use of the value that is not a position (it must stay a host value), a position
// in an index list beside None, Ellipsis, booleans or tensors, a select() whose dimension is not
// a non-negative constant, an assignment through a chain whose earlier index was read on the
// host and is not plain [] (it would write a copy), a tensor value for an index_put_ whose
// position dimension is not the first (it would no longer broadcast).
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <map>
#include <set>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

/// One indexing application in a chain such as `t[b][i]` or `t.select(1, i)`.
struct IndexStep {
  enum Kind { Subscript, Select, Index, IndexPut } K;
  const Expr *Call = nullptr;                   ///< the whole step
  const Expr *Base = nullptr;                   ///< the tensor it indexes
  llvm::SmallVector<const Expr *, 4> Positions; ///< [] / select's index / the list's elements
  const Expr *Dim = nullptr;                    ///< select's dimension
  const Expr *Value = nullptr;                  ///< index_put_'s value
};

/// The step `E` is (stripped), or nothing.
std::optional<IndexStep> asIndexStep(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  if (!Api.callHasTag(E, "position_argument"))
    return std::nullopt;
  const std::string Name = calleeName(E);
  IndexStep S;
  S.Call = E;
  S.Base = callObject(E);
  auto Args = callArgs(E);
  if (!S.Base || !Api.isTensorExpr(S.Base))
    return std::nullopt;
  if (Name == "operator[]") {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2)
      Args = {OC->getArg(1)};
    if (Args.size() != 1)
      return std::nullopt;
    S.K = IndexStep::Subscript;
    S.Positions.push_back(stripAll(Args[0]));
  } else if (Name == "select" && Args.size() == 2) {
    S.K = IndexStep::Select;
    S.Dim = Args[0];
    S.Positions.push_back(stripAll(Args[1]));
  } else if ((Name == "index" && Args.size() == 1) || (Name == "index_put_" && Args.size() >= 2)) {
    S.K = Name == "index" ? IndexStep::Index : IndexStep::IndexPut;
    S.Positions = bracedListElements(Args[0]);
    if (S.Positions.empty())
      return std::nullopt;
    if (S.K == IndexStep::IndexPut)
      S.Value = Args[1];
  } else {
    return std::nullopt;
  }
  return S;
}

/// The node a position value reaches going up through the implicit nodes and the integer
/// arithmetic (`i + 1`, `n - 1 - i`) that a long tensor computes the same way, or null when
/// something else consumes it first. `Uses` names every node that carries the host value.
const Expr *positionConsumer(const Expr *Use, const std::set<const Expr *> &Uses, ASTContext &Ctx,
                             const Expr **ChildOut) {
  DynTypedNode N = DynTypedNode::create(*Use);
  const Expr *Child = Use;
  for (int Depth = 0; Depth < 32; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    const auto *P = N.get<Expr>();
    if (!P)
      return nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      const BinaryOperatorKind Op = BO->getOpcode();
      const Expr *Other = BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      bool OtherCarries = false;
      for (const Expr *U : Uses)
        OtherCarries |= Other->getSourceRange().fullyContains(U->getSourceRange());
      if ((Op != BO_Add && Op != BO_Sub && Op != BO_Mul) || !Other->getType()->isIntegerType() || OtherCarries ||
          !P->getType()->isIntegerType())
        return nullptr;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() != UO_Minus && UO->getOpcode() != UO_Plus)
        return nullptr;
    } else if (const auto *SC = dyn_cast<CXXStaticCastExpr>(P)) {
      if (!SC->getType()->isIntegerType())
        return nullptr;
    } else if (!(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
                 isa<CXXBindTemporaryExpr>(P) || isa<ExprWithCleanups>(P) || isa<CXXConstructExpr>(P) ||
                 isa<CXXFunctionalCastExpr>(P) || isa<InitListExpr>(P) || isa<CXXStdInitializerListExpr>(P))) {
      *ChildOut = Child;
      return P;
    }
    Child = P;
  }
  return nullptr;
}

/// The step whose position `Use` is, with the index of that position, or nothing.
std::optional<std::pair<IndexStep, size_t>> stepOfPosition(const Expr *Use, const std::set<const Expr *> &Uses,
                                                           const ApiModel &Api, ASTContext &Ctx) {
  const Expr *Child = nullptr;
  const Expr *Consumer = positionConsumer(Use, Uses, Ctx, &Child);
  if (!Consumer)
    return std::nullopt;
  auto Step = asIndexStep(Consumer, Api);
  if (!Step)
    return std::nullopt;
  for (size_t I = 0; I < Step->Positions.size(); ++I)
    if (Step->Positions[I]->getSourceRange().fullyContains(Use->getSourceRange()))
      return std::make_pair(*Step, I);
  return std::nullopt;
}

/// Where the host value comes from and what carries it: the read itself, or a local it
/// initialises (then every use of the local).
struct PositionSource {
  const CXXMemberCallExpr *Read = nullptr; // the whole read: `t.item<int>()`, `t.item().toInt()`
  const Expr *Tensor = nullptr;            // `t`
  const VarDecl *Local = nullptr;
  const DeclStmt *Decl = nullptr;
  std::set<const Expr *> Uses;
  const Stmt *Body = nullptr;
};

PositionSource sourceOf(const CXXMemberCallExpr *Read, const ApiModel &Api, ASTContext &Ctx) {
  PositionSource S;
  S.Read = Read;
  S.Tensor = Api.elementRead(Read)->getImplicitObjectArgument();
  S.Body = functionBody(enclosingFunction(Read, Ctx));
  S.Local = localInitialisedBy(Read, Ctx);
  if (S.Local && S.Body) {
    for (const DeclRefExpr *U : usesOf(S.Local, S.Body))
      S.Uses.insert(U);
    for (const DynTypedNode &P : Ctx.getParents(*S.Local))
      S.Decl = P.get<DeclStmt>();
  } else {
    S.Local = nullptr;
    S.Uses.insert(Read);
  }
  return S;
}

/// The receiver as a one-element long tensor.
std::string deviceIndex(const PositionSource &S, const ApiModel &Api, ASTContext &Ctx) {
  const Expr *Receiver = S.Tensor;
  std::string Text = sourceText(Receiver, Ctx) + ".reshape({1})";
  if (!isProvablyLong(Receiver, S.Body, Api))
    Text += ".to(" + Api.spellConstant(Receiver, "kLong") + ")";
  return Text;
}

/// The source text of `Outer` with the inline read replaced by the device index (or as
/// written, for the local form, whose name now holds the tensor).
std::string positionText(const Expr *Outer, const PositionSource &S, const std::string &Index, ASTContext &Ctx) {
  std::string Text = sourceText(Outer, Ctx);
  if (S.Local)
    return Text;
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned OuterBegin = SM.getFileOffset(SM.getExpansionLoc(Outer->getBeginLoc()));
  auto ReadRange = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(S.Read->getSourceRange()), Ctx);
  if (!ReadRange)
    return Text;
  unsigned B = SM.getFileOffset(ReadRange->getBegin()) - OuterBegin;
  unsigned E = SM.getFileOffset(ReadRange->getEnd()) - OuterBegin;
  if (E > Text.size() || B > E)
    return Text;
  return Text.substr(0, B) + Index + Text.substr(E);
}

bool carries(const Expr *E, const PositionSource &S) {
  for (const Expr *U : S.Uses)
    if (E->getSourceRange().fullyContains(U->getSourceRange()))
      return true;
  return false;
}

/// The text of a step's tail: from the end of its base to its end (`[b]`, `.select(1, 2)`).
std::string tailText(const IndexStep &Step, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Whole = sourceText(Step.Call, Ctx);
  std::string Base = sourceText(Step.Base, Ctx);
  unsigned WholeBegin = SM.getFileOffset(SM.getExpansionLoc(Step.Call->getBeginLoc()));
  unsigned BaseBegin = SM.getFileOffset(SM.getExpansionLoc(Step.Base->getBeginLoc()));
  unsigned Skip = BaseBegin - WholeBegin + Base.size();
  return Skip <= Whole.size() ? Whole.substr(Skip) : std::string();
}

/// An index list made device-side: its entries' texts and the dimension the advanced position
/// occupies in the result (to squeeze it again).
struct DeviceIndexList {
  std::vector<std::string> Entries;
  int64_t PositionDim = 0;
};

llvm::Expected<DeviceIndexList> deviceIndexList(const IndexStep &Step, const PositionSource &S,
                                                const std::string &Index, const ApiModel &Api, ASTContext &Ctx) {
  DeviceIndexList L;
  if (Step.K == IndexStep::Select) {
    Expr::EvalResult Dim;
    if (!Step.Dim->EvaluateAsInt(Dim, Ctx) || Dim.Val.getInt().isNegative())
      return refuse("the dimension of select() is not a non-negative constant");
    const int64_t D = Dim.Val.getInt().getExtValue();
    for (int64_t I = 0; I < D; ++I)
      L.Entries.push_back(Api.spellConstant(Step.Base, "indexing::Slice") + "()");
    L.Entries.push_back(positionText(Step.Positions[0], S, Index, Ctx));
    L.PositionDim = D;
    return L;
  }
  // After LibTorch applies the integers (views), the advanced positions stand among the kept
  // dimensions: adjacent ones share one result dimension at the place of the first, separated
  // ones move it to the front (NumPy's rule, which at::index follows).
  auto isSlice = [](const Expr *P) {
    const auto *RD = P->getType()->getAsCXXRecordDecl();
    return RD && RD->getName() == "Slice";
  };
  // A value that bounds a Slice sizes the result: that is a data-dependent size (its finding
  // carries the manual recipe), not a position this rule could move to the device.
  for (const Expr *P : Step.Positions)
    if (carries(P, S) && isSlice(P))
      return refuse("'" + sourceText(P, Ctx) + "' at line " + lineOf(P, Ctx) +
                    " makes the result's size depend on the value (pad to a static bound and mask instead)");
  std::vector<bool> KeptIsPosition;
  for (const Expr *P : Step.Positions) {
    const bool Carried = carries(P, S);
    QualType T = P->getType();
    const bool IsSlice = isSlice(P);
    if (Carried) {
      KeptIsPosition.push_back(true);
    } else if (IsSlice) {
      KeptIsPosition.push_back(false);
    } else if (!T->isIntegerType() || T->isBooleanType()) {
      return refuse("the index list also holds '" + sourceText(P, Ctx) +
                    "', which is not an integer or a Slice");
    }
    L.Entries.push_back(positionText(P, S, Index, Ctx));
  }
  int64_t First = -1, Last = -1, Count = 0;
  for (size_t I = 0; I < KeptIsPosition.size(); ++I)
    if (KeptIsPosition[I]) {
      First = First < 0 ? int64_t(I) : First;
      Last = int64_t(I);
      ++Count;
    }
  L.PositionDim = Last - First + 1 == Count ? First : 0;
  return L;
}

std::string joinList(const std::vector<std::string> &Entries) {
  std::string Out = "{";
  for (size_t I = 0; I < Entries.size(); ++I)
    Out += (I ? ", " : "") + Entries[I];
  return Out + "}";
}

/// The assignment `chain = v` whose left side is `E`, or null.
const CXXOperatorCallExpr *assignmentTo(const Expr *E, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 6; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    if (const auto *OC = N.get<CXXOperatorCallExpr>())
      return OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && stripAll(OC->getArg(0)) == E ? OC : nullptr;
    const auto *P = N.get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P)))
      return nullptr;
  }
  return nullptr;
}

/// Whether a value written through a position at dimension `Dim` of the indexed shape still
/// broadcasts: always at the front, and for host scalars and single elements anywhere.
bool valueBroadcasts(const Expr *Value, int64_t Dim, const Stmt *Body, const ApiModel &Api) {
  return Dim == 0 || !Api.isTensorExpr(Value) || isProvablySingleElement(Value, Body, Api);
}

/// The outermost step of the chain `Step` belongs to (`t[b][n][i]` for the step `t[b]`).
std::vector<IndexStep> chainFrom(const IndexStep &Step, const ApiModel &Api, ASTContext &Ctx) {
  std::vector<IndexStep> Chain{Step};
  for (;;) {
    DynTypedNode N = DynTypedNode::create(*Chain.back().Call);
    std::optional<IndexStep> Next;
    for (int Depth = 0; Depth < 6 && !Next; ++Depth) {
      auto Parents = Ctx.getParents(N);
      if (Parents.empty())
        break;
      N = Parents[0];
      const auto *P = N.get<Expr>();
      if (!P)
        break;
      if (auto S = asIndexStep(P, Api); S && stripAll(S->Base) == Chain.back().Call && S->K != IndexStep::IndexPut)
        Next = S;
      else if (!(isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
                 isa<ExprWithCleanups>(P) || isa<CXXConstructExpr>(P)))
        break;
    }
    if (!Next)
      return Chain;
    Chain.push_back(*Next);
  }
}

/// The innermost step of a chain ending at `Outer` (`t[b]` for `t[b][n][i]`), all steps in order.
std::vector<IndexStep> stepsOf(const Expr *Outer, const ApiModel &Api) {
  std::vector<IndexStep> Steps;
  for (auto S = asIndexStep(Outer, Api); S && S->K != IndexStep::IndexPut; S = asIndexStep(S->Base, Api))
    Steps.insert(Steps.begin(), *S);
  return Steps;
}

/// The rewritten text of a read chain: each step with a host position becomes a device index.
llvm::Expected<std::string> readChainText(const std::vector<IndexStep> &Steps, const PositionSource &S,
                                          const std::string &Index, const ApiModel &Api, ASTContext &Ctx) {
  std::string Text = sourceText(Steps.front().Base, Ctx);
  for (const IndexStep &Step : Steps) {
    bool Carried = false;
    for (const Expr *P : Step.Positions)
      Carried |= carries(P, S);
    if (!Carried) {
      Text += tailText(Step, Ctx);
      continue;
    }
    auto L = deviceIndexList(Step, S, Index, Api, Ctx);
    if (!L)
      return L.takeError();
    Text += ".index(" + joinList(L->Entries) + ").squeeze(" + std::to_string(L->PositionDim) + ")";
  }
  return Text;
}

/// One replacement; `Replaced` is null when the text stays as written (an index_put_ whose
/// local position now names the tensor).
struct ChainEdit {
  const Expr *Replaced;
  std::string Text;
};

/// The edit for the chain that contains the position `Use`.
llvm::Expected<ChainEdit> chainEdit(const IndexStep &Step, const PositionSource &S, const std::string &Index,
                                    const ApiModel &Api, ASTContext &Ctx) {
  if (Step.K == IndexStep::IndexPut) {
    auto L = deviceIndexList(Step, S, Index, Api, Ctx);
    if (!L)
      return L.takeError();
    if (!valueBroadcasts(Step.Value, L->PositionDim, S.Body, Api))
      return refuse("the value '" + sourceText(Step.Value, Ctx) + "' would no longer broadcast to the indexed "
                    "shape, whose position dimension is not the first");
    if (S.Local)
      return ChainEdit{nullptr, ""};
    return ChainEdit{Step.Call, positionText(Step.Call, S, Index, Ctx)};
  }
  std::vector<IndexStep> Chain = chainFrom(Step, Api, Ctx);
  const IndexStep &Outer = Chain.back();
  std::vector<IndexStep> Steps = stepsOf(Outer.Call, Api);
  if (const CXXOperatorCallExpr *Assign = assignmentTo(Outer.Call, Ctx)) {
    const Expr *Value = Assign->getArg(1);
    std::vector<IndexStep> Prefix(Steps.begin(), Steps.end() - 1);
    bool PrefixCarried = false;
    for (const IndexStep &P : Prefix)
      for (const Expr *Pos : P.Positions)
        PrefixCarried |= carries(Pos, S);
    if (!PrefixCarried) {
      // Only the last step reads a host position: the prefix stays a view and the last step
      // becomes an index_put_ through it.
      auto L = deviceIndexList(Steps.back(), S, Index, Api, Ctx);
      if (!L)
        return L.takeError();
      if (!valueBroadcasts(Value, L->PositionDim, S.Body, Api))
        return refuse("the value '" + sourceText(Value, Ctx) + "' would no longer broadcast to the indexed "
                      "shape, whose position dimension is not the first");
      std::string Base = sourceText(Steps.back().Base, Ctx);
      return ChainEdit{Assign, Base + ".index_put_(" + joinList(L->Entries) + ", " + sourceText(Value, Ctx) + ")"};
    }
    // An earlier step reads a host position: one index_put_ over the whole chain of [] steps.
    std::vector<std::string> Entries;
    for (const IndexStep &P : Steps) {
      if (P.K != IndexStep::Subscript)
        return refuse("the assignment goes through '" + sourceText(P.Call, Ctx) +
                      "', which would index a copy once its position is a tensor");
      Entries.push_back(positionText(P.Positions[0], S, Index, Ctx));
    }
    return ChainEdit{Assign, sourceText(Steps.front().Base, Ctx) + ".index_put_(" + joinList(Entries) + ", " +
                                 sourceText(Value, Ctx) + ")"};
  }
  auto Text = readChainText(Steps, S, Index, Api, Ctx);
  if (!Text)
    return Text.takeError();
  return ChainEdit{Outer.Call, *Text};
}

llvm::Expected<llvm::SmallVector<Edit, 1>> positionEdits(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  const auto *Read = R.Nodes.getNodeAs<CXXMemberCallExpr>("read");
  PositionSource S = sourceOf(Read, Api, Ctx);
  if (!S.Body)
    return refuse("the read is not inside a function body");
  if (!Read->getType()->isIntegerType() || Read->getType()->isBooleanType())
    return refuse("'" + sourceText(Read, Ctx) + "' is not read as an integer");
  if (S.Local) {
    if (!S.Decl || !S.Decl->isSingleDecl())
      return refuse("'" + S.Local->getNameAsString() + "' is declared together with other variables");
    if (isReassigned(S.Local, S.Body))
      return refuse("'" + S.Local->getNameAsString() + "' is assigned again, so it must stay a host value");
    QualType T = S.Local->getType();
    if (!T->isIntegerType() || T->isBooleanType())
      return refuse("'" + S.Local->getNameAsString() + "' is not an integer");
    if (T->isUnsignedIntegerType() && !Api.callHasTag(stripAll(S.Tensor), "long_output"))
      return refuse("'" + S.Local->getNameAsString() + "' is unsigned, which a negative position would wrap "
                    "differently from a long tensor");
  }
  if (auto Why = findSideEffect(S.Tensor, Api, false, Evaluation::AsBefore))
    return refuse("the read value " + *Why);
  // item<int64_t>() of a floating tensor raises c10::Error on NaN, an infinity or a value beyond
  // int64; .to(kLong) wraps it and the index then raises c10::IndexError, a different error.
  if (!isProvablyIntegral(S.Tensor, S.Body, Api))
    return refuse("'" + sourceText(S.Tensor, Ctx) +
                  "' may be a floating tensor: item() raises on NaN, infinity and values beyond int64, "
                  "where a long index tensor would hold a wrapped position (read the position from an "
                  "index or count tensor: argmax(), nonzero(), a sum of a mask)");
  const std::string Index = deviceIndex(S, Api, Ctx);
  llvm::SmallVector<Edit, 1> Edits;
  std::set<const Expr *> Done;
  std::vector<const Expr *> Ordered(S.Uses.begin(), S.Uses.end());
  llvm::sort(Ordered, [](const Expr *A, const Expr *B) { return A->getBeginLoc() < B->getBeginLoc(); });
  for (const Expr *Use : Ordered) {
    auto Step = stepOfPosition(Use, S.Uses, Api, Ctx);
    if (!Step)
      return refuse("'" + sourceText(S.Local ? Use : Read, Ctx) + "' is also used at line " + lineOf(Use, Ctx) +
                    ", where it must stay a host value");
    auto CE = chainEdit(Step->first, S, Index, Api, Ctx);
    if (!CE)
      return CE.takeError();
    if (!CE->Replaced || !Done.insert(CE->Replaced).second)
      continue;
    auto Range = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(CE->Replaced->getSourceRange()), Ctx);
    if (!Range)
      return refuse("the position is used inside a macro");
    Edit E;
    E.Range = *Range;
    E.Replacement = CE->Text;
    Edits.push_back(std::move(E));
  }
  // Two chains one inside the other (`t[t2[i]]`) cannot both be replaced.
  for (size_t I = 0; I < Edits.size(); ++I)
    for (size_t J = I + 1; J < Edits.size(); ++J)
      if (Edits[I].Range.getAsRange().fullyContains(Edits[J].Range.getAsRange()) ||
          Edits[J].Range.getAsRange().fullyContains(Edits[I].Range.getAsRange()))
        return refuse("the position is used inside another position");
  if (S.Local) {
    CharSourceRange DeclRange =
        CharSourceRange::getTokenRange(S.Decl->getBeginLoc(), S.Local->getInit()->getEndLoc());
    auto Range = tooling::getFileRangeForEdit(DeclRange, Ctx);
    if (!Range)
      return refuse("'" + S.Local->getNameAsString() + "' is declared inside a macro");
    Edit E;
    E.Range = *Range;
    E.Replacement = "auto " + S.Local->getNameAsString() + " = " + Index;
    Edits.push_back(std::move(E));
  }
  return Edits;
}

} // namespace

namespace matchers {
/// The integer read carries its value, directly or through the local it initialises, into at
/// least one element position of a tensor indexing call.
AST_MATCHER_P(CXXMemberCallExpr, flowsIntoPosition, const ApiModel *, Api) {
  ASTContext &Ctx = Finder->getASTContext();
  PositionSource S = sourceOf(&Node, *Api, Ctx);
  for (const Expr *Use : S.Uses)
    if (stepOfPosition(Use, S.Uses, *Api, Ctx))
      return true;
  return false;
}
} // namespace matchers

NamedRewriteRule makeHostPositionToDeviceIndexRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = cxxMemberCallExpr(isUserCode(), isHostScalarRead(A), flowsIntoPosition(A)).bind("read");
  EditGenerator Edits = [A](const MatchResult &R) { return positionEdits(R, *A); };
  return {"host-position-to-device-index",
          makeRule(Matcher, Edits,
                   cat("the position stays a one-element long tensor on the device, so the element is picked "
                       "without reading the index on the host"))};
}

} // namespace graphify::rewriter
