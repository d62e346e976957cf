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
#include <clang/AST/ParentMapContext.h>
#include <llvm/ADT/STLExtras.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace graphify::rewriter {

bool isFullReduction(const Expr *E, const ApiModel &Api) {
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

/// `std::get<I>(t)`: a reference into the tuple `t`, which the call itself does not change.
static const Expr *tupleOfElement(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(E ? stripAll(E) : nullptr);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() || FD->getName() != "get" || C->getNumArgs() != 1)
    return nullptr;
  return C->getArg(0);
}

/// Whether `E` names `V`, or an element of the tuple `V` (`std::get<1>(V) = x` writes V).
static bool namesVar(const Expr *E, const VarDecl *V) {
  if (const Expr *Tuple = tupleOfElement(E))
    return namesVar(Tuple, V);
  return V && referencedVar(E) == V;
}

/// Whether `S` itself, not counting its children, may write `V`.
static bool writesDirectly(const Stmt *S, const VarDecl *V) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && namesVar(BO->getLHS(), V))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && namesVar(UO->getSubExpr(), V))
    return true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && (OC->isAssignmentOp() || OC->getOperator() == OO_Amp) && OC->getNumArgs() >= 1 &&
      namesVar(OC->getArg(0), V))
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S); C && !tupleOfElement(C)) {
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
  return false;
}

static bool reassignedIn(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (writesDirectly(S, V))
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

static bool singleElement(const Expr *E, const Stmt *Body, const ApiModel &Api, int Depth) {
  E = stripAll(E);
  if (!E || Depth > 16)
    return false;
  if (isFullReduction(E, Api))
    return true;
  if (const VarDecl *V = referencedVar(E)) {
    const Expr *Init = stableInit(V, Body);
    return Init && singleElement(Init, Body, Api, Depth + 1);
  }
  // Element-wise math of one-element tensors and host numbers (`m + 1`): the broadcast shape of
  // one-element operands holds one element.
  if (!isa<CallExpr>(E) || !Api.callHasTag(E, "elementwise"))
    return false;
  bool AnyTensor = false;
  for (const Expr *Op : callOperands(E)) {
    if (!Api.isTensorExpr(Op))
      continue;
    if (!singleElement(Op, Body, Api, Depth + 1))
      return false;
    AnyTensor = true;
  }
  return AnyTensor;
}

bool isProvablySingleElement(const Expr *E, const Stmt *Body, const ApiModel &Api) {
  return singleElement(E, Body, Api, 0);
}

/// The call whose (values, indices) result `E` takes the second element of: a structured binding
/// (`auto [vals, idx] = x.sort();`) or `std::get<1>(x.max(1))`. Null for anything else.
static const Expr *indicesOf(const Expr *E, const ApiModel &Api) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl());
    const auto *DD = BD ? dyn_cast_or_null<DecompositionDecl>(BD->getDecomposedDecl()) : nullptr;
    if (!DD || !DD->getInit() || DD->bindings().size() != 2 || DD->bindings()[1] != BD)
      return nullptr;
    return stripAll(DD->getInit());
  }
  const auto *Get = dyn_cast<CallExpr>(E);
  const auto *FD = Get ? Get->getDirectCallee() : nullptr;
  const TemplateArgumentList *TA = FD ? FD->getTemplateSpecializationArgs() : nullptr;
  if (!TA || TA->size() == 0 || TA->get(0).getKind() != TemplateArgument::Integral ||
      TA->get(0).getAsIntegral() != 1 || !Api.callHasTag(E, "tuple_element") || callArgs(E).size() != 1)
    return nullptr;
  return stripAll(callArgs(E).front());
}

/// Whether the tuple `Pair` computes is (values, int64 positions): a sort, topk or max along a
/// dimension, or a local given one once (`auto r = torch::topk(x, k); std::get<1>(r)`).
static bool isValuesAndIndices(const Expr *Pair, const Stmt *Body, const ApiModel &Api) {
  Pair = stripAll(Pair);
  if (const VarDecl *Tuple = referencedVar(Pair))
    Pair = stableInit(Tuple, Body) ? stripAll(stableInit(Tuple, Body)) : nullptr;
  return Pair && Api.callHasTag(Pair, "indices_second");
}

