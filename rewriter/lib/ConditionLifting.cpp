// LiftConditionToTensor. The invariant: for every input, the lifted tensor condition is true
// exactly when the original host condition is. Host reads (item<float>()) become the tensor they
// read, comparisons keep their operator (LibTorch's Tensor-Scalar comparison compares in the
// tensor's dtype, float32 for the models this targets), and logical connectives become
// logical_not/and/or. Anything whose exactness cannot be argued locally is refused with a reason.
#include "ConditionLifting.h"

#include "BranchObstacles.h"
#include "OptionalGuards.h"

#include "Compaction.h"
#include "Counting.h"
#include "ExprUtil.h"
#include "HostWork.h"
#include "Refusal.h"
#include "RuleSupport.h"
#include "Safety.h"
#include "SelectionSizeAdvice.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <cmath>
#include <utility>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// A lifted operand: tensor code, or a host value that may meet a tensor in a comparison.
struct Lifted {
  std::string Text;
  bool IsTensor = false;
  bool IsBool = false; // a boolean tensor (or a host bool)
  /// Where the lifted tensor lives, for a constant of the same device: a tensor variable whose
  /// `.options()` read no value and cannot throw (the variable a read's receiver is computed
  /// from, the lifted local), else empty; and the receiver of the first element read, which has
  /// the device too but is computed (and may throw, as `x.max()` of an empty tensor does).
  std::string DeviceVar = {};
  const Expr *ReadReceiver = nullptr;
};

class Lifter {
public:
  Lifter(const LiftScope &Scope, const ApiModel &Api, ASTContext &Ctx) : Scope(Scope), Api(Api), Ctx(Ctx) {}

  llvm::Expected<Lifted> lift(const Expr *E);
  std::vector<const VarDecl *> Locals;

private:
  const LiftScope &Scope;
  const ApiModel &Api;
  ASTContext &Ctx;
  const Expr *FlavorHint = nullptr;
  /// How many right operands of a `&&`/`||` between two tensor tests enclose the expression being
  /// lifted: the original evaluated it only on some runs, the lifted form on every run.
  int ConditionalDepth = 0;

  std::string text(const Expr *E) { return sourceText(E, Ctx); }
  llvm::Expected<Lifted> liftItem(const CXXMemberCallExpr *Call, const Expr *Whole);
  llvm::Expected<Lifted> liftHost(const Expr *E);
  llvm::Expected<Lifted> liftLocal(const VarDecl *V, const Expr *Use);
  /// Why `V` cannot become a tensor because of its use `U` (`Where`: " outside a condition").
  std::string hostUseReason(const VarDecl *V, const DeclRefExpr *U, const char *Where);
  llvm::Expected<Lifted> liftLogical(const BinaryOperator *BO);
  std::string deviceVariable(const Expr *Receiver);
  const Expr *computedHostOperand(const Expr *E) const;
};

bool isHostRead(const Expr *E, const ApiModel &Api) { return Api.elementRead(E) != nullptr; }

/// Whether `E` is (part of) the condition of an if, a loop or a `?:`, which a rewrite lifts.
bool inCondition(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = E;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(*Child);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Child;
    if (const auto *For = dyn_cast<ForStmt>(P))
      return For->getCond() == Child;
    if (const auto *While = dyn_cast<WhileStmt>(P))
      return While->getCond() == Child;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P); CO && CO->getCond() == Child)
      return true;
    if (!isa<Expr>(P))
      return false;
    Child = P;
  }
  return false;
}

} // namespace

std::string liftedReceiverText(const Expr *Receiver, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) {
  const std::string Text = sourceText(Receiver, Ctx);
  if (isProvablySingleElement(Receiver, Body, Api))
    return Text;
  return (isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr>(stripAll(Receiver)) ? Text : "(" + Text + ")") +
         ".reshape({})";
}

std::optional<std::string> integerDType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType())
    return std::nullopt;
  const uint64_t Bits = Ctx.getTypeSize(T);
  if (T->isSignedIntegerType())
    switch (Bits) {
    case 64: return std::string("kLong");
    case 32: return std::string("kInt");
    case 16: return std::string("kShort");
    case 8: return std::string("kChar");
    }
  if (T->isUnsignedIntegerType() && Bits == 8)
    return std::string("kByte");
  return std::nullopt;
}

