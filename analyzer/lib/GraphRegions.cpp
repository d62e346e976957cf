// Graph regions. Invariant: a body is a region only if a seed reaches it through direct calls,
// constructor calls, lambda calls or function references written in region code, so that code
// which merely shares a file with a model (a training loop, logging, data loading) is never
// reported under --scope=graph.
#include "graphify/analyzer/GraphRegions.h"

#include "CallTargets.h"
#include "CaptureFlags.h"
#include "DeadCode.h"
#include "ObjectClasses.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Support/GlobPattern.h>

namespace graphify {

using namespace clang;

static const Decl *canon(const Decl *D) { return D ? D->getCanonicalDecl() : nullptr; }

bool GraphRegions::contains(const Decl *D) const { return D && Bodies.contains(canon(D)); }
bool GraphRegions::insert(const Decl *D) { return D && Bodies.insert(canon(D)).second; }
bool GraphRegions::isRelaxed(const Decl *D) const { return D && RelaxedBodies.contains(canon(D)); }
void GraphRegions::markRelaxed(const Decl *D) { RelaxedBodies.insert(canon(D)); }

llvm::ArrayRef<CaptureWindow> GraphRegions::windowsOf(const Decl *Function) const {
  auto It = Windows.find(canon(Function));
  if (It == Windows.end())
    return {};
  return It->second;
}
void GraphRegions::addWindow(const CaptureWindow &W) { Windows[canon(W.Function)].push_back(W); }

void GraphRegions::noteCalledWithoutBody(const FunctionDecl *FD, bool Relaxed) {
  auto [It, New] = Unresolved.try_emplace(FD->getCanonicalDecl(), Relaxed);
  if (!New)
    It->second = It->second && Relaxed; // strict wins
}

bool GraphRegionFinder::isAnnotatedRegion(const Decl *D) {
  if (!D)
    return false;
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "graphify.graph_region")
      return true;
  // Instantiations carry the pattern's attributes, but look there too for member templates.
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern(); Pattern && Pattern != FD)
      return isAnnotatedRegion(Pattern);
  return false;
}

bool GraphRegionFinder::isHostEpilogue(const Decl *D) {
  if (!D)
    return false;
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "graphify.host_epilogue")
      return true;
  const ASTContext &Ctx = D->getASTContext();
  for (const Decl *R : D->redecls())
    if (const RawComment *C = Ctx.getRawCommentForDeclNoCache(R))
      if (llvm::StringRef Text = llvm::StringRef(C->getRawText(Ctx.getSourceManager())).ltrim("/*! \t");
          Text.starts_with("graphify: host epilogue") || Text.starts_with("graphify: host prologue"))
        return true;
  return false;
}

bool GraphRegionFinder::matchesGlob(const FunctionDecl *FD) const {
  if (Globs.empty())
    return false;
  std::string Name = FD->getQualifiedNameAsString();
  // A member of a class template's specialization is named with its arguments
  // ('ns::Decoder<ns::Lm>::step'); users name the template's ('ns::Decoder::step'): both match.
  std::string PatternName;
  if (const FunctionDecl *Generic = FD->getTemplateInstantiationPattern(); Generic && Generic != FD)
    PatternName = Generic->getQualifiedNameAsString();
  bool Any = false;
  for (const std::string &G : Globs) {
    auto Pattern = compileGlob(G);
    if (!Pattern) { // refused by the option and config parsers before it gets here
      llvm::consumeError(Pattern.takeError());
      continue;
    }
    if (Pattern->match(Name) || (!PatternName.empty() && Pattern->match(PatternName))) {
      Matched.insert(G); // every glob that names it, for the report of globs that name nothing
      Any = true;
    }
  }
  return Any;
}

