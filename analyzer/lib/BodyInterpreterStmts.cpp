// Statements: declarations, branches and the conditions that control them, loops run to a
// fixpoint, and the jumps (break, continue, return) handed to the construct they leave.
#include "BodyInterpreter.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <map>
#include <optional>
#include <tuple>

namespace graphify::taint {

using namespace clang;

void BodyInterpreter::declare(const VarDecl *VD) {
  if (isLocal(VD) && (Api.isHostContainer(VD->getType()) || isHostScalar(VD) || isHostRecord(VD)))
    Declared[VD] = {Control.size(), S.LoopExits, S.FunctionExits};
  S.Emptied.erase(VD);
  const Expr *Init = VD->getInit();
  if (!Init) {
    if (isLocal(VD))
      S.Values.erase({VD, nullptr});
    return;
  }
  TaintValue V = eval(Init);
  if (Api.holdsTensors(VD->getType()) && isLocal(VD))
    setShapeOf(VD, dynamicShape(Init), VD->getLocation(), Init, /*Strong=*/true);
  // A list of tensors only read by element (`auto grid = torch::meshgrid({x, y});`): its
  // elements stay where its initialiser made them.
  if (!Api.isTensor(VD->getType()) && Api.holdsTensors(VD->getType()) && isLocal(VD) && elementsOnlyRead(VD, Api))
    if (const Expr *Host = hostResident(Init))
      S.HostTensors[VD] = Host;
  // A list that only ever gets tensors built in host memory (`parts.push_back(torch::from_blob(
  // ...))` in a loop): what it is stacked into is in host memory too.
  if (isLocal(VD) && !Api.isTensor(VD->getType()) && Api.holdsTensors(VD->getType())) {
    auto [It, New] = A.HostFilledLists.try_emplace(VD, nullptr);
    if (New)
      It->second = hostFilledList(VD, Api);
    if (It->second)
      S.HostTensors[VD] = It->second;
    // A list that starts empty (a null origin: it holds no tensor yet) or with host tensors, and
    // is only stored into where this walk sees it: in host memory until a store says otherwise.
    else if (A.visibleStores(VD))
      startListOfStores(VD);
  }
  if (Api.isTensor(VD->getType())) {
    rebindTensor(VD, Init);
    return;
  }
  if (isTensorRecord(VD->getType())) {
    if (const Expr *Host = hostRecord(Init))
      S.HostTensors[VD] = Host;
    else
      S.HostTensors.erase(VD);
  }
  if (setContainer(VD, Init, VD->getLocation(), Init))
    return;
  // A copy of a local struct whose fields were written one by one (`cv::Rect r; r.x = v;
  // cv::Rect q = r;`): the copy holds what its fields do.
  if (isHostRecord(VD))
    V = join(V, recordFields(Init));
  setVar(VD, V, VD->getLocation(), Init, /*Strong=*/true);
  // `std::vector<float> wh = {w, h};`: as many elements as the list has, whatever they hold.
  if (isLocal(VD) && Api.isHostContainer(VD->getType()) && isBracedList(Init))
    writeKey(sizeKey(VD), reachedSince(VD), /*Strong=*/true);
}

bool BodyInterpreter::isBracedList(const Expr *Init) {
  const Expr *E = Init->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1 && !CE->isListInitialization())
    E = CE->getArg(0)->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()))
      return isa<InitListExpr>(SIL->getSubExpr()->IgnoreImplicit());
  return isa<InitListExpr>(E);
}

bool BodyInterpreter::isHostScalar(const VarDecl *VD) {
  if (!VD || VD->getType()->isReferenceType())
    return false;
  QualType T = VD->getType();
  return T->isArithmeticType() || T->isEnumeralType();
}

TaintValue BodyInterpreter::recordFields(const Expr *E) {
  E = skipValueWrappers(E);
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E); Ctor && Ctor->getNumArgs() == 1 &&
                                                                Ctor->getConstructor()->isCopyOrMoveConstructor())
    E = skipValueWrappers(Ctor->getArg(0));
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isLocal(VD) || !isHostRecord(VD))
    return {};
  TaintValue All;
  for (const auto &[Key, V] : S.Values)
    if (Key.first == VD && Key.second)
      All = join(All, V);
  return All;
}