std::string liftedReadText(const Expr *Read, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) {
  const Expr *Receiver = Api.elementRead(Read)->getImplicitObjectArgument();
  std::string Text = liftedReceiverText(Receiver, Body, Api, Ctx);
  const QualType T = stripAll(Read)->getType();
  if (!isProvablyLong(Receiver, Body, Api))
    if (auto DType = integerDType(T, Ctx))
      Text += ".to(" + Api.spellConstant(Receiver, *DType) + ")";
  return Text;
}

namespace {

bool isExactFloat32(const Expr *E, const ASTContext &Ctx) {
  E = stripAll(E);
  bool Negate = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)) {
    Negate = UO->getOpcode() == UO_Minus;
    E = stripAll(UO->getSubExpr());
  }
  (void)Negate;
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue().getActiveBits() <= 24;
  if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
    double V = FL->getValueAsApproximateDouble();
    return static_cast<double>(static_cast<float>(V)) == V;
  }
  if (isa<CXXBoolLiteralExpr>(E))
    return true;
  return false;
}

llvm::Expected<Lifted> Lifter::liftItem(const CXXMemberCallExpr *Call, const Expr *Whole) {
  const Expr *Receiver = Call->getImplicitObjectArgument();
  std::string Name = calleeName(Call);
  const QualType T = stripAll(Whole)->getType(); // the read's type, after any Scalar conversion
  // A read not proven to hold one element is lifted reshaped to 0-d, which throws where the read
  // would — but only where the original ran the read: a right operand of `&&`/`||` beside a
  // tensor test ran only when the left one decided so, and its lifted form always runs. A local
  // read before the statement (liftLocal) is reshaped where it is declared, where the read ran.
  if (ConditionalDepth > 0 && !isProvablySingleElement(Receiver, Scope.Body, Api))
    return refuse("cannot prove that '" + text(Receiver) + "' has a single element, and the original reads it "
                  "only when the test before it allows: the tensor form runs both tests, so '" + Name +
                  "' would throw where the original did not; reduce it to one element ('.any()', "
                  "'.all()') or test it in an if of its own");
  if (!FlavorHint)
    FlavorHint = Receiver;
  Lifted L;
  L.IsTensor = true;
  L.DeviceVar = deviceVariable(Receiver);
  L.ReadReceiver = Receiver;
  L.Text = liftedReceiverText(Receiver, Scope.Body, Api, Ctx);
  if (T->isBooleanType()) {
    L.IsBool = true;
    std::string R = calleeName(Receiver);
    bool ReceiverIsBool = R == "all" || R == "any" || Api.callHasTag(Receiver, "bool_output");
    if (!ReceiverIsBool)
      L.Text = "(" + L.Text + " != 0)";
    return L;
  }
  // An integer read of an index tensor (argmax, argsort, ...) compares as the long tensor does;
  // of any other tensor it would truncate, which a tensor comparison would not do.
  // In the masked loop the tensor is converted as the read converts it (`.to(torch::kLong)` for
  // item<int64_t>(): the same truncation toward zero).
  if (!T->isFloatingType() && !isProvablyLong(Receiver, Scope.Body, Api)) {
    if (!Scope.ConvertIntegerReads || !integerDType(T, Ctx))
      return refuse("'" + text(Whole) + "' converts to an integer on the host, which a tensor comparison would not do");
    L.Text = liftedReadText(Whole, Scope.Body, Api, Ctx);
  }
  return L;
}

std::string Lifter::hostUseReason(const VarDecl *V, const DeclRefExpr *U, const char *Where) {
  const unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(U->getBeginLoc());
  // Collected into a host list (a decoder's tokens): that list is what must become a tensor.
  if (const VarDecl *List = hostListStoring(U, Ctx))
    return collectedValueAdvice(V->getNameAsString(), List->getNameAsString(), Line);
  return "'" + V->getNameAsString() + "' is also used at line " + std::to_string(Line) + Where +
         ", where it must stay a host value";
}