namespace {
/// A value a local is given: `Value` itself, or (Element >= 0) that element of the tuple it is.
struct GivenValue {
  const Expr *Value;
  int Element;
};
} // namespace

/// The place of `V` among the references a `std::tie(a, b)` call binds, or -1.
static int tiedPlace(const Expr *Tie, const VarDecl *V, const ApiModel &Api) {
  const auto *C = dyn_cast_or_null<CallExpr>(Tie ? stripAll(Tie) : nullptr);
  if (!C || !Api.callHasTag(C, "tuple_binder"))
    return -1;
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    if (referencedVar(C->getArg(I)) == V)
      return static_cast<int>(I);
  return -1;
}

/// Each value `V` is given inside `S` — `V = e`, and `std::tie(..., V, ...) = e` as the element
/// of e at V's place — or false when something else may write it (a compound assignment, a call
/// taking it by non-const reference, a capture by reference). Wherever the writes stand, `V`
/// only ever holds one of these values or its initialiser.
static bool givenValues(const Stmt *S, const VarDecl *V, const ApiModel &Api, llvm::SmallVectorImpl<GivenValue> &Out) {
  if (!S)
    return true;
  if (auto Assign = asAssignment(S)) {
    int Place = referencedVar(Assign->first) == V ? -1 : tiedPlace(Assign->first, V, Api);
    if (Place >= 0 || referencedVar(Assign->first) == V) {
      Out.push_back({Assign->second, Place});
      return givenValues(Assign->second, V, Api, Out);
    }
  }
  if (writesDirectly(S, V))
    return false;
  for (const Stmt *C : S->children())
    if (!givenValues(C, V, Api, Out))
      return false;
  return true;
}

