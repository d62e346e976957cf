// Branches on capture status. Invariant: a call counts as not captured only when a condition on
// one of the packs' idle statuses decides it; any other condition leaves it captured.
#include "IdleGuards.h"

#include "CaptureFlow.h"
#include "StatementParents.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

#include <functional>

namespace graphify {

using namespace clang;

IdleGuards::IdleGuards(const ApiResolver &Api, const llvm::DenseMap<const FunctionDecl *, bool> *Imported,
                       const SetterCalls *ImportedSetters, const CaptureFlags::FlagRecords *ImportedFlags)
    : Api(Api), Imported(Imported), ImportedSetters(ImportedSetters), ImportedFlags(ImportedFlags) {
  for (const ApiEntry &E : Api.rules().entries())
    if (E.hasTag("capture_status_query"))
      for (const std::string &S : E.IdleStatuses)
        Idle.insert(S);
}

bool IdleGuards::isIdleStatus(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *EC = DRE ? dyn_cast<EnumConstantDecl>(DRE->getDecl()) : nullptr;
  return EC && (Idle.contains(EC->getQualifiedNameAsString()) || Idle.contains(EC->getName()));
}

bool IdleGuards::isBusyStatus(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *EC = DRE ? dyn_cast<EnumConstantDecl>(DRE->getDecl()) : nullptr;
  const auto *Enum = EC ? dyn_cast<EnumDecl>(EC->getDeclContext()) : nullptr;
  if (!Enum || isIdleStatus(E))
    return false;
  return llvm::any_of(Enum->enumerators(), [&](const EnumConstantDecl *Other) {
    return Idle.contains(Other->getQualifiedNameAsString()) || Idle.contains(Other->getName());
  });
}

std::optional<bool> IdleGuards::helperMeansIdle(const FunctionDecl *FD) const {
  std::optional<bool> Here = localHelperMeansIdle(FD);
  // What the unit that writes a flag found (an accessor defined in a header, set elsewhere).
  if (!Here && FD && Imported)
    if (auto It = Imported->find(FD->getCanonicalDecl()); It != Imported->end())
      return It->second;
  return Here;
}

std::optional<bool> IdleGuards::localHelperMeansIdle(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->getReturnType().getNonReferenceType()->isBooleanType() || !FD->hasBody(Def) || Api.isLibraryDecl(Def) ||
      Def->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  auto [It, New] = Helpers.try_emplace(Def->getCanonicalDecl(), std::nullopt);
  if (!New)
    return It->second;
  const ReturnStmt *Only = nullptr;
  unsigned Returns = 0;
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      Only = R;
      ++Returns;
    }
    for (const Stmt *C : S->children())
      Find(C);
  };
  Find(Def->getBody());
  std::optional<bool> Answer;
  if (Returns == 1 && Only->getRetValue())
    Answer = meansIdle(Only->getRetValue(), Def->getBody(), nullptr);
  Helpers[Def->getCanonicalDecl()] = Answer;
  return Answer;
}

/// The calls in `S`, in the order they are written (lambdas aside: they run elsewhere).
static void callsIn(const Stmt *S, std::vector<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    Out.push_back(CE);
  for (const Stmt *C : S->children())
    callsIn(C, Out);
}

/// Whether `Arg` is `&V` or a reference to V.
static bool writes(const Expr *Arg, const VarDecl *V) {
  Arg = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Arg); UO && UO->getOpcode() == UO_AddrOf)
    Arg = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
  return DRE && DRE->getDecl() == V;
}

bool IdleGuards::isFresh(const Expr *E, const Stmt *Body, const Expr *&Queried) const {
  Queried = nullptr;
  E = E->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // A field or a global was read somewhere else, at a time this function does not show.
  if (isa<MemberExpr>(E) || (V && !V->hasLocalStorage()))
    return false;
  if (!V || isa<ParmVarDecl>(V) || !Body)
    return true; // a query's own result, or a status the caller read
  const SourceManager &SM = V->getASTContext().getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  };
  std::vector<const CallExpr *> Calls;
  callsIn(Body, Calls);
  // The last query that wrote V before the comparison, and whether a capture began after it.
  bool Fresh = true;
  for (const CallExpr *CE : Calls) {
    if (!Before(CE->getBeginLoc(), E->getBeginLoc()))
      continue;
    auto C = Api.resolve(CE);
    if (!C)
      continue;
    if (C->hasTag("capture_status_query") && llvm::any_of(C->Args, [&](const Expr *A) { return writes(A, V); })) {
      Fresh = true;
      const ApiEntry *Q = C->entryWithTag("capture_status_query");
      Queried = Q && Q->StreamArg ? C->arg(*Q->StreamArg) : nullptr;
    } else if (C->hasTag("capture_begin")) {
      Fresh = false;
    }
  }
  return Fresh;
}