llvm::Expected<Lifted> Lifter::liftLocal(const VarDecl *V, const Expr *Use) {
  const Expr *Init = V->getInit();
  if (!Init || !isHostRead(Init, Api))
    return refuse("the condition depends on '" + V->getNameAsString() +
                  "', which is not a value read from a single tensor element");
  if (isa<ParmVarDecl>(V) || !V->hasLocalStorage())
    return refuse("the condition depends on '" + V->getNameAsString() + "', which is not a local variable");
  if (isReassigned(V, Scope.Body))
    return refuse("'" + V->getNameAsString() + "' is assigned after its declaration, so it cannot stay a tensor");
  // The local becomes a tensor, so every use must be one that this rewrite lifts.
  SourceManager &SM = Ctx.getSourceManager();
  SourceRange Owner = Scope.Owner->getSourceRange();
  // Outside the statement, a floating value may also feed tensor arithmetic (`y / scale`), which
  // computes the same with the 0-d tensor (see scalar-read-to-device).
  const bool FloatRead = stripAll(Init)->getType()->isFloatingType();
  for (const DeclRefExpr *U : usesOf(V, Scope.Body)) {
    SourceLocation L = SM.getExpansionLoc(U->getBeginLoc());
    if ((SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(Owner.getBegin())) ||
         SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Owner.getEnd()), L)) &&
        !(FloatRead && isTensorArithmeticOperand(U, Api, Ctx)))
      return refuse(hostUseReason(V, U, ""));
  }
  // Inside the statement too, a use other than in a condition (which the rewrite lifts) must be
  // one that computes the same with the tensor (`torch::full({1}, next)` would not compile).
  for (const DeclRefExpr *U : usesOf(V, Scope.Owner))
    if (!inCondition(U, Ctx) && !(FloatRead && isTensorArithmeticOperand(U, Api, Ctx)))
      return refuse(hostUseReason(V, U, " outside a condition"));
  // Only single-variable declarations are rewritten (`float a = ..., b = ...;` would need a split).
  for (const DynTypedNode &P : Ctx.getParents(*V))
    if (const auto *DS = P.get<DeclStmt>(); DS && !DS->isSingleDecl())
      return refuse("'" + V->getNameAsString() + "' is declared together with other variables");
  // The read ran where the local is declared, whatever test the use is in.
  const int Depth = std::exchange(ConditionalDepth, 0);
  auto Item = liftItem(Api.elementRead(Init), Init);
  ConditionalDepth = Depth;
  if (!Item)
    return Item.takeError();
  if (llvm::find(Locals, V) == Locals.end())
    Locals.push_back(V);
  Lifted L;
  L.IsTensor = true;
  L.IsBool = Item->IsBool && Item->Text.front() != '(';
  L.Text = V->getNameAsString();
  L.DeviceVar = L.Text;
  if (Item->IsBool && !L.IsBool)
    return refuse("'" + V->getNameAsString() + "' converts a number to bool on the host");
  (void)Use;
  return L;
}

/// Whether `E` is a number or bool the host computes from nothing read from tensors — a
/// parameter, a comparison of host values, a config's field, a vocabulary's `end_id()` — with no
/// tensor in it and nothing that could change behaviour if it ran where it did not (it may now
/// run although a short-circuit skipped it). The lifted condition keeps it as written, a host
/// value fixed for each run of the code (in a captured graph, at capture, like any host scalar).
bool isPureHostValue(const Expr *E, const ApiModel &Api, ASTContext &Ctx) {
  if (!E->getType().getNonReferenceType()->isArithmeticType())
    return false;
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<LambdaExpr>(S))
      return false;
    if (const auto *X = dyn_cast<Expr>(S)) {
      if (isHostRead(X, Api) || (Api.facts() && Api.facts()->taintOf(X)))
        return false;
      // A tensor's metadata (`h.size(1)`, `x.dim()`) is a host value fixed by its shape; the
      // analysis taints the sizes of value-dependent selections, refused above.
      if (Api.callHasTag(X, "shape_query") || Api.callHasTag(X, "rank_query"))
        continue;
      if (Api.isTensorExpr(X))
        return false;
      // A table read at a position (`vocab[id]`) is refused for the table, with its own advice.
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        if (isa<VarDecl>(DR->getDecl()) && isHostTable(DR->getDecl()->getType()))
          return false;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Ops that raise on some values (valueHazard) may now run where the original did not, unless
  // the test that kept them from raising runs in front of them in the lifted form too.
  if (findSideEffect(E, Api, /*AllowHostReads=*/false, Evaluation::AsBefore))
    return false;
  return !findExpr(E, [&](const Expr *X) {
    return isa<CallExpr>(X) && valueHazard(X, Api) && !isCheckedOptionalRead(X, Ctx);
  });
}