bool BodyInterpreter::isHostRecord(const VarDecl *VD) {
  if (!VD || VD->getType()->isReferenceType() || !VD->getType()->isRecordType())
    return false;
  return !Api.holdsTensors(VD->getType()) && !Api.isHostContainer(VD->getType()) && !Api.isTensor(VD->getType()) &&
         !Api.isPlacementType(VD->getType());
}

TaintValue BodyInterpreter::writtenUnderControl(const Expr *Target, const Stmt *At, const char *Verb) {
  Target = Target->IgnoreParenImpCasts();
  // `++b.width` on a field of a local struct of host values: that field, field-sensitively.
  const FieldDecl *Field = nullptr;
  SourceLocation FieldLoc;
  if (const auto *ME = dyn_cast<MemberExpr>(Target)) {
    Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || !(Field->getType()->isArithmeticType() || Field->getType()->isEnumeralType()))
      return {};
    FieldLoc = ME->getMemberLoc();
    Target = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Target);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Field && !DRE)
    return elementWrittenUnderControl(Target, At, Verb);
  // A field of `this` (or of an object behind a pointer or reference): the object outlives the
  // call, so every condition this body is under decides whether it is written.
  if (Field && (!VD || !isLocal(VD) || VD->getType()->isReferenceType())) {
    TaintValue Under = reached();
    if (Under.empty())
      return {};
    return step(throughControl(Under, /*KeepSize=*/false), FieldLoc, At,
                std::string(Verb) + " here when a condition that follows tensor data holds");
  }
  // A number handed back through `int &count` (an NMS helper's kept count) is the caller's
  // variable: written under a condition or in a loop that follows tensor data, it leaves so.
  const bool ScalarOut = VD && isa<ParmVarDecl>(VD) && VD->getType()->isLValueReferenceType() &&
                         !VD->getType().getNonReferenceType().isConstQualified() &&
                         VD->getType().getNonReferenceType()->isArithmeticType();
  if (!(Field ? isHostRecord(VD) : (isHostScalar(VD) || ScalarOut)) || !isLocal(VD))
    return {};
  if (stepsALoop(VD)) {
    // What steps a loop follows its iterations, not a condition; but written in a loop nested in
    // that one (`while (n < max) { for (auto tok : step_tokens) ++n; }`), how far it moves
    // follows the nested loop's trip count (endLoop).
    if (steppedOutside(VD) && !WrittenInLoop.empty())
      WrittenInLoop.back().insert({VD, Field});
    return {};
  }
  if (!WrittenInLoop.empty())
    WrittenInLoop.back().insert({VD, Field});
  auto It = Declared.find(VD);
  TaintValue Under = reachedSince(It == Declared.end() ? Declaration{} : It->second, /*SkipLoops=*/true);
  if (Under.empty())
    return {};
  return step(throughControl(Under, /*KeepSize=*/false), DRE->getLocation(), At,
              std::string(Verb) + " here when a condition that follows tensor data holds");
}

TaintValue BodyInterpreter::elementWrittenUnderControl(const Expr *Target, const Stmt *At, const char *Verb) {
  const VarDecl *Root = rootVariable(Target);
  if (!Root || !isLocal(Root) || (Root->getType()->isReferenceType() && !isa<ParmVarDecl>(Root)))
    return {};
  QualType T = Root->getType().getNonReferenceType();
  // `sup[j] = 1` through a pointer to host numbers (a buffer's data() handed to a helper) writes
  // the caller's elements as well.
  const bool NumberPointer = T->isPointerType() && T->getPointeeType()->isArithmeticType();
  if (Api.isTensor(T) || Api.holdsTensors(T) || !(Api.isHostContainer(T) || T->isConstantArrayType() || NumberPointer))
    return {};
  if (!WrittenInLoop.empty())
    WrittenInLoop.back().insert({Root, nullptr});
  TaintValue Under = reachedSince(Root, /*SkipLoops=*/true);
  if (Under.empty())
    return {};
  return step(throughControl(Under, /*KeepSize=*/false), Target->getBeginLoc(), At,
              "an element of '" + nameOf(Root) + "' " + Verb + " here when a condition that follows tensor data holds");
}