bool GraphRegionFinder::isSeed(const FunctionDecl *FD) const {
  const bool Named = matchesGlob(FD);
  if (Named || isAnnotatedRegion(FD))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  // A library's own modules (a `Sequential` declared by hand in the checked file) are described
  // by the packs, not checked as the user's code.
  if (MD && MD->isInstance() && MD->getIdentifier() && MD->getName() == "forward")
    return Api.moduleFlavor(MD->getParent()) != nullptr && !Api.isLibraryDecl(MD);
  return false;
}

namespace {

/// The bodies one body can transfer control to, and the region seeds written inside it
/// (callables handed to capture entries, annotated lambda variables).
class EdgeCollector : public RecursiveASTVisitor<EdgeCollector> {
public:
  EdgeCollector(const ApiResolver &Api) : Api(Api) {}
  /// Collects only what is written inside `W` (the callees of a capture window).
  EdgeCollector(const ApiResolver &Api, const CaptureWindow &W, const SourceManager &SM)
      : Api(Api), Window(&W), SM(&SM) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  std::vector<const Decl *> Callees;
  /// Calls of virtual methods with dynamic dispatch (the overriders that may run on their
  /// object are callees too).
  std::vector<const CXXMemberCallExpr *> Virtuals;
  /// Indirect calls: through a std::function, a function pointer (the holder, when named).
  struct IndirectCall {
    const CallExpr *Call;
    const ValueDecl *Holder;
    bool Device; ///< written in device code
  };
  /// Set when the body is device code (a __global__ or __device__-only function): its calls
  /// through function pointers run on the GPU, not on the host.
  bool DeviceCode = false;
  std::vector<IndirectCall> Indirect;
  /// Calls that run the forward of the modules an object holds (`any.forward(x)`, `seq->forward(x)`,
  /// `block(x)`): the call and its object.
  std::vector<std::pair<const CallExpr *, const Expr *>> ModuleCalls;
  std::vector<const Decl *> Seeds;
  /// Lambdas written in the body: they are part of it when it is a region.
  std::vector<const Decl *> Nested;
  /// Window collectors: the callables that a call written in the window starts on another thread
  /// (`runs_on_new_thread`: `std::thread t([&] { ... });`). They are not the window's own code,
  /// so their bodies are left to their own collectors; the window decides how they are checked.
  std::vector<const Decl *> OtherThread;