/// Every value the local `V` may hold in `Body`, or false when that is not known (a parameter,
/// a write of another kind). A default-constructed tensor holds no value: reading it raises.
static bool everyValueOf(const VarDecl *V, const Stmt *Body, const ApiModel &Api, llvm::SmallVectorImpl<GivenValue> &Out) {
  if (isa<ParmVarDecl>(V) || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return false;
  const auto *Default = dyn_cast_or_null<CXXConstructExpr>(V->getInit());
  if (V->getInit() && !(Default && Default->getNumArgs() == 0))
    Out.push_back({V->getInit(), -1});
  return givenValues(Body, V, Api, Out) && !Out.empty();
}

/// Whether `E` holds integers (`LongOnly`: int64 positions) whatever its inputs' values.
static bool integral(const Expr *E, const Stmt *Body, const ApiModel &Api, int Depth, bool LongOnly) {
  E = stripAll(E);
  if (!E || Depth > 16 || !Api.isTensorExpr(E))
    return false;
  // A local holds integers when every value it is given does, wherever it is given: no in-place
  // call changes a tensor's dtype (`src.unsqueeze_(0)` keeps it; `idx.add_(0.5)` raises).
  if (const VarDecl *V = referencedVar(E)) {
    llvm::SmallVector<GivenValue, 2> Values;
    return everyValueOf(V, Body, Api, Values) && llvm::all_of(Values, [&](const GivenValue &G) {
             return G.Element < 0 ? integral(G.Value, Body, Api, Depth + 1, LongOnly)
                                  : G.Element == 1 && isValuesAndIndices(G.Value, Body, Api);
           });
  }
  // The positions a sort, topk or max along a dimension returns beside the values are int64.
  if (const Expr *Pair = indicesOf(E, Api); Pair && isValuesAndIndices(Pair, Body, Api))
    return true;
  if (Api.callHasTag(E, "long_output") || (!LongOnly && Api.callHasTag(E, "bool_output")))
    return true;
  // Integer arithmetic of integers (`torch::div(order, k, "floor")`, `row * width + col`): every
  // tensor operand integral, every host number an integer, a string (the rounding mode) aside.
  if (Api.callHasTag(E, "integer_closed") && !Api.callHasTag(E, "floating_output")) {
    auto Operands = callOperands(E);
    return !Operands.empty() && llvm::all_of(Operands, [&](const Expr *Op) {
      const Expr *Inner = stripAll(Op);
      if (!Inner)
        return false;
      if (Api.isTensorExpr(Inner))
        return integral(Inner, Body, Api, Depth + 1, LongOnly);
      QualType T = Inner->getType();
      return isa<StringLiteral>(Inner->IgnoreParenImpCasts()) || (T->isIntegerType() && !T->isBooleanType());
    });
  }
  // A sum of booleans counts them (a long); max, min and any reduction of integers stay integers;
  // so do some of self's elements (`order[0]`, `idx.index_select(0, i)`: keeps_dtype).
  const Expr *Self = callObject(E);
  if (!Self && isa<CallExpr>(E) && !isa<CXXOperatorCallExpr>(E) && !callArgs(E).empty())
    Self = callArgs(E).front();
  if (!Self)
    return false;
  if (Api.callHasTag(E, "same_elements") || Api.callHasTag(E, "keeps_dtype") ||
      (Api.callHasTag(E, "shares_storage") && !Api.callHasTag(E, "device_transfer")))
    return integral(Self, Body, Api, Depth + 1, LongOnly);
  return isFullReduction(E, Api) && integral(Self, Body, Api, Depth + 1, LongOnly);
}

bool isProvablyIntegral(const Expr *E, const Stmt *Body, const ApiModel &Api) {
  return integral(E, Body, Api, 0, /*LongOnly=*/false);
}

bool isProvablyLong(const Expr *E, const Stmt *Body, const ApiModel &Api) {
  return integral(E, Body, Api, 0, /*LongOnly=*/true);
}

namespace {
/// A symbolic shape and dtype of a tensor expression.
struct Sketch {
  /// Dynamic: the shape depends on tensor values (a selection by a mask, nonzero, unique).
  enum ShapeKind { Unknown, Single, Vars, Dynamic } Shape = Unknown;
  std::set<const ValueDecl *> Of; // broadcast of these variables' and fields' shapes (Shape == Vars)
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
  if (A.Shape == Sketch::Dynamic || B.Shape == Sketch::Dynamic)
    S.Shape = Sketch::Dynamic; // a broadcast with a value-dependent shape depends on values too
  else if (A.Shape == Sketch::Unknown || B.Shape == Sketch::Unknown)
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

/// `e` of the statement `V = e;`, or none.
static const Expr *assignedValue(const Stmt *S, const VarDecl *V) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  E = E ? E->IgnoreImplicit() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign && referencedVar(BO->getLHS()) == V)
    return BO->getRHS();
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && referencedVar(OC->getArg(0)) == V)
    return OC->getArg(1);
  return nullptr;
}

/// Every `V = e;` statement inside `S` (branches of ifs, blocks), or false when `S` may change
/// `V` another way (a loop, a compound assignment, a call taking it by reference).
static bool collectAssignedValues(const Stmt *S, const VarDecl *V, llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!S || !reassignedIn(S, V))
    return true;
  if (const Expr *E = assignedValue(S, V)) {
    if (reassignedIn(E, V))
      return false;
    Out.push_back(E);
    return true;
  }
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) || isa<Expr>(S))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !reassignedIn(If->getCond(), V) && collectAssignedValues(If->getThen(), V, Out) &&
           collectAssignedValues(If->getElse(), V, Out);
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      if (!collectAssignedValues(C, V, Out))
        return false;
    return true;
  }
  return false;
}