llvm::Expected<Lifted> Lifter::liftHost(const Expr *E) {
  const Expr *S = stripAll(E);
  if (isExactFloat32(S, Ctx))
    return Lifted{text(E), false, S->getType()->isBooleanType()};
  if (isa<IntegerLiteral>(S) || isa<FloatingLiteral>(S) ||
      (isa<UnaryOperator>(S) && isa<FloatingLiteral>(stripAll(cast<UnaryOperator>(S)->getSubExpr()))))
    return refuse("the constant '" + text(E) + "' is not exactly representable in float32, so a "
                  "tensor comparison would round it");
  // A host variable or field that does not depend on tensor values.
  if (Api.facts())
    if (const TaintOrigin *O = Api.facts()->taintOf(S)) {
      // A size of a selection has a device form (the mask's count), but not as a where() of this
      // if: the selection itself must stay padded first.
      if (O->SizeOfSelection)
        return refuse(selectionSizeAdvice(S, Api, Ctx));
      if (O->ThroughControl)
        return refuse("the condition depends on '" + text(E) + "', which is set or counted under a condition "
                      "that tests tensor data (an implicit flow): compute it on the device from the conditions "
                      "that set it, as a 0-d tensor (a flag: their logical_or; a count: the sum of their mask), "
                      "and select with torch::where, or move the code that sets and tests it out of the graph "
                      "region");
      return refuse("the condition depends on '" + text(E) + "', a host value computed on the host from tensor "
                    "data (not one element read here, which the rewrite could keep as a 0-d tensor): compute it "
                    "with tensor ops on the device and select with torch::where, or move the test and the host "
                    "code that computes the value out of the graph region, after the replay");
    }
  if (isa<DeclRefExpr>(S) || isa<MemberExpr>(S)) {
    QualType T = S->getType().getNonReferenceType();
    if (T->isRealFloatingType() && !T->isSpecificBuiltinType(BuiltinType::Float))
      return refuse("the condition compares with the double '" + text(E) +
                    "', which a float32 tensor comparison would round");
    if (T->isArithmeticType())
      return Lifted{text(E), false, T->isBooleanType()};
  }
  // A call or host arithmetic on untainted values (`vocab->end_id()`, `max_len - 1`): compared
  // with a tensor as a variable would be.
  if (isPureHostValue(S, Api, Ctx)) {
    QualType T = S->getType().getNonReferenceType();
    if (T->isRealFloatingType() && !T->isSpecificBuiltinType(BuiltinType::Float))
      return refuse("the condition compares with the double '" + text(E) +
                    "', which a float32 tensor comparison would round");
    return Lifted{text(E), false, T->isBooleanType()};
  }
  return refuse("cannot express '" + text(E) + "' as a tensor");
}

static bool isComparison(BinaryOperatorKind K) {
  return K == BO_GT || K == BO_LT || K == BO_GE || K == BO_LE || K == BO_EQ || K == BO_NE;
}

/// The first variable or field in `E` that holds a host value computed from tensor data (not
/// one element read into a local, which the lifting keeps as the tensor it reads), or null.
const Expr *Lifter::computedHostOperand(const Expr *E) const {
  return findExpr(E, [&](const Expr *X) {
    if (!isa<DeclRefExpr>(X) && !isa<MemberExpr>(X))
      return false;
    if (!Api.facts() || !Api.facts()->taintOf(X))
      return false;
    const VarDecl *V = referencedVar(X);
    return !(V && V->getInit() && isHostRead(V->getInit(), Api) && !isa<ParmVarDecl>(V));
  });
}

