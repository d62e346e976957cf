// The interpreter's entry points, the origins it extends step by step, and its storage:
// variables, fields and globals, strong and weak updates (BodyInterpreter.h).
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

void BodyInterpreter::seedParameters() {
  for (const ParmVarDecl *P : FD->parameters()) {
    unsigned I = P->getFunctionScopeIndex();
    TaintValue V{nullptr, paramBit(I), A.paramEntry(FD, I)};
    // A tensor parameter's bit and call-site entry stand for its shape; it is in host memory
    // when the caller's argument is.
    if (Api.isTensor(P->getType())) {
      S.DynamicShapes[P] = V;
      const Expr *Host = A.alwaysGivenHost(FD, I);
      S.HostTensors[P] = Host ? Host : A.paramPlaceholder(P);
      if (A.alwaysGivenMask(FD, I))
        S.Masks.insert(P);
      continue;
    }
    // A host record (isTensorRecord) every call passes with its tensors in host memory.
    if (isTensorRecord(P->getType()))
      if (const Expr *Host = A.alwaysGivenHost(FD, I))
        S.HostTensors[P] = Host;
    S.Values[{P, nullptr}] = V;
    if (Api.isHostContainer(P->getType()))
      S.Values[sizeKey(P)] = {nullptr, sizeBit(I), A.paramEntry(FD, I, /*Size=*/true)};
  }
}

void BodyInterpreter::runConstructorInits() {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
  if (!Ctor)
    return;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten() || !Init->getMember())
      continue;
    TaintValue V = eval(Init->getInit());
    writeField(nullptr, Init->getMember(), V, Init->getMemberLocation(), Init->getInit(),
               /*Strong=*/true, /*Whole=*/true);
    if (Api.isTensor(Init->getMember()->getType()))
      rebindField(Init->getMember(), Init->getInit());
    if (TaintValue Shape = dynamicShape(Init->getInit()); Shape.tainted() && !A.FieldShapes.count(Init->getMember()))
      A.FieldShapes[Init->getMember()] =
          step(Shape, Init->getMemberLocation(), Init->getInit(),
               "stored in field '" + nameOf(Init->getMember()) + "' here").origin();
  }
}

void BodyInterpreter::runBody(const Stmt *Body) {
  stmt(Body);
  Exit = joinStates(Exit, S);
  recordFieldExits();
}

void BodyInterpreter::seedFields() {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getParent())
    return;
  for (const FieldDecl *F : MD->getParent()->fields()) {
    if (Api.isTensor(F->getType()) && F->hasInClassInitializer() && F->getInClassInitializer())
      noteFieldAtExit(F, hostResident(F->getInClassInitializer()));
    // A list field every method fills with host tensors: its elements are, whenever a method starts.
    if (!Api.isTensor(F->getType()) && Api.holdsTensors(F->getType())) {
      auto [It, New] = A.HostFilledFieldLists.try_emplace(F, nullptr);
      if (New)
        It->second = hostFilledFieldList(F, Api);
      if (It->second)
        S.HostTensors[F] = It->second;
    }
  }
  for (const auto &[F, Origin] : A.FieldHostWrites)
    if (!A.FieldOtherWrites.contains(F))
      S.HostTensors[F] = Origin;
}