/// The variable or field a stream expression names (`s`, `main_`, `this->copy_`), or null.
static const ValueDecl *streamName(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E); ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return ME->getMemberDecl();
  return nullptr;
}

/// Whether a status read on `Queried` may speak for a call on `Stream`: unless both name
/// different variables or fields.
static bool sameStream(const Expr *Queried, const Expr *Stream) {
  const ValueDecl *A = streamName(Queried), *B = streamName(Stream);
  return !A || !B || A->getCanonicalDecl() == B->getCanonicalDecl();
}

bool IdleGuards::namesStream(const Expr *E, const Stmt *Body) const {
  const ValueDecl *D = streamName(E);
  if (!D || !Body || !E->IgnoreParenImpCasts()->getType()->isPointerType())
    return false;
  auto [It, New] = Streams.try_emplace({D, Body}, false);
  if (!New)
    return It->second;
  std::vector<const CallExpr *> Calls;
  callsIn(Body, Calls);
  return Streams[{D, Body}] = llvm::any_of(Calls, [&](const CallExpr *CE) {
    auto C = Api.resolve(CE);
    return C && llvm::any_of(C->Entries, [&](const ApiEntry *Entry) {
             return Entry->StreamArg && streamName(C->arg(*Entry->StreamArg)) == D;
           });
  });
}

/// The side of `L == R` (or `!=`) that names a variable or field compared with a null pointer
/// constant (`0`, `NULL`, `nullptr`) on the other side, or null.
static const Expr *testedForNull(const Expr *L, const Expr *R) {
  for (auto [Named, Other] : {std::pair{L, R}, std::pair{R, L}})
    if (const ValueDecl *D = streamName(Named);
        D && Other->IgnoreParenImpCasts()->isNullPointerConstant(D->getASTContext(), Expr::NPC_ValueDependentIsNotNull) !=
                 Expr::NPCK_NotNull)
      return Named;
  return nullptr;
}

std::optional<bool> IdleGuards::meansIdle(const Expr *Cond, const Stmt *Body, const Expr *Stream) const {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot) {
    if (std::optional<bool> Inner = meansIdle(UO->getSubExpr(), Body, Stream))
      return !*Inner;
    return std::nullopt;
  }
  // A stream tested for null (`if (stream)`, OpenCV's `if (stream == 0) cudaDeviceSynchronize();`):
  // a capture never runs on the legacy NULL stream, so the work a null stream selects runs idle.
  if (namesStream(Cond, Body))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(Cond); Call && !isa<CXXOperatorCallExpr>(Call))
    return helperMeansIdle(Call->getDirectCallee());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (std::optional<bool> Captured = capturedValue(*P, DRE, Body))
        return !*Captured; // `step(use_graph)`: true in every capture; `memcpy(..., false)`: false
  if (const ValueDecl *Flag = CaptureFlags::flagNamed(Cond)) { // the application's own "in graph" flag
    if (!Flags)
      Flags = std::make_unique<CaptureFlags>(Api, Flag->getASTContext(), ImportedSetters, ImportedFlags);
    if (Flags->isFlag(Flag))
      return false;
  }
  const Expr *L = nullptr, *R = nullptr;
  BinaryOperatorKind Op;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    L = BO->getLHS(), R = BO->getRHS(), Op = BO->getOpcode();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cond); OC && OC->getNumArgs() == 2 &&
                                                                    (OC->getOperator() == OO_EqualEqual ||
                                                                     OC->getOperator() == OO_ExclaimEqual)) {
    L = OC->getArg(0), R = OC->getArg(1);
    Op = OC->getOperator() == OO_EqualEqual ? BO_EQ : BO_NE;
  } else {
    return std::nullopt;
  }
  // `idle && x` true means idle; `capturing || x` false means idle (not followed: rare).
  if (Op == BO_LAnd) {
    if (meansIdle(L, Body, Stream) == true || meansIdle(R, Body, Stream) == true)
      return true;
    return std::nullopt;
  }
  if (Op != BO_EQ && Op != BO_NE)
    return std::nullopt;
  if (const Expr *S = testedForNull(L, R); S && namesStream(S, Body))
    return Op == BO_EQ;
  const Expr *Status = isIdleStatus(L) ? R : isIdleStatus(R) ? L : nullptr;
  const Expr *Queried = nullptr;
  if (Status && isFresh(Status, Body, Queried) && sameStream(Queried, Stream))
    return Op == BO_EQ;
  // Another status of the same type: equal means a capture is running (active, or invalidated
  // and failing at its end anyway), so the branch where it is not holds the idle stream.
  const Expr *Busy = isBusyStatus(L) ? R : isBusyStatus(R) ? L : nullptr;
  if (Busy && isFresh(Busy, Body, Queried) && sameStream(Queried, Stream))
    return Op == BO_NE;
  return std::nullopt;
}