  /// Calls written only after a block's `return` run nothing (DeadCode.h).
  bool TraverseCompoundStmt(CompoundStmt *Block, DataRecursionQueue * = nullptr) {
    if (!WalkUpFromCompoundStmt(Block))
      return false;
    bool Going = true;
    forEachLiveChild(*Block, [&](const Stmt &Child) { Going = Going && TraverseStmt(const_cast<Stmt *>(&Child)); });
    return Going;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    if (ThreadEntries.contains(LE))
      return true;
    return RecursiveASTVisitor::TraverseLambdaExpr(LE);
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!inWindow(CE))
      return true;
    auto C = Api.resolve(CE);
    // A function the packs describe is checked by its description (its tags, reported at the
    // call), not by its body: a project's own op declared in its pack (an NMS written with host
    // loops) is one finding where it is called, and its body is not a region.
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      if (C && !C->Entries.empty()) {
        Described.insert(FD->getCanonicalDecl());
      } else {
        Callees.push_back(FD);
        if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE); MCE && CallTargets::dispatchesVirtually(*MCE))
          Virtuals.push_back(MCE);
      }
    }
    if (C && Window && C->hasTag("runs_on_new_thread"))
      noteThreadEntry(*C);
    bool IsIndirect = false;
    const ValueDecl *Holder = CallTargets::holderOf(*CE, IsIndirect);
    if (IsIndirect)
      Indirect.push_back({CE, Holder, DeviceCode});
    if (C && C->hasTag("runs_held_modules") && !DeviceCode)
      ModuleCalls.push_back({CE, C->arg(0)});
    // `std::visit(rec, cmd)`: the library calls the visitor's operators here.
    if (C && !DeviceCode)
      if (const ApiEntry *E = C->entryWithTag("runs_callables"))
        for (unsigned Pos : E->CallableArgs)
          for (const Decl *Body : CallTargets::callOperators(C->arg(Pos), &Api))
            Callees.push_back(Body);
    if (C)
      if (const ApiEntry *E = C->entryWithTag("capture_entry"))
        for (unsigned Pos : E->CallableArgs)
          if (const Expr *Arg = C->arg(Pos))
            if (const Decl *Body = CallTargets::callableBody(Arg, &Api))
              Seeds.push_back(Body);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (!CE->getConstructor() || !inWindow(CE))
      return true;
    if (Window)
      if (auto C = Api.resolve(CE); C && C->hasTag("runs_on_new_thread")) {
        noteThreadEntry(*C); // the library's constructor is not followed: the thread's code is
        return true;
      }
    Callees.push_back(CE->getConstructor());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (auto It = Stored.find(DRE->getDecl()); It != Stored.end() && inWindow(DRE))
      Nested.push_back(It->second->getCallOperator()); // `report()`, `std::for_each(b, e, report)`
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
        FD && inWindow(DRE) && !Described.count(FD->getCanonicalDecl()) && !ThreadEntries.contains(DRE))
      Callees.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (!inWindow(LE))
      return true;
    // Written in a window and kept in a variable (`auto report = [&] {...};`), a lambda runs
    // where it is used, which may be after the end call (VisitDeclRefExpr).
    if (!llvm::is_contained(llvm::make_second_range(Stored), LE))
      Nested.push_back(LE->getCallOperator());
    if (GraphRegionFinder::isAnnotatedRegion(LE->getCallOperator()))
      Seeds.push_back(LE->getCallOperator());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (Window && VD->isLocalVarDecl() && VD->getInit())
      if (const auto *LE = dyn_cast<LambdaExpr>(skipValueWrappers(VD->getInit())))
        Stored[VD] = LE;
    // `GRAPHIFY_GRAPH_REGION auto step = [&] { ... };`
    if (!Window && GraphRegionFinder::isAnnotatedRegion(VD) && VD->getInit())
      if (const Decl *Body = CallTargets::callableBody(VD->getInit(), &Api))
        Seeds.push_back(Body);
    return true;
  }

private:
  const ApiResolver &Api;
  /// Callees of calls that the packs describe (visited before the callee's reference).
  llvm::DenseSet<const Decl *> Described;
  /// Lambdas a window writes into local variables (visited before the lambda and its uses).
  llvm::DenseMap<const Decl *, const LambdaExpr *> Stored;
  const CaptureWindow *Window = nullptr;
  const SourceManager *SM = nullptr;
  /// The callables written as the argument of a thread-starting call in the window (a lambda, a
  /// function's name): visited after the call, they are not the window's own code.
  llvm::DenseSet<const Expr *> ThreadEntries;

  /// The first callable argument of a `runs_on_new_thread` call (std::async's policy comes first).
  void noteThreadEntry(const ApiCall &C) {
    const ApiEntry *E = C.entryWithTag("runs_on_new_thread");
    for (unsigned Pos : E->CallableArgs) {
      const Expr *Arg = C.arg(Pos);
      const Decl *Body = Arg ? CallTargets::callableBody(Arg, &Api) : nullptr;
      if (!Body)
        continue;
      OtherThread.push_back(Body);
      const Expr *Written = skipValueWrappers(Arg)->IgnoreParenImpCasts();
      if (const auto *Address = dyn_cast<UnaryOperator>(Written); Address && Address->getOpcode() == UO_AddrOf)
        Written = Address->getSubExpr()->IgnoreParenImpCasts(); // &stage
      ThreadEntries.insert(Written);
      return;
    }
  }

  bool inWindow(const Stmt *S) const { return !Window || Window->contains(S->getBeginLoc(), *SM); }