void BodyInterpreter::endLoop(const llvm::SmallDenseSet<TaintKey, 4> &Counters, TaintValue Trip, size_t Depth,
                              const Stmt *Loop) {
  if (!WrittenInLoop.empty())
    WrittenInLoop.back().insert(Counters.begin(), Counters.end());
  if (Trip.empty())
    return;
  for (const TaintKey &Key : Counters) {
    const auto *VD = static_cast<const VarDecl *>(Key.first);
    auto It = Declared.find(VD);
    if (It != Declared.end() && It->second.Depth > Depth)
      continue; // declared inside the loop
    const unsigned Line = Ctx().getSourceManager().getExpansionLineNumber(Loop->getBeginLoc());
    TaintValue V = step(throughControl(Trip, /*KeepSize=*/true), Loop->getBeginLoc(), Loop,
                        "'" + nameOf(VD) + "' is written in the loop at line " + std::to_string(Line) +
                            ", whose trip count follows tensor data");
    writeKey(Key, join(S.get(Key), V), /*Strong=*/true);
  }
}

bool BodyInterpreter::stepsALoop(const VarDecl *VD) const {
  for (const auto &Head : LoopHeads)
    if (llvm::any_of(Head, [&](const Stmt *H) { return H && refersTo(H, VD); }))
      return true;
  return false;
}

bool BodyInterpreter::steppedOutside(const VarDecl *VD) const {
  for (size_t I = LoopHeads.size(); I-- > 0;)
    if (llvm::any_of(LoopHeads[I], [&](const Stmt *H) { return H && refersTo(H, VD); }))
      return I + 1 < LoopHeads.size();
  return false;
}

bool BodyInterpreter::refersTo(const Stmt *S, const VarDecl *VD) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    return true;
  for (const Stmt *C : S->children())
    if (C && refersTo(C, VD))
      return true;
  return false;
}

TaintValue BodyInterpreter::condition(const Expr *Cond, const VarDecl *CondVar, const Stmt *Owner) {
  if (CondVar)
    declare(CondVar);
  TaintValue V = eval(Cond);
  if (Owner && Api.isAssertion(*Owner, Ctx()))
    return {};
  use(V);
  return V;
}

template <typename HeadFn, typename BodyFn, typename IncFn>
void BodyInterpreter::loop(HeadFn Head, BodyFn Body, IncFn Inc, bool BodyFirst, const Stmt *Loop,
                           llvm::ArrayRef<const Stmt *> HeadStmts) {
  TaintState Entry = S;
  TaintState Exit = TaintState::unreachable();
  TaintValue Trip;
  const size_t Depth = Control.size();
  WrittenInLoop.emplace_back();
  BreakConditions.emplace_back();
  GrownInLoop.emplace_back();
  LoopHeads.emplace_back(HeadStmts.begin(), HeadStmts.end());
  LoopDepths.insert(Depth);
  for (unsigned Round = 0; Round < 8; ++Round) {
    TaintState Start = S;
    TaintValue TripBefore = Trip;
    Jumps.emplace_back();
    if (!BodyFirst) {
      Trip = join(Trip, Head());
      Exit = joinStates(Exit, S);
    }
    Control.push_back(Trip);
    Body();
    JumpTargets J = std::move(Jumps.back());
    Jumps.pop_back();
    for (const TaintState &C : J.Continues)
      S = joinStates(S, C);
    Trip = join(Trip, BreakConditions.back());
    Trip = join(Trip, Inc());
    if (BodyFirst) {
      Trip = join(Trip, Head());
      Exit = joinStates(Exit, S);
    }
    Control.pop_back();
    for (const TaintState &B : J.Breaks)
      Exit = joinStates(Exit, B);
    TaintState Next = joinStates(Entry, S);
    Next.Unreachable = false;
    if (sameFacts(Next, Start) && Trip.sameKind(TripBefore)) {
      S = std::move(Next);
      break;
    }
    S = std::move(Next);
  }
  S = joinStates(Exit, S);
  S.Unreachable = Exit.Unreachable && S.Unreachable;
  S.LoopExits = Entry.LoopExits;
  LoopDepths.erase(Depth);
  llvm::SmallDenseSet<TaintKey, 4> Counters = std::move(WrittenInLoop.back());
  WrittenInLoop.pop_back();
  BreakConditions.pop_back();
  LoopHeads.pop_back();
  endLoop(Counters, Trip, Depth, Loop);
  auto Grown = std::move(GrownInLoop.back());
  GrownInLoop.pop_back();
  endGrowth(Grown, Trip, Loop);
}