llvm::Expected<Lifted> Lifter::lift(const Expr *E) {
  const Expr *S = stripImplicit(E);
  if (const auto *P = dyn_cast<ParenExpr>(S)) {
    auto Inner = lift(P->getSubExpr());
    if (!Inner)
      return Inner.takeError();
    Inner->Text = "(" + Inner->Text + ")";
    return Inner;
  }
  // A number used as a condition: `if (x.sum().item<float>())` means "is non-zero".
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
      IC && (IC->getCastKind() == CK_FloatingToBoolean || IC->getCastKind() == CK_IntegralToBoolean)) {
    auto Inner = lift(IC->getSubExpr());
    if (!Inner)
      return Inner.takeError();
    if (!Inner->IsTensor)
      return refuse("cannot express '" + text(E) + "' as a tensor");
    return Lifted{Inner->Text + " != 0", true, true, Inner->DeviceVar, Inner->ReadReceiver};
  }
  if (isHostRead(S, Api))
    return liftItem(Api.elementRead(S), S);
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_LNot) {
    // Operands of function-call forms need no parentheses of their own.
    auto Inner = lift(UO->getSubExpr()->IgnoreParens());
    if (!Inner)
      return Inner.takeError();
    if (!Inner->IsTensor)
      return refuse("the condition mixes host values with values read from tensors");
    if (!Inner->IsBool)
      Inner->Text = "(" + Inner->Text + " != 0)";
    return Lifted{Api.spell(FlavorHint, "logical_not") + "(" + Inner->Text + ")", true, true, Inner->DeviceVar,
                  Inner->ReadReceiver};
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
      return liftLogical(BO);
    if (isComparison(BO->getOpcode())) {
      auto L = lift(BO->getLHS());
      if (!L)
        return L.takeError();
      auto R = lift(BO->getRHS());
      if (!R)
        return R.takeError();
      if (!L->IsTensor && !R->IsTensor)
        return refuse("cannot express '" + text(E) + "' as a tensor");
      const Lifted &Side = L->IsTensor ? *L : *R;
      return Lifted{L->Text + " " + BO->getOpcodeStr().str() + " " + R->Text, true, true, Side.DeviceVar,
                    Side.ReadReceiver};
    }
    // Host arithmetic of values not read from tensors (`max_len - 1`) is a host operand.
    if (isPureHostValue(S, Api, Ctx))
      return liftHost(E);
    // Arithmetic on a host value computed from tensor data: that value is the obstacle.
    if (const Expr *Computed = computedHostOperand(S))
      if (auto Host = liftHost(Computed); !Host)
        return Host.takeError();
    return refuse("the condition computes '" + text(E) + "' on the host from values read from tensors, and "
                  "only comparisons and logical operators of them are lifted: compute it with tensor ops on "
                  "the device (each read kept as the tensor it reads) and compare that, or move the test and "
                  "the code it decides out of the graph region, after the replay");
  }
  if (const VarDecl *V = referencedVar(S)) {
    QualType T = V->getType().getNonReferenceType();
    if (T->isArithmeticType() && V->getInit() && isHostRead(V->getInit(), Api) && !isa<ParmVarDecl>(V))
      return liftLocal(V, S);
  }
  return liftHost(E);
}

/// Whether `E` mentions a tensor or reads one on the host.
bool readsTensor(const Expr *E, const ApiModel &Api) {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *X = dyn_cast_or_null<Expr>(S); X && (Api.isTensorExpr(X) || isHostRead(X, Api)))
      return true;
    if (S)
      for (const Stmt *C : S->children())
        Work.push_back(C);
  }
  return false;
}

