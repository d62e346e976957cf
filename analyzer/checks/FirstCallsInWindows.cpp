// Lazy initialisation in capture windows. Invariant: a first-call hazard is reported only when no
// call of the same function can have run before the window on the window's own function's path
// in source order (a warm-up call of it, or of any function that reaches it), so a capture preceded
// by one eager run of the same step is never reported.
#include "FirstCallsInWindows.h"

#include "LazyInit.h"
#include "lib/CallTargets.h"
#include "lib/ObjectClasses.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringSet.h>

#include <set>
#include <string>

namespace graphify {

using namespace clang;

namespace {

const Decl *canon(const Decl *D) { return D ? D->getCanonicalDecl() : nullptr; }

/// The calls written in a body, the lambdas' included unless `IntoLambdas` is false (the calls a
/// body runs itself: a lambda written there runs when it is called).
class CallLister : public RecursiveASTVisitor<CallLister> {
public:
  explicit CallLister(bool IntoLambdas = true) : IntoLambdas(IntoLambdas) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  std::vector<const CallExpr *> Calls;
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    return !IntoLambdas || RecursiveASTVisitor<CallLister>::TraverseLambdaExpr(LE);
  }
  bool VisitCallExpr(CallExpr *CE) {
    Calls.push_back(CE);
    return true;
  }

private:
  bool IntoLambdas;
};

std::vector<const CallExpr *> callsIn(const Stmt *Body) {
  CallLister L;
  L.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(L.Calls);
}

/// The static locals `Body` declares with an initialiser: the function's first call runs it.
std::vector<const VarDecl *> staticLocalsIn(const Stmt *Body) {
  std::vector<const VarDecl *> Out;
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->isStaticLocal() && VD->getInit())
          Out.push_back(VD);
    Work.append(S->child_begin(), S->child_end());
  }
  return Out;
}

/// The calls a constructor runs: its member initialisers' and its body's.
std::vector<const CallExpr *> callsOfConstructor(const CXXConstructorDecl &Ctor) {
  CallLister L(/*IntoLambdas=*/false);
  for (const CXXCtorInitializer *Init : Ctor.inits())
    if (Init->isWritten() && Init->getInit())
      L.TraverseStmt(Init->getInit());
  if (Ctor.hasBody())
    L.TraverseStmt(Ctor.getBody());
  return std::move(L.Calls);
}

/// The object a method call is made on, when warm-ups can be matched to it: a field of `this`
/// (`aux_->enqueueV3(s)` in a method: `aux_`), as an engine keeps one execution context per
/// profile, or a local object of the calling function (`torch::nn::Linear head(64, 2);` in
/// `main`). A module run through its holder counts as that object too (`head_->forward(h)`,
/// `head(h)`). Null for anything else (a parameter, a reference, a temporary): that object may be
/// any other, so a warm-up of the same function on an unnamed object counts for it (warms()).
const ValueDecl *ownObject(const CallExpr *CE) {
  const Expr *Object = nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    Object = MCE->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE); Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    Object = Op->getArg(0);
  if (!Object)
    return nullptr;
  const Expr *Base = CallTargets::throughAccess(Object);
  if (const auto *ME = dyn_cast<MemberExpr>(Base))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

/// The key a reached first call is known by: its entry's name, with the object it is called on
/// (a local is made unique by its declaration: two functions' `head` are different objects).
std::string keyOf(const ApiEntry &E, const CallExpr *CE) {
  // What several entries share (the cuBLAS handle of matmul, mm, linear): one for the process.
  if (!E.LazyResource.empty())
    return "resource:" + E.LazyResource;
  const ValueDecl *O = ownObject(CE);
  if (!O)
    return E.Name;
  if (isa<FieldDecl>(O))
    return E.Name + "@" + O->getQualifiedNameAsString();
  return E.Name + "@" + O->getNameAsString() + "#" + std::to_string(reinterpret_cast<uintptr_t>(O->getCanonicalDecl()));
}

/// Whether a warm-up that reached `Keys` ran the first call known by `Key`: the same function
/// on the same field, or on an object graphify cannot name (which may be that field).
bool warms(const llvm::StringSet<> &Keys, llvm::StringRef Key) {
  llvm::StringRef Name = Key.split('@').first;
  if (Keys.contains(Key) || Keys.contains(Name))
    return true;
  if (Key.contains('@'))
    return false;
  return llvm::any_of(Keys, [&](const auto &K) { return K.getKey().split('@').first == Name; });
}