FunctionSummary BodyInterpreter::summarize() const {
  FunctionSummary Sum;
  Sum.Return = {Ret.Origin, Ret.Params, nullptr};
  Sum.ReturnShape = {RetShape.Origin, RetShape.Params, nullptr, RetShape.AnyDim, RetShape.Dims, RetShape.ParamDimsMoved};
  Sum.ReturnSize = {RetSize.Origin, RetSize.Params, nullptr};
  Sum.ReturnsMask = SawReturn && AllReturnsMask;
  Sum.ReturnsHost = SawReturn && AllReturnsHost;
  Sum.SawReturn = SawReturn;
  Sum.WritesFields = FieldsWritten;
  Sum.RebindsTensorFields = TensorFieldsRebound;
  Sum.RebindsAnyTensorField = MayRebindAnyTensorField;
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    bool Out = mayWriteThrough(T);
    bool Container = Out && Api.isHostContainer(T);
    unsigned I = P->getFunctionScopeIndex();
    // A parameter that still holds only its own incoming value carries no news for callers.
    auto News = [&](TaintValue V) {
      V.Context = nullptr;
      return !V.Origin && (V.Params == paramBit(I) || V.Params == sizeBit(I)) ? TaintValue{} : V;
    };
    if (!Out) {
      Sum.Out.push_back({});
      Sum.OutSize.push_back({});
    } else if (Container) {
      Sum.Out.push_back(News(Exit.get({P, nullptr})));
      Sum.OutSize.push_back(News(Exit.get(sizeKey(P))));
    } else {
      Sum.Out.push_back(News(join(Exit.get({P, nullptr}), Exit.get(sizeKey(P)))));
      Sum.OutSize.push_back({});
    }
    bool TensorOut = T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() && Api.isTensor(T);
    Sum.OutHost.push_back(TensorOut && !Exit.Unreachable ? Exit.HostTensors.lookup(P) : nullptr);
  }
  return Sum;
}

const TaintState &BodyInterpreter::exitState() const { return Exit; }

const TracedOrigin *BodyInterpreter::extend(const TracedOrigin *O, SourceLocation Loc, const Stmt *At,
                                            const std::string &Msg) {
  if (!O)
    return O;
  if (!O->StepLocs.empty() && O->StepLocs.back() == Loc && O->Steps.back().second == Msg)
    return O;
  if (O->Steps.size() >= 8)
    return O;
  TracedOrigin *N = Facts.newOrigin();
  *N = *O;
  N->Steps.push_back({At, Msg});
  N->StepLocs.push_back(Loc);
  return N;
}

TaintValue BodyInterpreter::step(TaintValue V, SourceLocation Loc, const Stmt *At, const std::string &Msg) {
  V.Origin = extend(V.Origin, Loc, At, Msg);
  V.Context = extend(V.Context, Loc, At, Msg);
  return V;
}

TracedOrigin *BodyInterpreter::source(const ApiCall &C, const ApiEntry &Entry) {
  TracedOrigin *O = Facts.newOrigin();
  O->Source = C.Call;
  O->SourceLoc = C.NameLoc;
  O->What = "'" + C.Name + "'" + (Entry.Doc.empty() ? "" : " " + Entry.Doc);
  return O;
}

void BodyInterpreter::use(TaintValue V) {
  if (V.Origin)
    Facts.recordUse(V.Origin->Source);
  if (V.Context)
    Facts.recordUse(V.Context->Source);
}

TaintValue BodyInterpreter::readVar(const VarDecl *VD) {
  if (isLocal(VD))
    return Api.isHostContainer(VD->getType()) || keepsElementShapes(VD)
               ? join(S.get({VD, nullptr}), S.get(sizeKey(VD)))
               : S.get({VD, nullptr});
  auto It = A.GlobalTaint.find(VD);
  return {It == A.GlobalTaint.end() ? A.importedGlobal(VD) : It->second, 0};
}

TaintValue BodyInterpreter::fieldTaint(const FieldDecl *F) {
  auto It = A.FieldTaint.find(F);
  return {It == A.FieldTaint.end() ? A.importedField(F) : It->second, 0};
}

TaintValue BodyInterpreter::fieldSize(const FieldDecl *F) {
  auto It = A.FieldSizes.find(F);
  return {It == A.FieldSizes.end() ? A.importedFieldSize(F) : It->second, 0};
}

TaintValue BodyInterpreter::reached() const { return reachedSince(Declaration{}); }

TaintValue BodyInterpreter::reachedSince(const Declaration &D, bool SkipLoops) const {
  TaintValue V;
  for (size_t I = D.Depth; I < Control.size(); ++I)
    if (!SkipLoops || !LoopDepths.contains(I))
      V = join(V, Control[I]);
  auto Same = [](const TaintValue &X, const TaintValue &Y) {
    return X.Origin == Y.Origin && X.Context == Y.Context && X.Params == Y.Params;
  };
  if (!Same(S.LoopExits, D.LoopExits))
    V = join(V, S.LoopExits);
  if (!Same(S.FunctionExits, D.FunctionExits))
    V = join(V, S.FunctionExits);
  return V;
}