/// The values `V` may hold at `At`: the nearest `V = e;` or initialiser in front of it in the
/// blocks that enclose it, or, after an if that assigns `V` in its branches, each value assigned
/// there and the value before the if. False when unknown: something in between may change `V`
/// another way, or a loop encloses `At` (a later iteration's value could reach it).
static bool reachingValues(const VarDecl *V, const Stmt *At, const Stmt *Body, ASTContext &Ctx,
                           llvm::SmallVectorImpl<const Expr *> &Out, int Depth = 0) {
  const Stmt *Child = At;
  while (Child && Child != Body && Depth < 16) {
    const Stmt *Parent = nullptr;
    for (const DynTypedNode &P : Ctx.getParents(*Child))
      if ((Parent = P.get<Stmt>()))
        break;
    if (!Parent || isa<ForStmt>(Parent) || isa<WhileStmt>(Parent) || isa<DoStmt>(Parent) ||
        isa<CXXForRangeStmt>(Parent) || isa<LambdaExpr>(Parent))
      return false;
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      const Stmt *Found = nullptr;
      for (const Stmt *S : CS->body()) {
        if (S == Child)
          break;
        if (reassignedIn(S, V) || (isa<DeclStmt>(S) && llvm::is_contained(cast<DeclStmt>(S)->decls(), V)))
          Found = S;
      }
      if (Found) {
        if (const auto *DS = dyn_cast<DeclStmt>(Found)) {
          if (!DS->isSingleDecl() || !V->getInit())
            return false;
          Out.push_back(V->getInit());
          return true;
        }
        if (const Expr *E = assignedValue(Found, V)) {
          Out.push_back(E);
          return true;
        }
        return collectAssignedValues(Found, V, Out) && reachingValues(V, Found, Body, Ctx, Out, Depth + 1);
      }
    }
    Child = Parent;
  }
  return false;
}

static Sketch sketchOf(const Expr *E, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx, int Depth = 0);

/// The value of `V` at `At`: a local assigned once is what its initialiser computes, a variable
/// assigned more than once what the assignments that may reach `At` compute when they agree;
/// anything else (a parameter, a value that is not known) is its own root.
static Sketch sketchOfVar(const VarDecl *V, const Stmt *At, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx,
                          int Depth) {
  if (const Expr *Init = stableInit(V, Body); Init && Api.isTensorExpr(Init))
    return sketchOf(Init, Body, Api, Ctx, Depth + 1);
  // Every value that may reach `At` must have the same sketch (their broadcast is V's shape).
  llvm::SmallVector<const Expr *, 4> Values;
  if (V->hasLocalStorage() && Depth < 16 && reachingValues(V, At, Body, Ctx, Values) && !Values.empty()) {
    std::optional<Sketch> Common;
    for (const Expr *Value : Values) {
      Sketch One = Api.isTensorExpr(Value) ? sketchOf(Value, Body, Api, Ctx, Depth + 1) : Sketch();
      if (One.Shape == Sketch::Dynamic)
        return One; // one of the values V may hold is a selection
      if (One.Shape == Sketch::Unknown || (Common && (One.Shape != Common->Shape || One.Of != Common->Of))) {
        Common.reset();
        break;
      }
      Common = One;
    }
    if (Common) {
      Common->Dtype = Sketch::AnyDtype;
      return *Common;
    }
  }
  Sketch S;
  S.Shape = Sketch::Vars;
  S.Of.insert(V);
  return S;
}

/// A selection: a call whose output shape the packs say depends on values (nonzero,
/// masked_select, unique), indexing by a boolean mask (tag bool_mask_index, an index whose
/// sketch is boolean), or a join (cat, stack) of such a selection.
static bool hasValueDependentShape(const Expr *E, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx, int Depth) {
  if (Api.callHasTag(E, "dynamic_output_shape"))
    return true;
  auto AnyOf = [&](llvm::ArrayRef<const Expr *> Parts, bool Mask) {
    for (const Expr *P : Parts) {
      llvm::SmallVector<const Expr *, 4> Elements = bracedListElements(P);
      if (Elements.empty())
        Elements.push_back(P);
      for (const Expr *El : Elements) {
        if (!Api.isTensorExpr(El))
          continue;
        Sketch One = sketchOf(El, Body, Api, Ctx, Depth + 1);
        if (Mask ? One.Dtype == Sketch::Bool : One.Shape == Sketch::Dynamic)
          return true;
      }
    }
    return false;
  };
  if (Api.callHasTag(E, "bool_mask_index"))
    return AnyOf(callArgs(E), /*Mask=*/true);
  if (Api.callHasTag(E, "joins_inputs"))
    return AnyOf(callArgs(E), /*Mask=*/false);
  return false;
}