public:
  /// Whether this collects the callees of a capture window (not of a whole body).
  bool forWindow() const { return Window != nullptr; }
};

} // namespace

const CaptureEffect *GraphRegionFinder::importedEffect(const FunctionDecl *FD) const {
  if (!Program)
    return nullptr;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) || Api.isLibraryDecl(FD))
    return nullptr;
  std::string Usr = usrOf(FD);
  if (Usr.empty())
    return nullptr;
  if (Lookups)
    Lookups->insert("C:" + Usr);
  return Program->capture(Usr);
}

const CaptureEffect *GraphRegionFinder::importedVirtualEffect(const FunctionDecl *FD) const {
  std::string Usr = usrOf(FD);
  if (Usr.empty())
    return nullptr;
  if (Lookups)
    Lookups->insert("V:" + Usr);
  return Program->virtualCapture(Usr);
}

RegionKind GraphRegionFinder::importedRegion(const FunctionDecl *FD) const {
  if (!Program)
    return RegionKind::None;
  RegionKind Kind = RegionKind::None;
  auto Look = [&](const FunctionDecl *F) {
    std::string Usr = usrOf(F);
    if (Usr.empty())
      return;
    if (Lookups)
      Lookups->insert("R:" + Usr);
    Kind = std::max(Kind, Program->region(Usr));
  };
  Look(FD);
  // A virtual call of a method that another unit makes in region code reaches this overrider.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    llvm::SmallVector<const CXXMethodDecl *, 4> Work(MD->overridden_methods().begin(), MD->overridden_methods().end());
    llvm::DenseSet<const Decl *> Seen;
    while (!Work.empty()) {
      const CXXMethodDecl *Base = Work.pop_back_val();
      if (!Seen.insert(canon(Base)).second)
        continue;
      Look(Base);
      Work.append(Base->overridden_methods().begin(), Base->overridden_methods().end());
    }
  }
  return Kind;
}

/// The message of an indirect call in region code whose targets graphify cannot see.
static std::string unseenCallMessage(const ValueDecl *Holder, llvm::StringRef Why, bool InWindow) {
  std::string Where = InWindow ? "in a capture window" : "in graph-region code";
  if (!Holder)
    return "an indirect call " + Where + " runs code graphify cannot see; it is not checked";
  QualType T = CallTargets::heldType(*Holder).getNonReferenceType();
  std::string Through = "a function pointer";
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    // A callable holder names itself (`std::function`); a container names what holds its elements.
    Through = (CallTargets::isCallableContainer(T) ? "an element of a '" : "a '") + RD->getQualifiedNameAsString() + "'";
  else if (T->isArrayType())
    Through = "an element of an array of function pointers";
  return "'" + CallTargets::displayName(*Holder) + "' is called " + Where + " through " + Through +
         ", and graphify cannot tell what it runs (" + Why.str() + "); that code is not checked";
}

static std::string unseenModulesMessage(const Expr *Object, llvm::StringRef Why, bool InWindow) {
  const ValueDecl *Holder = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(Object->IgnoreParenImpCasts()))
    Holder = ME->getMemberDecl();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()))
    Holder = DRE->getDecl();
  std::string What = Holder ? "'" + Holder->getNameAsString() + "'" : "a module container";
  return What + " runs the forward of the modules it holds " +
         (InWindow ? "in a capture window" : "in graph-region code") +
         ", and graphify cannot tell which (" + Why.str() + "); that code is not checked";
}

/// Whether nothing of `FD`'s body runs in its entry window `W` (its end call comes first).
static bool emptyWindow(const FunctionDecl &FD, const CaptureWindow &W, const SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  return !Body || Body->body_empty() ||
         !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body->body_front()->getBeginLoc()), W.Close);
}