TaintValue BodyInterpreter::reachedSince(const VarDecl *VD, bool SkipLoops) const {
  auto It = Declared.find(VD);
  Declaration D = It == Declared.end() ? Declaration{} : It->second;
  if (auto E = S.Emptied.find(VD); E != S.Emptied.end()) {
    D.LoopExits = E->second.LoopExits;
    D.FunctionExits = E->second.FunctionExits;
    D.Depth = std::max(D.Depth, E->second.Depth);
  }
  // A local of the innermost loop's body is made again in every iteration: an iteration that
  // left early (`continue`) never gets to use it, so those exits say nothing about its value.
  // (Declared there, not emptied there: a list cleared in each iteration keeps what the last one
  // added after the loop, which a `continue` decides.)
  if (It != Declared.end() && !LoopDepths.empty() && It->second.Depth > *llvm::max_element(LoopDepths) &&
      !VD->getType()->isReferenceType())
    D.LoopExits = S.LoopExits;
  return reachedSince(D, SkipLoops);
}

void BodyInterpreter::setVar(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At, bool Strong,
                             std::optional<std::string> Note) {
  if (Api.isTensor(VD->getType()))
    return;
  std::string Msg = Note ? *Note : "assigned to '" + nameOf(VD) + "' here";
  if (!Msg.empty())
    V = step(V, Loc, At, Msg);
  if (!isLocal(VD)) {
    if (V.tainted() && !A.GlobalTaint.count(VD))
      A.GlobalTaint[VD] = V.origin();
    return;
  }
  writeKey({VD, nullptr}, V, Strong);
  // A whole container is replaced (or written by a call we cannot see): its number of
  // elements comes with the value, and with the conditions under which it is replaced
  // (`if (s > best) top = {i};`).
  if (Api.isHostContainer(VD->getType()) || keepsElementShapes(VD))
    writeKey(sizeKey(VD), join(V, replacedUnder(VD)), Strong);
}

TaintValue BodyInterpreter::replacedUnder(const VarDecl *VD) {
  // Replaced in each iteration of a loop whose trip count follows the data, a container holds
  // what that iteration put there (`cache = step(tok, cache)` after an `if (tok == eos) break;`);
  // after the loop, what the last iteration did (endLoop).
  if (!WrittenInLoop.empty())
    WrittenInLoop.back().insert(sizeKey(VD));
  return reachedSince(VD, /*SkipLoops=*/true);
}

void BodyInterpreter::writeKey(TaintKey K, TaintValue V, bool Strong) {
  if (K.second == &ContainerSizeSlot)
    S.NonEmpty.erase(K.first); // its length changes: whether it holds an element is asked again
  if (Strong) {
    if (V.empty())
      S.Values.erase(K);
    else
      S.Values[K] = V;
  } else if (!V.empty()) {
    S.Values[K] = join(S.get(K), V);
  }
}

void BodyInterpreter::storeElement(const VarDecl *VD, TaintValue V, SourceLocation Loc, const Stmt *At) {
  if (Api.isTensor(VD->getType()))
    return;
  V = step(V, Loc, At, "stored into '" + nameOf(VD) + "' here");
  if (!isLocal(VD)) {
    if (V.tainted() && !A.GlobalTaint.count(VD))
      A.GlobalTaint[VD] = V.origin();
    return;
  }
  writeKey({VD, nullptr}, V, /*Strong=*/false);
  if (keepsElementShapes(VD)) // an element replaced: its shape too
    writeKey(sizeKey(VD), V, /*Strong=*/false);
}

void BodyInterpreter::growField(const FieldDecl *F, TaintValue V, SourceLocation Loc, const Stmt *At) {
  if (V.tainted() && !A.FieldSizes.count(F))
    A.FieldSizes[F] = step(V, Loc, At, "the length of '" + nameOf(F) + "' follows tensor data from here").origin();
}