/// The object a method call is made on, as a declaration (`r` in `r.warmup()`), or null.
const Decl *objectOf(const CallExpr *CE) {
  const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *O = MCE ? MCE->getImplicitObjectArgument() : nullptr;
  if (!O)
    return nullptr;
  O = O->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(O))
    return MCE->getMethodDecl() ? MCE->getMethodDecl()->getParent() : nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(O))
    return DRE->getDecl()->getCanonicalDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(O))
    return ME->getMemberDecl()->getCanonicalDecl();
  return nullptr;
}

/// What one call runs: the tagged entries it is (a GEMM, or the forward of a library module it
/// runs through a holder) and the bodies it enters (its callee, the overriders of a virtual
/// call, the callables a holder was given, the forwards of the modules a holder was given).
struct CallRuns {
  llvm::SmallVector<const ApiEntry *, 2> Entries;
  llvm::SmallVector<const FunctionDecl *, 4> Bodies;
  /// A capture-unsafe call in user-written lazy initialisation: its entry and how warm-ups name
  /// the initialising function (LazyInit::key).
  const ApiEntry *LazyEntry = nullptr;
  std::optional<LazyInit> Lazy;
};

/// Which tagged functions each analysed body reaches, directly or through the bodies it calls,
/// and which calls enter each body (for warm-ups written in a caller).
class Reach {
public:
  Reach(const AnalysisContext &Ctx)
      : Ctx(Ctx), Targets(Ctx.functions(), Ctx.api()), Classes(Ctx.ast(), Ctx.regions().wholeProgram()) {
    for (const FunctionDecl *FD : Ctx.functions())
      Bodies[canon(FD)] = FD;
  }

  /// What `CE` runs, computed once: the window walks, the warm-up searches and the callers' index
  /// all ask of the same calls.
  const CallRuns &runs(const CallExpr *CE) {
    if (auto It = Runs.find(CE); It != Runs.end())
      return It->second;
    CallRuns Out = computeRuns(CE);
    return Runs[CE] = std::move(Out);
  }