void GraphRegionFinder::noteUnpairedCaptures(llvm::ArrayRef<const FunctionDecl *> Functions,
                                             GraphRegions &Regions) const {
  const CaptureEffects &Effects = Regions.captureEffects();
  for (const FunctionDecl *FD : Functions) {
    const CaptureEffect *E = Effects.of(FD);
    if (!E || Effects.isCalled(FD))
      continue;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    const std::string Name = "'" + FD->getQualifiedNameAsString() + "'";
    if (E->Opens) {
      std::vector<CaptureWindow> Windows = findCaptureWindows(*FD, Api, SM, &Effects);
      auto Open = llvm::find_if(llvm::reverse(Windows), [](const CaptureWindow &W) { return W.Close.isInvalid(); });
      if (Open != llvm::reverse(Windows).end())
        Regions.noteUnchecked(Open->Begin, Name + " returns with the capture begun here still open, and nothing in "
                                            "the checked files calls it: what its callers run before they end the "
                                            "capture is not checked (lint the files that call it too)");
    }
    if (E->Closes && !isSeed(FD))
      if (std::optional<CaptureWindow> W = entryWindow(*FD, Api, SM, Effects); W && !emptyWindow(*FD, *W, SM))
        Regions.noteUnchecked(W->Close, Name + " ends a capture begun before it is called, and nothing in the "
                                         "checked files calls it: its code before the end call is not checked as "
                                         "captured (lint the files that begin the capture too)");
  }
}