void BodyInterpreter::writeField(const VarDecl *Base, const FieldDecl *F, TaintValue V, SourceLocation Loc,
                                 const Stmt *At, bool Strong, bool Whole, const char *Verb) {
  if (Api.isTensor(F->getType()))
    return;
  if (F->getType()->isArithmeticType() || F->getType()->isEnumeralType())
    noteFieldWritten(F);
  V = step(V, Loc, At, std::string(Verb) + " '" + nameOf(F) + "' here");
  // Only region code's writes make the TU-wide fact: what code outside the regions leaves in a
  // field (a tracker's other method, a setup step) is there when a region starts, an input of
  // the captured call like a host parameter, fixed for its replay.
  if (V.tainted() && InRegion && !A.FieldTaint.count(F))
    A.FieldTaint[F] = V.origin();
  if (Whole && InRegion && Api.isHostContainer(F->getType()) && V.tainted() && !A.FieldSizes.count(F))
    A.FieldSizes[F] = V.origin();
  if (Base && !isLocal(Base))
    return;
  TaintKey K{Base, F};
  if (Strong || !S.Values.count(K))
    S.Values[K] = V;
  else
    S.Values[K] = join(S.get(K), V);
}

void BodyInterpreter::assign(const Expr *LHS, TaintValue V, const Stmt *At) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      setVar(VD, V, DRE->getLocation(), At, /*Strong=*/!VD->getType()->isReferenceType() ||
                                                      isa<ParmVarDecl>(VD));
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base))
        writeField(nullptr, F, V, ME->getMemberLoc(), At, true, /*Whole=*/true);
      else if (const auto *BD = dyn_cast<DeclRefExpr>(Base); BD && isa<VarDecl>(BD->getDecl()))
        writeField(cast<VarDecl>(BD->getDecl()), F, V, ME->getMemberLoc(), At, true, /*Whole=*/true);
      else
        writeField(rootVariable(Base), F, V, ME->getMemberLoc(), At, false, /*Whole=*/true);
      return;
    }
  }
  // `*out = v` on a pointer parameter overwrites what it points to.
  if (const auto *UO = dyn_cast<UnaryOperator>(LHS); UO && UO->getOpcode() == UO_Deref)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        setVar(VD, V, DRE->getLocation(), At, true);
        return;
      }
  // An element (`v[i] = s`, `p->x = s`): the container holds it, its length stays.
  if (const VarDecl *Root = rootVariable(LHS))
    storeElement(Root, V, LHS->getBeginLoc(), At);
  else if (const FieldDecl *F = rootThisField(LHS))
    writeField(nullptr, F, V, LHS->getBeginLoc(), At, /*Strong=*/false, /*Whole=*/false);
}

void BodyInterpreter::noteFieldWritten(const FieldDecl *F) {
  if (!llvm::is_contained(FieldsWritten, F))
    FieldsWritten.push_back(F);
}

void BodyInterpreter::fieldsWrittenUnderControl(const ApiCall &C, const FunctionSummary &Sum) {
  for (const FieldDecl *F : Sum.WritesFields)
    noteFieldWritten(F);
  TaintValue Under = Sum.WritesFields.empty() ? TaintValue{} : reached();
  if (Under.empty())
    return;
  const TaintValue V = step(throughControl(Under, /*KeepSize=*/false), C.NameLoc, C.Call,
                            calleeName(C.Callee) + " is called here when a condition that follows tensor data holds");
  // A method of a local object writes that object's fields; anything else, fields TU-wide.
  const VarDecl *Object = nullptr;
  if (passesObject(C))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(C.Args[0]->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD) && !VD->getType()->isReferenceType())
        Object = VD;
  for (const FieldDecl *F : Sum.WritesFields)
    writeField(Object, F, V, C.NameLoc, C.Call, /*Strong=*/false, /*Whole=*/false, "which sets");
}

} // namespace graphify::taint