void BodyInterpreter::stmt(const Stmt *St) {
  if (!St)
    return;
  if (const auto *E = dyn_cast<Expr>(St)) {
    eval(E);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    for (const Stmt *Child : CS->body())
      stmt(Child);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        declare(VD);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(St)) {
    stmt(If->getInit());
    if (If->isConsteval()) {
      stmt(If->getThen());
      return;
    }
    TaintValue Cond = condition(If->getCond(), If->getConditionVariable(), If);
    Control.push_back(Cond);
    TaintState Before = S;
    stmt(If->getThen());
    TaintState AfterThen = std::move(S);
    S = std::move(Before);
    stmt(If->getElse());
    Control.pop_back();
    bool ThenLeaves = AfterThen.Unreachable, ElseLeaves = S.Unreachable;
    // `if (!device.is_cpu()) t = t.cpu();`: on the other path the device is the CPU.
    if (std::optional<bool> ThenOnCpu = cpuDeviceTest(If->getCond()))
      holdCopiesOnCpuPath(*ThenOnCpu ? AfterThen : S, *ThenOnCpu ? S : AfterThen);
    S = joinStates(AfterThen, S);
    // `if (v.empty()) return;` (or `if (!v.empty()) ... else return;`): v holds an element after.
    if (ThenLeaves != ElseLeaves)
      if (auto [Container, Negated] = emptinessTest(If->getCond()); Container && Negated == ElseLeaves)
        S.NonEmpty.insert(Container);
    // `if (score < t) continue;`: what follows runs only for some values.
    if (!Cond.empty() && ThenLeaves != ElseLeaves) {
      Exits J;
      findExits(ThenLeaves ? If->getThen() : If->getElse(), J);
      if (J.Returns)
        S.FunctionExits = join(S.FunctionExits, Cond);
      // After `if (s < t) continue;` the rest of the body runs in some iterations only; after
      // `if (tok == eos) break;` it runs in every iteration up to the last, so what it computes
      // in iteration i is the same whenever the loop gets there, and only the number of
      // iterations follows the data: the loop's trip count (what it writes is data dependent
      // after the loop, endLoop).
      if (J.Continues)
        S.LoopExits = join(S.LoopExits, Cond);
      if (J.Breaks && !BreakConditions.empty())
        BreakConditions.back() = join(BreakConditions.back(), Cond);
    }
    return;
  }
  if (const auto *W = dyn_cast<WhileStmt>(St)) {
    loop([&] { return condition(W->getCond(), W->getConditionVariable(), nullptr); },
         [&] { stmt(W->getBody()); }, [] { return TaintValue{}; }, /*BodyFirst=*/false, W, {W->getCond()});
    return;
  }
  if (const auto *D = dyn_cast<DoStmt>(St)) {
    loop([&] { return condition(D->getCond(), nullptr, nullptr); }, [&] { stmt(D->getBody()); },
         [] { return TaintValue{}; }, /*BodyFirst=*/true, D, {D->getCond()});
    return;
  }
  if (const auto *F = dyn_cast<ForStmt>(St)) {
    stmt(F->getInit());
    loop(
        [&] {
          return F->getCond() ? condition(F->getCond(), F->getConditionVariable(), nullptr) : TaintValue{};
        },
        [&] { stmt(F->getBody()); },
        [&] {
          TaintValue Step = eval(F->getInc());
          use(Step);
          return Step;
        },
        /*BodyFirst=*/false, F, {F->getCond(), F->getInc()});
    return;
  }
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(St)) {
    stmt(RF->getInit());
    const Expr *RangeInit = RF->getRangeInit();
    TaintValue Range = eval(RangeInit);
    // Over a container, the trip count is its number of elements; the loop variable holds
    // one of them.
    TaintValue Trip = Range;
    if (RangeInit && Api.isHostContainer(RangeInit->getType())) {
      Trip = sizeOf(RangeInit, Range);
      Range = elementsOf(RangeInit, Range);
      Facts.replaceTaint(RangeInit, Trip.origin());
    }
    use(Trip);
    const VarDecl *LoopVar = RF->getLoopVariable();
    loop(
        [&] {
          if (LoopVar && Api.holdsTensors(LoopVar->getType()))
            setShapeOf(LoopVar, dynamicShape(RF->getRangeInit()), LoopVar->getLocation(), RF->getRangeInit(),
                       /*Strong=*/true);
          if (LoopVar && !Api.isTensor(LoopVar->getType()))
            setVar(LoopVar, Range, LoopVar->getLocation(), RF->getRangeInit(), true);
          else if (LoopVar)
            S.Masks.erase(LoopVar);
          // Each element of a list of host tensors (`for (const auto &d : per_image)`) is one.
          const bool TensorVar = LoopVar && RangeInit && Api.isTensor(LoopVar->getType());
          if (const Expr *Host = TensorVar ? heldInHost(RangeInit) : nullptr)
            S.HostTensors[LoopVar] = Host;
          else if (LoopVar)
            S.HostTensors.erase(LoopVar);
          return Trip;
        },
        [&] { stmt(RF->getBody()); }, [] { return TaintValue{}; }, /*BodyFirst=*/false, RF, {});
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(St)) {
    stmt(Sw->getInit());
    TaintValue Cond = condition(Sw->getCond(), Sw->getConditionVariable(), Sw);
    Control.push_back(Cond);
    TaintState Entry = S;
    S.Unreachable = true; // code before the first label is not reached
    Jumps.emplace_back();
    SwitchEntry.push_back(&Entry);
    stmt(Sw->getBody());
    SwitchEntry.pop_back();
    Control.pop_back();
    JumpTargets J = std::move(Jumps.back());
    Jumps.pop_back();
    for (const TaintState &B : J.Breaks)
      S = joinStates(S, B);
    bool HasDefault = false;
    for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase())
      HasDefault |= isa<DefaultStmt>(SC);
    if (!HasDefault)
      S = joinStates(S, Entry);
    // Continues inside a switch belong to the enclosing loop.
    if (!J.Continues.empty() && !Jumps.empty())
      for (TaintState &C : J.Continues)
        Jumps.back().Continues.push_back(std::move(C));
    return;
  }
  if (const auto *SC = dyn_cast<SwitchCase>(St)) {
    if (!SwitchEntry.empty())
      S = joinStates(S, *SwitchEntry.back());
    stmt(SC->getSubStmt());
    return;
  }
  if (isa<BreakStmt>(St)) {
    if (!Jumps.empty())
      Jumps.back().Breaks.push_back(S);
    S.Unreachable = true;
    return;
  }
  if (isa<ContinueStmt>(St)) {
    if (!Jumps.empty())
      Jumps.back().Continues.push_back(S);
    S.Unreachable = true;
    return;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(St)) {
    if (const Expr *V = R->getRetValue()) {
      TaintValue RV = join(eval(V), recordFields(V));
      if (InRegion)
        use(RV); // a region's result is the graph's output
      if (!Api.isHostContainer(FD->getReturnType())) {
        Ret = join(Ret, RV);
      } else if (auto Parts = containerParts(V)) {
        Ret = join(Ret, Parts->first);
        RetSize = join(RetSize, Parts->second);
      } else {
        Ret = join(Ret, RV);
        RetSize = join(RetSize, RV);
      }
      RetShape = join(RetShape, dynamicShape(V));
      AllReturnsMask = AllReturnsMask && isMask(V);
      // A tensor, or a list of tensors (`return output;` of rows copied to the host one by one),
      // as the walk knows it here; a record of tensors, field by field.
      const bool TensorOrList =
          Api.isTensor(V->getType()) || (Api.isHostContainer(V->getType()) && Api.holdsTensors(V->getType()));
      AllReturnsHost = AllReturnsHost && A.realHostOrigin(TensorOrList ? hostResident(withoutCopy(V)) : hostRecord(V));
      SawReturn = true;
    }
    Exit = joinStates(Exit, S);
    S.Unreachable = true;
    return;
  }
  if (const auto *Try = dyn_cast<CXXTryStmt>(St)) {
    tryStatement(*Try);
    return;
  }
  if (const auto *L = dyn_cast<LabelStmt>(St)) {
    stmt(L->getSubStmt());
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(St)) {
    stmt(AS->getSubStmt());
    return;
  }
  // Anything else (asm, goto, coroutines): visit the expressions it holds.
  for (const Stmt *Child : St->children())
    stmt(Child);
}

std::pair<const VarDecl *, bool> BodyInterpreter::emptinessTest(const Expr *Cond) {
  bool Negated = false;
  for (Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr; Cond;) {
    const auto *Not = dyn_cast<UnaryOperator>(Cond);
    if (!Not || Not->getOpcode() != UO_LNot)
      break;
    Negated = !Negated;
    Cond = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Cond);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "empty" || Call->getNumArgs() != 0)
    return {nullptr, false};
  const Expr *Object = Call->getImplicitObjectArgument();
  const auto *DRE = Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isLocal(VD) || !Api.isHostContainer(VD->getType()))
    return {nullptr, false};
  return {VD, Negated};
}

} // namespace graphify::taint