  CallRuns computeRuns(const CallExpr *CE) const {
    CallRuns Out;
    auto C = Ctx.api().resolve(CE);
    if (const ApiEntry *E = C ? C->entryWithTag("first_call_allocates") : nullptr) {
      Out.Entries.push_back(E);
      return Out;
    }
    if (C && C->hasTag("runs_held_modules")) {
      for (const CXXRecordDecl *M : Targets.modulesRunBy(C->arg(0)).Modules)
        for (const CXXMethodDecl *F : CallTargets::forwardsOf(M)) {
          if (const FunctionDecl *B = body(F)) {
            Out.Bodies.push_back(B);
            continue;
          }
          for (const ApiEntry *E : Ctx.api().memberEntries(*F, F->getNumParams() + 1))
            if (E->hasTag("first_call_allocates"))
              Out.Entries.push_back(E);
        }
      return Out;
    }
    if (const ApiEntry *E = C ? C->entryWithTag("runs_callables") : nullptr) {
      for (unsigned Pos : E->CallableArgs)
        for (const Decl *D : CallTargets::callOperators(C->arg(Pos)))
          if (const FunctionDecl *B = body(dyn_cast<FunctionDecl>(D)))
            Out.Bodies.push_back(B);
      return Out;
    }
    if (C && !C->Entries.empty()) {
      if (const ApiEntry *Unsafe = C->entryWithTag("capture_unsafe"))
        if ((Out.Lazy = lazyInitOf(*CE, Ctx.ast())))
          Out.LazyEntry = Unsafe;
      return Out; // described by the packs, not by its body
    }
    if (const FunctionDecl *B = body(CE->getDirectCallee()))
      Out.Bodies.push_back(B);
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE); MCE && CallTargets::dispatchesVirtually(*MCE))
      for (const CXXMethodDecl *O : Classes.mayRun(*MCE, Targets.overriders(MCE->getMethodDecl())))
        if (const FunctionDecl *B = body(O))
          Out.Bodies.push_back(B);
    bool Indirect = false;
    if (const ValueDecl *Holder = CallTargets::holderOf(*CE, Indirect))
      for (const Decl *D : Targets.heldBy(Holder).Bodies)
        if (const FunctionDecl *B = body(dyn_cast<FunctionDecl>(D)))
          Out.Bodies.push_back(B);
    return Out;
  }

  /// The `first_call_allocates` entries `FD`'s body reaches (keyOf: by entry name and field).
  const llvm::StringSet<> &of(const FunctionDecl *FD) {
    const Decl *Key = canon(FD);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second;
    Memo[Key]; // empty while in progress: recursion reaches nothing new
    llvm::StringSet<> Found;
    // Its first call initialises its static locals (LazyInit.h).
    if (const FunctionDecl *Def = body(FD); Def && !staticLocalsIn(Def->getBody()).empty())
      Found.insert("lazy:" + Def->getQualifiedNameAsString());
    if (const FunctionDecl *Def = body(FD))
      for (const CallExpr *CE : callsIn(Def->getBody())) {
        CallRuns R = runs(CE);
        for (const ApiEntry *E : R.Entries)
          Found.insert(keyOf(*E, CE));
        if (R.Lazy)
          Found.insert(R.Lazy->key());
        for (const FunctionDecl *B : R.Bodies)
          for (const auto &N : of(B))
            Found.insert(N.getKey());
      }
    Memo[Key] = std::move(Found);
    return Memo[Key];
  }

  /// The body of an analysed function, or of a lambda written in one.
  const FunctionDecl *body(const FunctionDecl *FD) const {
    if (!FD)
      return nullptr;
    if (const FunctionDecl *B = Bodies.lookup(canon(FD)))
      return B;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    return MD && MD->getParent()->isLambda() && MD->hasBody() ? MD : nullptr;
  }

  /// The calls, in the analysed functions, that enter `FD` (with the function they are in).
  using CallSite = std::pair<const FunctionDecl *, const CallExpr *>;
  llvm::ArrayRef<CallSite> callersOf(const FunctionDecl *FD) {
    if (!CallersIndexed) {
      CallersIndexed = true;
      for (const FunctionDecl *Caller : Ctx.functions())
        for (const CallExpr *CE : callsIn(Caller->getBody()))
          for (const FunctionDecl *B : runs(CE).Bodies)
            Callers[canon(B)].push_back({Caller, CE});
    }
    auto It = Callers.find(canon(FD));
    if (It == Callers.end())
      return {};
    return It->second;
  }

private:
  const AnalysisContext &Ctx;
  CallTargets Targets;
  ObjectClasses Classes;
  llvm::DenseMap<const Decl *, const FunctionDecl *> Bodies;
  llvm::DenseMap<const Decl *, llvm::StringSet<>> Memo;
  llvm::DenseMap<const CallExpr *, CallRuns> Runs;
  bool CallersIndexed = false;
  llvm::DenseMap<const Decl *, std::vector<CallSite>> Callers;
};

/// A tagged call reached from a window, and the entry it runs; for lazy initialisation, the
/// function that initialises.
struct Reached {
  const CallExpr *Call;
  const ApiEntry *Entry;
  std::optional<LazyInit> Lazy;
  /// The named object (a local or a parameter, and the fields on the way) of the window's own
  /// call that reaches it (`draft.step()`, `at.proj.run()`), or empty: a warm-up on another named
  /// object does not count (namedObject, mayWarm).
  std::string Root;
  std::string key() const { return Lazy ? Lazy->key() : keyOf(*Entry, Call); }
};

/// The range a range-based for's variable walks (`stages` of `for (auto &st : stages)`), read
/// through the hidden range and iterator variables Clang declares for it; null otherwise.
const Expr *loopRange(const VarDecl *VD) {
  if (!VD->isCXXForRangeDecl() || !VD->getInit())
    return nullptr;
  const Expr *E = VD->getInit()->IgnoreImplicit();
  if (const auto *Deref = dyn_cast<CXXOperatorCallExpr>(E); Deref && Deref->getOperator() == OO_Star)
    E = Deref->getArg(0)->IgnoreImplicit();
  else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreImplicit();
  const auto *Begin = dyn_cast<DeclRefExpr>(E);
  const auto *BeginVar = Begin ? dyn_cast<VarDecl>(Begin->getDecl()) : nullptr;
  if (!BeginVar || !BeginVar->isImplicit() || !BeginVar->getInit())
    return nullptr;
  const Expr *Init = BeginVar->getInit()->IgnoreImplicit();
  const Expr *Range = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Init)) // __range.begin()
    Range = Member->getImplicitObjectArgument();
  else if (const auto *Call = dyn_cast<CallExpr>(Init); Call && Call->getNumArgs() == 1) // begin(__range)
    Range = Call->getArg(0);
  const auto *RangeRef = Range ? dyn_cast<DeclRefExpr>(Range->IgnoreImplicit()) : nullptr;
  const auto *RangeVar = RangeRef ? dyn_cast<VarDecl>(RangeRef->getDecl()) : nullptr;
  return RangeVar && RangeVar->isImplicit() && RangeVar->getInit() ? RangeVar->getInit() : nullptr;
}