static Sketch sketchOf(const Expr *E, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx, int Depth) {
  Sketch S;
  E = stripAll(E);
  if (!E || Depth > 16 || !Api.isTensorExpr(E))
    return S;
  if (const VarDecl *V = referencedVar(E))
    return sketchOfVar(V, E, Body, Api, Ctx, Depth);
  // A field of the object (`w`, `this->w`) is a root of its own, as a parameter is.
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && isa<FieldDecl>(ME->getMemberDecl()) && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
    S.Shape = Sketch::Vars;
    S.Of.insert(ME->getMemberDecl());
    return S;
  }
  if (hasValueDependentShape(E, Body, Api, Ctx, Depth)) {
    S.Shape = Sketch::Dynamic;
    S.Dtype = Api.callHasTag(E, "bool_output") ? Sketch::Bool : Sketch::AnyDtype;
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
      Sketch Part = sketchOf(A, Body, Api, Ctx, Depth + 1);
      AnyBool |= Part.Dtype == Sketch::Bool;
      Acc = First ? Part : combine(Acc, Part);
      First = false;
    }
    if (First)
      return S;
    Acc.Dtype = isComparisonOperator(Name) ? Sketch::Bool : (AnyBool ? Sketch::AnyDtype : Sketch::Number);
    return Acc;
  }
  // Other element-wise calls (relu, clamp, masked_fill, where): the broadcast of their tensor
  // operands, as the operators above.
  if (Api.callHasTag(E, "elementwise") && !isa<CXXOperatorCallExpr>(E)) {
    Sketch Acc;
    bool First = true;
    for (const Expr *A : callOperands(E)) {
      if (!Api.isTensorExpr(A))
        continue;
      Sketch Part = sketchOf(A, Body, Api, Ctx, Depth + 1);
      Acc = First ? Part : combine(Acc, Part);
      First = false;
    }
    if (First)
      return S;
    Acc.Dtype = Api.callHasTag(E, "bool_output") ? Sketch::Bool : Sketch::AnyDtype;
    return Acc;
  }
  if (Api.callHasTag(E, "bool_output"))
    S.Dtype = Sketch::Bool;
  return S;
}

static std::string describeVars(const std::set<const ValueDecl *> &Of) {
  std::vector<std::string> Names;
  for (const ValueDecl *V : Of)
    Names.push_back("'" + V->getNameAsString() + "'");
  llvm::sort(Names);
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " and " : ", ") + Names[I];
  return Out;
}

static std::string describeShape(const Sketch &S) {
  if (S.Shape == Sketch::Single)
    return "has a single element";
  if (S.Shape == Sketch::Dynamic)
    return "has a shape that depends on tensor values (a selection)";
  return "has the shape of " + describeVars(S.Of);
}

static std::optional<std::string> sketchesConflict(const Sketch &SA, const std::string &TextA, const Sketch &SB,
                                                   const std::string &TextB);

/// "'a' and 'b' are different tensors" when each arm is a variable, else what each is computed from.
static std::string describeArmSources(const Sketch &SA, const std::string &TextA, const Sketch &SB,
                                      const std::string &TextB) {
  auto IsVariable = [](const Sketch &S, const std::string &Text) {
    return S.Of.size() == 1 && (*S.Of.begin())->getNameAsString() == Text;
  };
  if (IsVariable(SA, TextA) && IsVariable(SB, TextB))
    return "'" + TextA + "' and '" + TextB + "' are different tensors";
  if (IsVariable(SB, TextB))
    return "'" + TextA + "' is computed from " + describeVars(SA.Of) + ", and '" + TextB + "' only from itself";
  if (IsVariable(SA, TextA))
    return "'" + TextA + "' is a tensor of its own, and '" + TextB + "' is computed from " + describeVars(SB.Of);
  return "'" + TextA + "' is computed from " + describeVars(SA.Of) + " and '" + TextB + "' from " + describeVars(SB.Of);
}