/// The tensor variable (or field) `Receiver` is computed from by a chain of method calls that
/// keep the device (`h` of `h.sum()`, `logits` of `logits.argmax(-1)`), or empty: a chain with
/// a device transfer, a free function.
std::string Lifter::deviceVariable(const Expr *Receiver) {
  const Expr *X = Receiver->IgnoreParenImpCasts();
  while (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
    if (Api.callHasTag(MC, "device_transfer") || !MC->getImplicitObjectArgument())
      return "";
    X = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  if ((isa<DeclRefExpr>(X) || isa<MemberExpr>(X)) && Api.isTensorExpr(X))
    return text(X);
  return "";
}

/// `a && b`, `a || b`. Both sides tensors: logical_and / logical_or. One side a host condition
/// on values not read from tensors (`eos != -1 && tok.item<int64_t>() == eos`): it stays on the
/// host and picks the tensor side or a constant 0-d mask on its device — `(eos != -1 ? tok == eos
/// : torch::zeros({}, tok.options().dtype(torch::kBool)))` — evaluated before the tensor side,
/// which is exact because it has no effect (isPureHostValue). Both host: the host expression as
/// written.
llvm::Expected<Lifted> Lifter::liftLogical(const BinaryOperator *BO) {
  auto Side = [&](const Expr *X) -> llvm::Expected<Lifted> {
    X = X->IgnoreParens();
    if (isPureHostValue(stripImplicit(X), Api, Ctx))
      return Lifted{text(X), false, stripAll(X)->getType()->isBooleanType()};
    if (!readsTensor(X, Api))
      if (auto Why = findSideEffect(X, Api, /*AllowHostReads=*/false, Evaluation::Conditional))
        return refuse("the condition's host test '" + text(X) + "' " + *Why +
                      "; only a host test without effects is kept beside a test of tensor values");
    return lift(X);
  };
  auto L = Side(BO->getLHS());
  if (!L)
    return L.takeError();
  const bool And = BO->getOpcode() == BO_LAnd;
  // Beside a tensor test the right operand is lifted into logical_and/or, which runs it where
  // the original's short-circuit skipped it: it must not raise there (a beside-host-test right
  // operand keeps its short-circuit as a host `?:`).
  if (L->IsTensor)
    if (auto Why = findSideEffect(BO->getRHS(), Api, /*AllowHostReads=*/true, Evaluation::Conditional))
      return refuse("the condition's right operand '" + text(BO->getRHS()) + "' ran only when '" +
                    text(BO->getLHS()) + "' was " + (And ? "true" : "false") + ", and it " + *Why);
  if (L->IsTensor)
    ++ConditionalDepth;
  auto R = Side(BO->getRHS());
  if (L->IsTensor)
    --ConditionalDepth;
  if (!R)
    return R.takeError();
  if (!L->IsTensor && !R->IsTensor)
    return Lifted{text(BO), false, true};
  if ((L->IsTensor && !L->IsBool) || (R->IsTensor && !R->IsBool))
    return refuse("the condition mixes host values with values read from tensors");
  if (L->IsTensor && R->IsTensor)
    return Lifted{Api.spell(FlavorHint, And ? "logical_and" : "logical_or") + "(" + L->Text + ", " + R->Text + ")",
                  true, true, L->DeviceVar, L->ReadReceiver};
  const Lifted &Host = L->IsTensor ? *R : *L;
  const Lifted &Tensor = L->IsTensor ? *L : *R;
  // The constant side reads no value of the tensor side: where the host side decides, the
  // original may never have evaluated the tensor side (a read that throws on a tensor of several
  // elements, a max of an empty tensor, must not run there). A receiver the original evaluated
  // first (the tensor side on the left) may be evaluated again: it is pure.
  std::string Device = Tensor.DeviceVar;
  if (Device.empty() && L->IsTensor && Tensor.ReadReceiver)
    Device = text(Tensor.ReadReceiver);
  if (Device.empty())
    return refuse("the condition tests a value read from a tensor computed in the condition after a host test; "
                  "compute the tensor into a local before the test");
  const std::string Constant = Api.spell(FlavorHint, And ? "zeros" : "ones") + "({}, " + Device + ".options().dtype(" +
                               Api.spellConstant(FlavorHint, "kBool") + "))";
  return Lifted{"(" + Host.Text + " ? " + (And ? Tensor.Text : Constant) + " : " + (And ? Constant : Tensor.Text) +
                    ")",
                true, true, Tensor.DeviceVar, Tensor.ReadReceiver};
}

} // namespace

const Expr *tensorArithmeticPartner(const Expr *E, const ApiModel &Api, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    if (const auto *OC = N.get<CXXOperatorCallExpr>()) {
      OverloadedOperatorKind K = OC->getOperator();
      if ((K != OO_Plus && K != OO_Minus && K != OO_Star && K != OO_Slash) || OC->getNumArgs() != 2)
        return nullptr;
      for (const Expr *Arg : OC->arguments())
        if (Api.isTensorExpr(Arg) && stripAll(Arg) != E)
          return Api.isTensorExpr(OC) ? Arg : nullptr;
      return nullptr;
    }
    const Expr *P = N.get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
                isa<CXXConstructExpr>(P)))
      return nullptr;
  }
  return nullptr;
}

bool isTensorArithmeticOperand(const Expr *E, const ApiModel &Api, ASTContext &Ctx) {
  return tensorArithmeticPartner(E, Api, Ctx) != nullptr;
}