GraphRegions GraphRegionFinder::find(llvm::ArrayRef<const FunctionDecl *> Functions) const {
  GraphRegions Regions;
  if (Functions.empty())
    return Regions;
  const SourceManager &SM = Functions.front()->getASTContext().getSourceManager();
  Regions.setCaptureEffects(CaptureEffects::compute(
      Functions, Api, SM,
      Program ? CaptureEffects::Import([this](const FunctionDecl *FD) { return importedEffect(FD); })
              : CaptureEffects::Import(),
      Program ? CaptureEffects::Import([this](const FunctionDecl *FD) { return importedVirtualEffect(FD); })
              : CaptureEffects::Import()));
  const CaptureEffects &Effects = Regions.captureEffects();
  CallTargets Targets(Functions, Api);
  Regions.setWholeProgram(Program != nullptr);
  ObjectClasses Classes(Functions.front()->getASTContext(), Program != nullptr);

  // Bodies we can see: the analyzed functions and every lambda written in them. Seeds reached
  // only from relaxed capture windows are walked last, so that what strict seeds reach stays
  // strict.
  std::vector<const Decl *> RelaxedWork;
  llvm::DenseMap<const Decl *, const Stmt *> BodyOf;
  llvm::DenseMap<const Decl *, EdgeCollector> Edges;
  std::vector<const Decl *> Work;
  llvm::DenseSet<const Decl *> Epilogues;
  // Seeds named by the user (globs, annotations, module forwards) are whole regions even when
  // they close a capture; callees that close one are windows up to their end call.
  llvm::DenseSet<const Decl *> Named;
  llvm::DenseSet<const Decl *> Entered;

  // What region code reached through `C` runs: direct callees, lambdas, overriders of virtual
  // calls, the callables held by what it calls indirectly.
  llvm::DenseSet<const CallExpr *> Noted;
  // What a holder called in region code runs: the callables assigned to it here, judged with
  // those other units assign to it or to the holders it is given (whole-program mode). The
  // call is recorded for those units, which make their callables regions.
  auto HeldInProgram = [&](const ValueDecl *Holder, bool Relaxed) {
    CallTargets::Held Held = Targets.assignedTo(Holder);
    std::set<std::string> Keys;
    for (const Decl *B : Held.Bodies)
      Keys.insert(bodyKey(B));
    if (Program)
      for (const ValueDecl *T : Held.Through) {
        std::string Key = holderKey(T);
        if (Key.empty())
          continue;
        HeldCallables &Mine = Regions.callableFact(Key);
        Mine.Called = std::max(Mine.Called, Relaxed ? RegionKind::Relaxed : RegionKind::Strict);
        if (Lookups)
          Lookups->insert("K:" + Key);
        if (const HeldCallables *Elsewhere = Program->callables(Key)) {
          Keys.insert(Elsewhere->Bodies.begin(), Elsewhere->Bodies.end());
          Held.Opaque |= Elsewhere->Opaque;
        }
      }
    Held.Unseen = CallTargets::unseenReason(Keys.size(), Held.Opaque);
    if (!Held.Unseen.empty())
      Held.Bodies.clear();
    return Held;
  };
  auto Follow = [&](const EdgeCollector &C, std::vector<const Decl *> &Pending, bool Relaxed) {
    Pending.insert(Pending.end(), C.Callees.begin(), C.Callees.end());
    Pending.insert(Pending.end(), C.Nested.begin(), C.Nested.end());
    Pending.insert(Pending.end(), C.OtherThread.begin(), C.OtherThread.end());
    for (const CXXMemberCallExpr *V : C.Virtuals)
      for (const CXXMethodDecl *O : Classes.mayRun(*V, Targets.overriders(V->getMethodDecl())))
        Pending.push_back(O);
    for (const EdgeCollector::IndirectCall &I : C.Indirect) {
      if (I.Device)
        continue; // a function pointer called in device code runs on the device
      CallTargets::Held Held;
      if (I.Holder)
        Held = HeldInProgram(I.Holder, Relaxed);
      else
        Held.Unseen = "unnamed";
      if (Held.Unseen.empty()) {
        Pending.insert(Pending.end(), Held.Bodies.begin(), Held.Bodies.end());
        continue;
      }
      if (Noted.insert(I.Call).second)
        Regions.noteUnchecked(I.Call->getBeginLoc(), unseenCallMessage(I.Holder, Held.Unseen, C.forWindow()));
    }
    for (auto [Call, Object] : C.ModuleCalls) {
      CallTargets::HeldModules Held = Targets.modulesRunBy(Object);
      for (const CXXRecordDecl *M : Held.Modules)
        for (const CXXMethodDecl *F : CallTargets::forwardsOf(M))
          Pending.push_back(F);
      if (!Held.Unseen.empty() && Noted.insert(Call).second)
        Regions.noteUnchecked(Call->getBeginLoc(),
                              unseenModulesMessage(CallTargets::throughAccess(Object), Held.Unseen, C.forWindow()));
    }
  };

  // The function whose call closes a window; through a virtual call, the overriders that close.
  auto EnterClosing = [&](const FunctionDecl *Closer, std::vector<const Decl *> &Into) {
    if (!Closer)
      return;
    const auto *MD = dyn_cast<CXXMethodDecl>(Closer);
    if (!MD || !MD->isVirtual()) {
      Into.push_back(Closer);
      return;
    }
    if (const CaptureEffect *E = Effects.of(Closer); E && E->Closes)
      Into.push_back(Closer);
    for (const FunctionDecl *O : Effects.closingOverriders(Closer))
      Into.push_back(O);
  };

  // What this unit gives callable holders; in whole-program mode, the callables it gives to a
  // holder that another unit's region code calls are regions here.
  for (const ValueDecl *H : Targets.assignedHolders()) {
    std::string Key = holderKey(H);
    if (Key.empty())
      continue;
    CallTargets::Held Given = Targets.assignedTo(H);
    HeldCallables &Mine = Regions.callableFact(Key);
    for (const Decl *B : Given.Bodies)
      Mine.Bodies.insert(bodyKey(B));
    Mine.Opaque |= Given.Opaque;
    if (!Program)
      continue;
    if (Lookups)
      Lookups->insert("K:" + Key);
    const HeldCallables *Elsewhere = Program->callables(Key);
    if (!Elsewhere || Elsewhere->Called == RegionKind::None)
      continue;
    std::set<std::string> All = Elsewhere->Bodies;
    All.insert(Mine.Bodies.begin(), Mine.Bodies.end());
    // The caller follows the holder only when the program gives it few callables it can name.
    if (!CallTargets::unseenReason(All.size(), Elsewhere->Opaque || Mine.Opaque).empty())
      continue;
    std::vector<const Decl *> &Into = Elsewhere->Called == RegionKind::Strict ? Work : RelaxedWork;
    Into.insert(Into.end(), Given.Bodies.begin(), Given.Bodies.end());
  }

  for (const FunctionDecl *FD : Functions) {
    BodyOf[canon(FD)] = FD->getBody();
    EdgeCollector C(Api);
    C.DeviceCode = FD->hasAttr<CUDAGlobalAttr>() || (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>());
    C.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        C.TraverseStmt(Init->getInit());
    for (const Decl *L : C.Nested)
      BodyOf[canon(L)] = cast<FunctionDecl>(L)->getBody();
    RegionKind Imported = importedRegion(FD);
    if (isSeed(FD)) {
      Work.push_back(FD);
      Named.insert(canon(FD));
    } else if (Imported == RegionKind::Strict) {
      Work.push_back(FD);
    } else if (Imported == RegionKind::Relaxed) {
      RelaxedWork.push_back(FD);
    }
    for (const Decl *S : C.Seeds) {
      Work.push_back(S);
      Named.insert(canon(S));
    }
    Edges.try_emplace(canon(FD), std::move(C));
    for (const CaptureWindow &W : findCaptureWindows(*FD, Api, SM, &Effects)) {
      Regions.addWindow(W);
      EdgeCollector InWindow(Api, W, SM);
      InWindow.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
      std::vector<const Decl *> &Into = W.Relaxed ? RelaxedWork : Work;
      // Threads the window starts: in thread-local mode only the capturing thread is restricted.
      if (W.ThreadLocal) {
        RelaxedWork.insert(RelaxedWork.end(), InWindow.OtherThread.begin(), InWindow.OtherThread.end());
        InWindow.OtherThread.clear();
      }
      Follow(InWindow, Into, W.Relaxed);
      Into.insert(Into.end(), InWindow.Seeds.begin(), InWindow.Seeds.end());
      // The function whose call closes the window runs with the capture open up to its end call.
      EnterClosing(W.ClosedBy, Into);
    }
  }

  // Lambda bodies' edges are included in their enclosing function's collector; a lambda that
  // is a region on its own (captured) needs its own edges, collected lazily.
  auto EdgesOf = [&](const Decl *D) -> const EdgeCollector & {
    auto It = Edges.find(canon(D));
    if (It != Edges.end())
      return It->second;
    EdgeCollector C(Api);
    if (const Stmt *Body = BodyOf.lookup(canon(D)))
      C.TraverseStmt(const_cast<Stmt *>(Body));
    return Edges.try_emplace(canon(D), std::move(C)).first->second;
  };

  auto Close = [&](std::vector<const Decl *> &Pending, bool Relaxed) {
    while (!Pending.empty()) {
      const Decl *D = Pending.back();
      Pending.pop_back();
      if (!BodyOf.count(canon(D))) {
        if (const auto *FD = dyn_cast<FunctionDecl>(D))
          Regions.noteCalledWithoutBody(FD, Relaxed);
        continue;
      }
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (const CaptureEffect *E = FD && !Named.count(canon(D)) ? Effects.of(FD) : nullptr; E && E->Closes) {
        // Entered with the capture open: captured up to its own end call, not after.
        if (Regions.contains(D) || !Entered.insert(canon(D)).second)
          continue;
        if (std::optional<CaptureWindow> W = entryWindow(*FD, Api, SM, Effects)) {
          W->Relaxed = Relaxed;
          Regions.addWindow(*W);
          EdgeCollector C(Api, *W, SM);
          C.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
          Follow(C, Pending, Relaxed);
          Pending.insert(Pending.end(), C.Seeds.begin(), C.Seeds.end());
          EnterClosing(W->ClosedBy, Pending);
        }
        continue;
      }
      if (isHostEpilogue(D)) {
        // Host code between the caller and the core: not checked, but what it calls is.
        if (!Epilogues.insert(canon(D)).second)
          continue;
      } else if (!Regions.insert(D)) {
        continue;
      }
      if (Relaxed)
        Regions.markRelaxed(D);
      Follow(EdgesOf(D), Pending, Relaxed);
    }
  };
  Close(Work, /*Relaxed=*/false);
  Close(RelaxedWork, /*Relaxed=*/true);
  if (!Program)
    noteUnpairedCaptures(Functions, Regions);
  else {
    importIdleHelpers(Functions, Regions);
    importSetterCalls(Functions, Regions);
    importFlagRecords(Functions, Regions);
  }
  return Regions;
}