/// The identity of the object `O` names: a local or parameter and the fields on the way, or
/// every element of such a container (`st` of `for (auto &st : stages)` is `stages[]`: a loop
/// over the same container before the window ran each element); empty otherwise.
std::string objectName(const Expr *O) {
  O = O ? CallTargets::throughAccess(O) : nullptr;
  std::string Fields;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(O)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return "";
    Fields = "." + FD->getNameAsString() + Fields;
    O = CallTargets::throughAccess(ME->getBase());
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(O);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage())
    return "";
  if (const Expr *Range = loopRange(VD)) {
    std::string Container = objectName(Range);
    return Container.empty() ? "" : Container + "[]" + Fields;
  }
  return std::to_string(reinterpret_cast<uintptr_t>(VD->getCanonicalDecl())) + Fields;
}

/// The object a call in a window runs a method on, when a local or parameter names it: the
/// variable (`draft.step()`, `stem->forward(x)` through its holder) and the fields on the way
/// (`at.qkv.run()` and `at.proj.run()` are two objects), as an identity; empty otherwise.
std::string namedObject(const CallExpr *CE) {
  const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
  return MCE ? objectName(MCE->getImplicitObjectArgument()) : "";
}

/// Whether a warm-up on the named object `Warm` may have warmed the window's object `Root`: the
/// same object, or one holding the other (`at.warmup()` may run `at.qkv`'s first calls, and
/// warm-ups of `at.qkv` are part of warming `at`).
bool mayWarm(llvm::StringRef Warm, llvm::StringRef Root) {
  auto Within = [](llvm::StringRef Part, llvm::StringRef Whole) {
    return Part.size() > Whole.size() && Part.starts_with(Whole) && Part[Whole.size()] == '.';
  };
  return Warm.empty() || Root.empty() || Warm == Root || Within(Warm, Root) || Within(Root, Warm);
}

/// The tagged calls a window reaches: written in it, or in the bodies it calls, transitively,
/// each with the named object of the window's call it is reached through.
std::vector<Reached> reachedFrom(const CaptureWindow &W, Reach &R, const SourceManager &SM) {
  std::vector<Reached> Out;
  std::set<std::pair<const Decl *, std::string>> Seen; // (body, root)
  std::vector<std::pair<const CallExpr *, std::string>> Work;
  for (const CallExpr *CE : callsIn(W.Function->getBody()))
    if (W.contains(CE->getBeginLoc(), SM))
      Work.push_back({CE, namedObject(CE)});
  while (!Work.empty()) {
    auto [CE, Root] = Work.back();
    Work.pop_back();
    CallRuns Runs = R.runs(CE);
    for (const ApiEntry *E : Runs.Entries)
      Out.push_back({CE, E, std::nullopt, Root});
    if (Runs.Lazy)
      Out.push_back({CE, Runs.LazyEntry, Runs.Lazy, Root});
    for (const FunctionDecl *B : Runs.Bodies)
      if (Seen.insert({canon(B), Root}).second) {
        for (const CallExpr *Inner : callsIn(B->getBody()))
          Work.push_back({Inner, Root});
        // The constructors its static locals run (a singleton's, on the first call).
        for (const VarDecl *Static : staticLocalsIn(B->getBody()))
          if (const auto *Make = dyn_cast<CXXConstructExpr>(Static->getInit()->IgnoreImplicit()))
            if (const CXXConstructorDecl *Ctor = Make->getConstructor(); Ctor && Seen.insert({canon(Ctor), Root}).second)
              for (const CallExpr *Inner : callsOfConstructor(*Ctor))
                Work.push_back({Inner, Root});
      }
  }
  return Out;
}