std::optional<std::string> armsIncompatible(const Expr *A, const Expr *B, const ApiModel &Api,
                                            ASTContext &Ctx) {
  for (const Expr *Arm : {A, B})
    if (!Api.isTensorExpr(Arm))
      return "'" + sourceText(Arm, Ctx) + "' is not a tensor";
  const Stmt *Body = functionBody(enclosingFunction(A, Ctx));
  return sketchesConflict(sketchOf(A, Body, Api, Ctx), sourceText(A, Ctx), sketchOf(B, Body, Api, Ctx),
                          sourceText(B, Ctx));
}

std::optional<std::string> armAndValueBeforeIncompatible(const Expr *A, const VarDecl *V, const Stmt *At,
                                                         const ApiModel &Api, ASTContext &Ctx) {
  if (!Api.isTensorExpr(A))
    return "'" + sourceText(A, Ctx) + "' is not a tensor";
  const Stmt *Body = functionBody(enclosingFunction(A, Ctx));
  return sketchesConflict(sketchOf(A, Body, Api, Ctx), sourceText(A, Ctx), sketchOfVar(V, At, Body, Api, Ctx, 0),
                          V->getNameAsString());
}

std::optional<std::string> loopUpdateIncompatible(const Expr *A, const VarDecl *V, const Stmt *Loop,
                                                  const ApiModel &Api, ASTContext &Ctx) {
  if (!Api.isTensorExpr(A))
    return "'" + sourceText(A, Ctx) + "' is not a tensor";
  const Stmt *Body = functionBody(enclosingFunction(A, Ctx));
  const Sketch Before = sketchOfVar(V, Loop, Body, Api, Ctx, 0);
  Sketch Update = sketchOf(A, Body, Api, Ctx);
  // A recurrence reads V itself (`done = done | (tok == eos)`): in the first iteration V holds
  // its value from before the loop, and in later ones a value of the same shape when this check
  // holds (induction), so V stands for that value.
  if (Update.Shape == Sketch::Vars && Update.Of.count(V)) {
    const Sketch::DtypeKind Dtype = Update.Dtype;
    Update.Of.erase(V);
    Update = Update.Of.empty() ? Before : combine(Update, Before);
    Update.Dtype = Dtype;
  }
  return sketchesConflict(Update, sourceText(A, Ctx), Before, V->getNameAsString());
}

static std::optional<std::string> sketchesConflict(const Sketch &SA, const std::string &TextA, const Sketch &SB,
                                                   const std::string &TextB) {
  // A selection's length is whatever its mask counts: where() would broadcast it against the
  // other arm (or raise), where the original kept each as it is.
  if (SA.Shape == Sketch::Dynamic || SB.Shape == Sketch::Dynamic) {
    const bool First = SA.Shape == Sketch::Dynamic;
    return "'" + (First ? TextA : TextB) + "' " + describeShape(First ? SA : SB) + " and '" +
           (First ? TextB : TextA) + "' need not have it, so where() would broadcast one arm to the other's shape";
  }
  bool ShapesKnown = SA.Shape != Sketch::Unknown && SB.Shape != Sketch::Unknown;
  if (ShapesKnown && (SA.Shape == Sketch::Single) != (SB.Shape == Sketch::Single))
    return "'" + TextA + "' " + describeShape(SA) + " but '" + TextB + "' " +
           describeShape(SB) + ", so where() would broadcast one arm to the other's shape";
  // Arms computed element-wise from the same tensors have one shape and (but for the integer
  // promotions of `/` and floating literals) one dtype. Arms from different tensors may differ in
  // both, and where() would broadcast and promote them where the original returned either as it is.
  if (SA.Shape == Sketch::Vars && SB.Shape == Sketch::Vars && SA.Of != SB.Of)
    return describeArmSources(SA, TextA, SB, TextB) +
           ": their shapes and dtypes may differ, and where() would broadcast and promote one to the other";
  if ((SA.Dtype == Sketch::Bool && SB.Dtype == Sketch::Number) ||
      (SA.Dtype == Sketch::Number && SB.Dtype == Sketch::Bool))
    return "'" + TextA + "' and '" + TextB +
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