void GraphRegionFinder::importFlagRecords(llvm::ArrayRef<const FunctionDecl *> Functions, GraphRegions &Regions) const {
  struct Names : RecursiveASTVisitor<Names> {
    llvm::SmallPtrSet<const ValueDecl *, 8> Flags;
    bool VisitDeclRefExpr(DeclRefExpr *E) { return note(E); }
    bool VisitMemberExpr(MemberExpr *E) { return note(E); }
    bool note(const Expr *E) {
      if (const ValueDecl *D = CaptureFlags::flagNamed(E))
        Flags.insert(D);
      return true;
    }
  } Visitor;
  for (const FunctionDecl *FD : Functions)
    Visitor.TraverseStmt(FD->getBody());
  for (const ValueDecl *D : Visitor.Flags) {
    std::string Usr = usrOf(D);
    if (Usr.empty())
      continue;
    if (Lookups)
      Lookups->insert("B:" + Usr);
    if (std::optional<FlagWrites> W = Program->flagRecord(Usr))
      Regions.importFlagRecord(D, *W);
  }
}

void GraphRegionFinder::importSetterCalls(llvm::ArrayRef<const FunctionDecl *> Functions, GraphRegions &Regions) const {
  for (const FunctionDecl *FD : Functions) {
    if (!CaptureFlags::setFlag(FD))
      continue;
    std::string Usr = usrOf(FD);
    if (Usr.empty())
      continue;
    if (Lookups)
      Lookups->insert("A:" + Usr);
    if (std::optional<FlagWrites> W = Program->setterCalls(Usr))
      Regions.importSetterCalls(FD, *W);
  }
}