/// The first calls `CE` itself makes (its tagged entries, its lazy initialisation), by key.
llvm::StringSet<> firstCallKeys(const CallRuns &Runs, const CallExpr *CE) {
  llvm::StringSet<> Keys;
  for (const ApiEntry *E : Runs.Entries)
    Keys.insert(keyOf(*E, CE));
  if (Runs.Lazy)
    Keys.insert(Runs.Lazy->key());
  return Keys;
}

/// Whether a constructor of the class whose method `FD` is runs the first call known by `Key`:
/// the object was made before any of its methods ran, so that call ran before the window.
bool warmedByConstructor(const FunctionDecl &FD, llvm::StringRef Key, Reach &R) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&FD);
  if (!Method || Method->isStatic() || isa<CXXConstructorDecl>(Method))
    return false;
  for (const CXXConstructorDecl *Ctor : Method->getParent()->ctors()) {
    const FunctionDecl *Def = nullptr;
    if (!Ctor->hasBody(Def))
      continue;
    for (const CallExpr *CE : callsOfConstructor(*cast<CXXConstructorDecl>(Def))) {
      CallRuns Runs = R.runs(CE); // a copy: R.of() below may add to the map R.runs() answers from
      if (warms(firstCallKeys(Runs, CE), Key) ||
          llvm::any_of(Runs.Bodies, [&](const FunctionDecl *B) { return warms(R.of(B), Key); }))
        return true;
    }
  }
  return false;
}

/// Whether `FD` runs the first call known by `Key` (keyOf), directly or through what it calls,
/// before `Before` and outside every capture window of its own; or, failing that, a function that
/// calls `FD` does so before that call, on the same object (`r.warmup(); r.capture();`). Callers
/// are searched `Depth` levels up.
/// Where `Body` makes an object of `Class` or of a class derived from it: a construction, a
/// `new`, or a call of a factory whose template arguments name it (`std::make_unique<Node>()`).
std::vector<SourceLocation> constructionsOf(const Stmt *Body, const CXXRecordDecl *Class, const SourceManager &SM) {
  std::vector<SourceLocation> Out;
  auto isClass = [&](QualType T) {
    const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
    RD = RD ? RD->getDefinition() : nullptr;
    return RD && (RD->getCanonicalDecl() == Class->getCanonicalDecl() || RD->isDerivedFrom(Class));
  };
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    bool Makes = false;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
      Makes = isClass(Construct->getType());
    else if (const auto *New = dyn_cast<CXXNewExpr>(S))
      Makes = isClass(New->getAllocatedType());
    else if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs())
          Makes = Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type && isClass(Args->get(0).getAsType());
    if (Makes)
      Out.push_back(SM.getExpansionLoc(S->getBeginLoc()));
    Work.append(S->child_begin(), S->child_end());
  }
  return Out;
}

bool warmedUp(const FunctionDecl &FD, llvm::StringRef Key, SourceLocation Before, Reach &R,
              const AnalysisContext &Ctx, const Decl *Object = nullptr, unsigned Depth = 2,
              const CXXRecordDecl *MadeFirst = nullptr, llvm::StringRef Root = "") {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  llvm::ArrayRef<CaptureWindow> Windows = Ctx.regions().windowsOf(&FD);
  // A lazy initialisation in a class's method is warmed up only by a run after an object of the
  // class exists: a node made after the warm-up (`net.add(std::make_unique<Attention>())`) has its
  // first run in the capture. Judged where the function makes such objects; elsewhere, not known.
  const std::vector<SourceLocation> Made =
      MadeFirst ? constructionsOf(FD.getBody(), MadeFirst, SM) : std::vector<SourceLocation>{};
  for (const CallExpr *CE : callsIn(FD.getBody())) {
    SourceLocation Loc = SM.getExpansionLoc(CE->getBeginLoc());
    if (!SM.isBeforeInTranslationUnit(Loc, Before))
      continue;
    if (!Made.empty() && llvm::none_of(Made, [&](SourceLocation M) { return SM.isBeforeInTranslationUnit(M, Loc); }))
      continue;
    if (llvm::any_of(Windows, [&](const CaptureWindow &W) { return W.contains(Loc, SM); }))
      continue;
    // A warm-up on another named object warms that object (`main.step()` before the capture of
    // `draft.step()`); one on `this` or an unnamed object may warm any.
    if (!mayWarm(Root.empty() ? "" : namedObject(CE), Root))
      continue;
    CallRuns Runs = R.runs(CE);
    if (warms(firstCallKeys(Runs, CE), Key))
      return true;
    // Through a method of another object than the one the window's method runs on, the fields
    // its warm-up reaches are that object's.
    if (Object && objectOf(CE) != Object)
      continue;
    if (llvm::any_of(Runs.Bodies, [&](const FunctionDecl *B) { return warms(R.of(B), Key); }))
      return true;
  }
  if (warmedByConstructor(FD, Key, R))
    return true;
  if (Depth == 0)
    return false;
  for (auto [Caller, Call] : R.callersOf(&FD))
    if (Caller->getCanonicalDecl() != FD.getCanonicalDecl() &&
        warmedUp(*Caller, Key, SM.getExpansionLoc(Call->getBeginLoc()), R, Ctx, objectOf(Call), Depth - 1, MadeFirst))
      return true;
  return false;
}