llvm::Expected<LiftedCondition> liftCondition(const Expr *Cond, const LiftScope &Scope, const ApiModel &Api,
                                              ASTContext &Ctx) {
  if (!Cond)
    return refuse("the statement has no condition");
  if (auto Why = conditionObstacle(Cond, Api, Ctx))
    return refuse(*Why);
  Lifter L(Scope, Api, Ctx);
  if (auto Err = [&]() -> llvm::Error {
        llvm::SmallVector<const Stmt *, 16> Work{Cond};
        while (!Work.empty()) {
          const Stmt *S = Work.pop_back_val();
          if (!S)
            continue;
          if (const auto *DR = dyn_cast<DeclRefExpr>(S))
            if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
              QualType T = V->getType().getNonReferenceType();
              if (isHostObject(T, Api) && !isHostTable(T) && Api.facts() && !Api.facts()->taintOf(DR)) {
                // A number it gives with no effect (`vocab->end_id()`) stays a host value.
                if (const Expr *Read = objectRead(DR, Ctx); Read != DR && isPureHostValue(Read, Api, Ctx))
                  continue;
                return refuse(untaintedObjectReason(V, DR, Ctx));
              }
              if (isHostObject(T, Api))
                return refuse(hostObjectReason(V, DR, Api, Ctx));
              // An integer counter of a for loop is a host value like any other: each iteration
              // lifts its own condition. The element of a range-for comes from a container, which
              // may hold values read from tensors.
              for (const DynTypedNode &P : Ctx.getParents(*V)) {
                const Stmt *Loop = nullptr;
                if (const auto *DS = P.get<DeclStmt>())
                  for (const DynTypedNode &PP : Ctx.getParents(*DS))
                    if (PP.get<CXXForRangeStmt>() || (PP.get<ForStmt>() && !T->isIntegerType()))
                      Loop = DS;
                if (P.get<CXXForRangeStmt>())
                  Loop = P.get<CXXForRangeStmt>();
                if (Loop)
                  return refuse("the condition depends on the loop variable '" + V->getNameAsString() + "'");
              }
            }
          for (const Stmt *C : S->children())
            Work.push_back(C);
        }
        return llvm::Error::success();
      }())
    return std::move(Err);
  // A tensor used as a bool (`if (mask.any())`, `if (a == b)` on tensors); an operator of host
  // objects (`token != eos` on strings) was refused above for the object.
  bool TensorOperator = false;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(stripAll(Cond)))
    for (const Expr *A : OC->arguments())
      TensorOperator |= Api.isTensorExpr(A);
  if (TensorOperator || Api.isTensorExpr(Cond))
    return refuse("the condition converts a tensor to bool on the host");
  auto Result = L.lift(Cond);
  if (!Result)
    return Result.takeError();
  if (!Result->IsTensor)
    return refuse("the condition does not read a tensor");
  if (!Result->IsBool)
    Result->Text = Result->Text + " != 0";
  return LiftedCondition{Result->Text, L.Locals};
}

llvm::Expected<llvm::SmallVector<transformer::Edit, 1>>
liftedLocalEdits(const std::vector<const VarDecl *> &Locals, const ApiModel &Api, ASTContext &Ctx) {
  llvm::SmallVector<transformer::Edit, 1> Edits;
  for (const VarDecl *V : Locals) {
    // Replace from the start of the declaration (type) to the end of the initializer.
    SourceLocation Begin = V->getBeginLoc();
    for (const DynTypedNode &P : Ctx.getParents(*V))
      if (const auto *DS = P.get<DeclStmt>())
        Begin = DS->getBeginLoc();
    CharSourceRange R = CharSourceRange::getTokenRange(Begin, V->getInit()->getEndLoc());
    std::optional<CharSourceRange> FR = tooling::getFileRangeForEdit(R, Ctx);
    if (!FR)
      return refuse("'" + V->getNameAsString() + "' is declared inside a macro");
    transformer::Edit E;
    E.Range = *FR;
    E.Replacement = liftedLocalDeclaration(V, Api, Ctx);
    Edits.push_back(std::move(E));
  }
  return Edits;
}

llvm::Expected<llvm::SmallVector<transformer::Edit, 1>>
selectEdits(const ast_matchers::MatchFinder::MatchResult &R, const transformer::RangeSelector &Where, std::string Text,
            const std::vector<const VarDecl *> &Locals, const ApiModel &Api) {
  auto Main = replaceRange(R, Where, std::move(Text));
  if (!Main)
    return Main.takeError();
  auto Lifted = liftedLocalEdits(Locals, Api, *R.Context);
  if (!Lifted)
    return Lifted.takeError();
  llvm::SmallVector<transformer::Edit, 1> All{std::move(*Main)};
  All.append(Lifted->begin(), Lifted->end());
  return All;
}

std::string liftedLocalDeclaration(const VarDecl *V, const ApiModel &Api, ASTContext &Ctx) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  return "auto " + V->getNameAsString() + " = " + liftedReadText(V->getInit(), F ? F->getBody() : nullptr, Api, Ctx);
}

} // namespace graphify::rewriter