void IdleGuards::followParameters(ASTContext &Ast, bool Whole, std::function<bool(const CallExpr &)> Captured) {
  Sites = std::make_unique<CallSites>(Ast);
  WholeProgram = Whole;
  MayBeCaptured = std::move(Captured);
}

bool IdleGuards::guardedBegin(const Expr *Flag, const Stmt *Body) const {
  if (!Flag || !Body || !isa<DeclRefExpr, MemberExpr>(Flag->IgnoreParenImpCasts()) || writesFlagIn(Body, Flag))
    return false;
  std::vector<const CallExpr *> Calls;
  std::function<bool(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->getCond() && !If->getConditionVariable() &&
                                              sameFlagName(If->getCond()->IgnoreParenImpCasts(), Flag)) {
      Calls.clear();
      callsIn(If->getThen(), Calls);
      if (llvm::any_of(Calls, [&](const CallExpr *CE) {
            auto C = Api.resolve(CE);
            return C && C->hasTag("capture_begin");
          }))
        return true;
    }
    return llvm::any_of(S->children(), Find);
  };
  return Find(Body);
}

std::optional<bool> IdleGuards::capturedValue(const ParmVarDecl &P, const Expr *Read, const Stmt *Body) const {
  const auto *F = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  if (!Sites || !F || !P.getType()->isBooleanType() || CarryDepth > 3 || writesFlagIn(Body, Read))
    return std::nullopt;
  auto Calls = Sites->allCallsOf(*F, WholeProgram);
  if (!Calls || Calls->empty())
    return std::nullopt;
  ++CarryDepth;
  std::optional<bool> Value;
  bool Known = true;
  for (const CallExpr *CE : *Calls) {
    if (MayBeCaptured && !MayBeCaptured(*CE))
      continue; // never runs in a capture: whatever it passes
    const Expr *Arg = CallSites::argumentFor(*CE, *F, P.getFunctionScopeIndex());
    std::optional<bool> Passed;
    if (const auto *B = Arg ? dyn_cast<CXXBoolLiteralExpr>(Arg->IgnoreParenImpCasts()) : nullptr) {
      Passed = B->getValue();
    } else if (Arg) {
      const Stmt *CallerBody = enclosingBody(*CE, P.getASTContext());
      if (std::optional<bool> Idle = meansIdle(Arg, CallerBody, nullptr))
        Passed = !*Idle; // true means idle: false while capturing, and the other way round
      else if (guardedBegin(Arg, CallerBody))
        Passed = true;
    }
    if (!Passed || (Value && *Value != *Passed)) {
      Known = false;
      break;
    }
    Value = Passed;
  }
  --CarryDepth;
  return Known ? Value : std::nullopt;
}

/// Whether `S` leaves the enclosing body: a return, a throw, a break or continue, or a block
/// that ends in one.
static bool leaves(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && leaves(CS->body_back());
  return isa_and_nonnull<ReturnStmt, CXXThrowExpr, BreakStmt, ContinueStmt>(S);
}

bool IdleGuards::runsOnlyWhenIdle(const Stmt &S, ASTContext &Ast) const {
  if (Idle.empty())
    return false;
  // The body the statement is in: where the status was read, and the capture begun.
  const Stmt *Body = enclosingBody(S, Ast);
  // The stream the guarded call names, when its entry says which argument that is.
  const Expr *Stream = nullptr;
  if (const auto *E = dyn_cast<Expr>(&S))
    if (auto C = Api.resolve(E))
      for (const ApiEntry *Entry : C->Entries)
        if (Entry->StreamArg && !Stream)
          Stream = C->arg(*Entry->StreamArg);
  DynTypedNode Child = DynTypedNode::create(S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto ParentNode = statementParent(Child, Ast);
    if (!ParentNode)
      return false; // the function's body is done
    const Stmt *Parent = ParentNode->get<Stmt>();
    const Stmt *Came = Child.get<Stmt>();
    if (const auto *If = dyn_cast<IfStmt>(Parent); If && If->getCond() && Came != If->getCond()) {
      std::optional<bool> Idle = meansIdle(If->getCond(), Body, Stream);
      if (Idle && ((*Idle && Came == If->getThen()) || (!*Idle && Came == If->getElse())))
        return true;
    }
    // `if (status != None) return;` before `S` in the same block.
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *Prior : Block->body()) {
        if (Prior == Came)
          break;
        const auto *If = dyn_cast<IfStmt>(Prior);
        if (If && If->getCond() && !If->getElse() && leaves(If->getThen()) && meansIdle(If->getCond(), Body, Stream) == false)
          return true;
      }
    Child = *ParentNode;
  }
  return false;
}

} // namespace graphify