void GraphRegionFinder::importIdleHelpers(llvm::ArrayRef<const FunctionDecl *> Functions, GraphRegions &Regions) const {
  struct Calls : RecursiveASTVisitor<Calls> {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Callees;
    bool VisitCallExpr(CallExpr *CE) {
      // Bodyless helpers, and accessors of a flag other units may set (`bool &capturing()`).
      if (const FunctionDecl *FD = CE->getDirectCallee();
          FD && (FD->getReturnType()->isBooleanType() ? !FD->hasBody()
                                                      : FD->getReturnType()->isLValueReferenceType() &&
                                                            FD->getReturnType().getNonReferenceType()->isBooleanType()))
        Callees.insert(FD->getCanonicalDecl());
      return true;
    }
  } Visitor;
  for (const FunctionDecl *FD : Functions)
    Visitor.TraverseStmt(FD->getBody());
  for (const FunctionDecl *FD : Visitor.Callees) {
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    std::string Usr = usrOf(FD);
    if (Usr.empty() || SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) || Api.isLibraryDecl(FD))
      continue;
    if (Lookups)
      Lookups->insert("I:" + Usr);
    if (std::optional<bool> Idle = Program->idleHelper(Usr))
      Regions.importIdleHelper(FD, *Idle);
  }
}

} // namespace graphify