/// Whether `W` is an entry window (a function entered with the capture open): its begin call is
/// in a caller, where the warm-up would be too.
bool isEntryWindow(const CaptureWindow &W, const SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(W.Function->getBody());
  return Body && W.Open == SM.getExpansionLoc(Body->getLBracLoc());
}

} // namespace

void reportUnwarmedFirstCalls(AnalysisContext &Ctx, const CheckInfo &Check,
                              llvm::DenseSet<const Stmt *> *WarmedLazy) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  Reach R(Ctx);
  llvm::DenseSet<const CallExpr *> Reported, Warmed, Unwarmed;
  for (const FunctionDecl *FD : Ctx.functions()) {
    llvm::ArrayRef<CaptureWindow> Windows = Ctx.regions().windowsOf(FD);
    for (const CaptureWindow &W : Windows) {
      if (isEntryWindow(W, SM))
        continue;
      llvm::StringSet<> KeysReported; // a shared resource: its first call in the window is the hazard
      std::vector<Reached> Hits = reachedFrom(W, R, SM);
      llvm::stable_sort(Hits, [&](const Reached &A, const Reached &B) {
        return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Call->getBeginLoc()),
                                            SM.getExpansionLoc(B.Call->getBeginLoc()));
      });
      for (const Reached &Hit : Hits) {
        if (Hit.Lazy) {
          // Judged here, reported by the check with its own message unless every window that
          // reaches it ran a warm-up first.
          const auto *Method = dyn_cast<CXXMethodDecl>(Hit.Lazy->Owner);
          const CXXRecordDecl *Class = Method && Method->isVirtual() ? Method->getParent() : nullptr;
          (warmedUp(*FD, Hit.key(), W.Open, R, Ctx, nullptr, 2, Class, Hit.Root) ? Warmed : Unwarmed).insert(Hit.Call);
          continue;
        }
        if (Reported.contains(Hit.Call) || KeysReported.contains(Hit.key()) ||
            warmedUp(*FD, Hit.key(), W.Open, R, Ctx, nullptr, 2, nullptr, Hit.Root))
          continue;
        Reported.insert(Hit.Call);
        if (!Hit.Lazy && !Hit.Entry->LazyResource.empty())
          KeysReported.insert(Hit.key());
        auto C = Ctx.api().resolve(Hit.Call);
        unsigned Line = SM.getExpansionLineNumber(W.Open);
        // A module's forward run through its holder (`lin(x)`) is named by the entry.
        bool Own = C && llvm::is_contained(C->Entries, Hit.Entry);
        SourceLocation Caret = Own ? C->NameLoc : Hit.Call->getBeginLoc();
        if (Ctx.report(Check, Caret,
                   "'" + (Own ? C->Name : Hit.Entry->Name) + "' " +
                       (Hit.Entry->Doc.empty() ? "may initialise lazily" : Hit.Entry->Doc) +
                       " on its first call, and nothing calls it before the capture that begins at line " +
                       std::to_string(Line) + "; run it once before capturing (a warm-up run of the captured code)",
                       Hit.Call))
          Ctx.lastFinding().Tag = "first_call_allocates";
      }
    }
  }
  if (WarmedLazy)
    for (const CallExpr *CE : Warmed)
      if (!Unwarmed.contains(CE))
        WarmedLazy->insert(CE);
}

} // namespace graphify
