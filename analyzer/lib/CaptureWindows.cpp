// Capture windows. Invariant: a window never starts before its begin call nor extends past the
// end call that closes it, so code set up before capture and synchronisation after it are
// never reported; a function that closes a capture is in a window only up to its end call.
#include "graphify/analyzer/CaptureWindows.h"

#include "CallTargets.h"
#include "CaptureFlow.h"
#include "CaptureHolders.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace graphify {

using namespace clang;

bool CaptureWindow::contains(SourceLocation Loc, const SourceManager &SM) const {
  if (Loc.isInvalid() || Open.isInvalid())
    return false;
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (!SM.isBeforeInTranslationUnit(Open, L))
    return false;
  if (Excluded && Excluded->contains(L.getRawEncoding()))
    return false;
  SourceLocation End = Limit.isValid() ? Limit : Close;
  return End.isInvalid() || SM.isBeforeInTranslationUnit(L, End);
}

namespace {

const FunctionDecl *canon(const FunctionDecl *FD) { return FD ? FD->getCanonicalDecl() : nullptr; }

/// One begin or end of capture in a body, with the stream it is on.
struct CaptureCall {
  bool Begin = false;
  SourceLocation Start, Stop;
  std::string Stream; ///< as written at the call (for pairing begin and end)
  bool Relaxed = false;
  bool ThreadLocal = false;
  int KeyParam = -1;    ///< the stream as the enclosing function's caller names it (see CaptureEffect)
  std::string KeyField;
  const FunctionDecl *Callee = nullptr; ///< the project function whose call this is, if any
  const Expr *Call = nullptr;           ///< null for a destructor at the end of a scope
  const VarDecl *Destroyed = nullptr;   ///< that destructor's object
  bool OnTrue = false; ///< Begin through a call of a function that opens only when it returns true
};

std::string spelling(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->IgnoreParenImpCasts()->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  llvm::StringRef S(OS.str());
  S.consume_front("this->"); // `stream_` and `this->stream_` are one stream
  return S.str();
}

/// Whether `E` is `this` (written or implicit).
bool isThis(const Expr *E) { return E && isa<CXXThisExpr>(E->IgnoreParenImpCasts()); }

/// How the enclosing function's callers name the stream `E`: a parameter or a field of `this`.
void streamKey(const Expr *E, int &Param, std::string &Field) {
  if (!E)
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      Param = int(P->getFunctionScopeIndex());
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && isThis(ME->getBase()))
    Field = ME->getMemberDecl()->getNameAsString();
}

/// Whether the begin call's mode argument names one of `Modes` (a defaulted one is global).
bool selectsMode(const ApiCall &C, const ApiEntry &E, const std::vector<std::string> &Modes) {
  if (!E.ModeArg)
    return false;
  const Expr *Mode = C.arg(*E.ModeArg);
  if (!Mode)
    return false; // defaulted: the global mode
  return llvm::any_of(Modes, [&](const std::string &Name) {
    return ApiResolver::mentionsConstant(Mode, Name, /*StringPrefix=*/"");
  });
}

/// The capture calls of a body and the calls of functions that `Keep` accepts, in any order.
class SiteCollector : public RecursiveASTVisitor<SiteCollector> {
public:
  SiteCollector(const ApiResolver &Api, const SourceManager &SM,
                llvm::function_ref<bool(const FunctionDecl *)> Keep)
      : Api(Api), SM(SM), Keep(Keep) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  std::vector<CaptureSite> Sites;

  bool VisitCallExpr(CallExpr *CE) {
    CaptureSite Site;
    Site.Call = CE;
    Site.Start = SM.getExpansionRange(CE->getBeginLoc()).getBegin();
    Site.Stop = SM.getExpansionRange(CE->getEndLoc()).getEnd();
    auto C = Api.resolve(CE);
    if (C && !C->Entries.empty()) {
      const ApiEntry *Begin = C->entryWithTag("capture_begin");
      const ApiEntry *End = Begin ? nullptr : C->entryWithTag("capture_end");
      const ApiEntry *E = Begin ? Begin : End;
      if (!E) {
        addHolderCall(*C, *CE, Site); // a described API: its body is not followed
        return true;
      }
      Site.What = Begin ? CaptureSite::Kind::Begin : CaptureSite::Kind::End;
      Site.Stream = E->StreamArg ? C->arg(*E->StreamArg) : nullptr;
      Site.Relaxed = Begin && selectsMode(*C, *Begin, Begin->RelaxedModes);
      Site.ThreadLocal = Begin && selectsMode(*C, *Begin, Begin->ThreadLocalModes);
      Sites.push_back(Site);
      return true;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
    Site.Virtual = MCE && CallTargets::dispatchesVirtually(*MCE);
    if (!FD || !(Keep(FD) || Site.Virtual))
      return true;
    Site.Callee = FD;
    Sites.push_back(Site);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor || !Keep(Ctor))
      return true;
    CaptureSite Site;
    Site.Call = CE;
    Site.Start = SM.getExpansionRange(CE->getBeginLoc()).getBegin();
    Site.Stop = SM.getExpansionRange(CE->getEndLoc()).getEnd();
    Site.Callee = Ctor;
    Sites.push_back(Site);
    return true;
  }

  /// The objects a block declares are destroyed at its closing brace: a guard's destructor
  /// runs there, or what a holder's destructor runs on the guard it owns.
  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (const Stmt *S : CS->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType())
            if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl(); RD && RD->hasDefinition())
              if (const CXXDestructorDecl *Dtor = RD->getDestructor()) {
                CaptureSite Site;
                Site.Start = Site.Stop = SM.getExpansionLoc(CS->getRBracLoc());
                Site.Destroyed = VD;
                if (Keep(Dtor)) {
                  Site.Callee = Dtor;
                } else if (hasTag(Api.memberEntries(*Dtor, 1), "destroys_held")) {
                  Site.Callee = heldDestroyer(VD->getType(), VD, Keep);
                  Site.Held = true;
                }
                if (Site.Callee && Keep(Site.Callee))
                  Sites.push_back(Site);
              }
    return true;
  }

private:
  const ApiResolver &Api;
  const SourceManager &SM;
  llvm::function_ref<bool(const FunctionDecl *)> Keep;

  static bool hasTag(const std::vector<const ApiEntry *> &Entries, llvm::StringRef Tag) {
    return llvm::any_of(Entries, [&](const ApiEntry *E) { return E->hasTag(Tag); });
  }

  /// A holder's call that makes or destroys the guard it owns (`std::make_unique<Guard>(s)`,
  /// `guard.reset()`, `guard = nullptr`) stands for the guard's constructor or destroyer.
  void addHolderCall(const ApiCall &C, const CallExpr &CE, CaptureSite Site) {
    const FunctionDecl *Runs = nullptr;
    if (C.hasTag("constructs_held")) {
      Runs = heldConstructor(CE);
    } else if (C.hasTag("destroys_held") && !C.Args.empty() && C.Args.front() &&
               (!isa<CXXOperatorCallExpr>(CE) || assignmentEmpties(CE))) {
      const Expr *Holder = C.Args.front()->IgnoreParenImpCasts();
      const auto *Ref = dyn_cast<DeclRefExpr>(Holder);
      Runs = heldDestroyer(Holder->getType(), Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr, Keep);
    }
    if (!Runs || !Keep(Runs))
      return;
    Site.Callee = Runs;
    Site.Held = true;
    Sites.push_back(Site);
  }
};

/// The argument of `CE` at parameter `Param` of its callee (the object of an operator call
/// that is a method comes first in its arguments).
const Expr *argumentFor(const Expr *Site, unsigned Param) {
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Site))
    return Param < Construct->getNumArgs() ? Construct->getArg(Param) : nullptr;
  const auto *CE = dyn_cast_or_null<CallExpr>(Site);
  if (!CE)
    return nullptr;
  unsigned Shift = 0;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()))
      Shift = 1;
  return Param + Shift < CE->getNumArgs() ? CE->getArg(Param + Shift) : nullptr;
}

/// The object a method is called on, or null.
const Expr *objectOf(const Expr *Site) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Site);
  if (!CE)
    return nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    return MCE->getImplicitObjectArgument();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()) && Op->getNumArgs() > 0)
      return Op->getArg(0);
  return nullptr;
}

/// The begin and end calls of `Sites`, in source order, with the calls of functions that have an
/// effect standing for theirs (an end before a begin when a function does both).
std::vector<CaptureCall> captureCalls(const std::vector<CaptureSite> &Sites, const CaptureEffects *Effects,
                                      const SourceManager &SM, const ASTContext &Ctx) {
  std::vector<CaptureCall> Calls;
  for (const CaptureSite &S : Sites) {
    CaptureCall Call;
    Call.Start = S.Start;
    Call.Stop = S.Stop;
    Call.Call = S.Call;
    Call.Destroyed = S.Destroyed;
    if (S.What != CaptureSite::Kind::Callee) {
      Call.Begin = S.What == CaptureSite::Kind::Begin;
      Call.Stream = spelling(S.Stream, Ctx);
      Call.Relaxed = S.Relaxed;
      Call.ThreadLocal = S.ThreadLocal;
      streamKey(S.Stream, Call.KeyParam, Call.KeyField);
      Calls.push_back(std::move(Call));
      continue;
    }
    std::optional<CaptureEffect> Effect = Effects ? Effects->ofCall(S) : std::nullopt;
    const CaptureEffect *E = Effect ? &*Effect : nullptr;
    if (!E || !E->any())
      continue;
    Call.Callee = S.Callee;
    // A holder's call gives the arguments of the guard's constructor (make_unique, emplace),
    // not of its destroyer (reset).
    if (E->StreamParam >= 0 && (!S.Held || isa<CXXConstructorDecl>(S.Callee))) {
      const Expr *Arg = argumentFor(S.Call, unsigned(E->StreamParam));
      Call.Stream = spelling(Arg, Ctx);
      streamKey(Arg, Call.KeyParam, Call.KeyField);
    } else if (!E->StreamField.empty() && isa_and_nonnull<CallExpr>(S.Call) && !S.Held) {
      // A field of a constructed or destroyed object has no name here: the stream is unknown.
      const Expr *Object = objectOf(S.Call);
      if (!Object || isThis(Object)) {
        Call.Stream = E->StreamField;
        Call.KeyField = E->StreamField;
      } else {
        Call.Stream = spelling(Object, Ctx) + "." + E->StreamField;
      }
    }
    if (E->Closes) {
      Call.Begin = false;
      Calls.push_back(Call);
    }
    if (E->Opens) {
      Call.Begin = true;
      Call.Relaxed = E->Relaxed;
      Call.OnTrue = E->OpensOnTrue;
      Calls.push_back(std::move(Call));
    }
  }
  std::stable_sort(Calls.begin(), Calls.end(), [&](const CaptureCall &A, const CaptureCall &B) {
    return SM.isBeforeInTranslationUnit(A.Start, B.Start);
  });
  return Calls;
}

/// For each begin call, the index of the end call that closes it: the next end on the same
/// stream, else the next end at all; -1 when none does.
std::vector<int> closers(const std::vector<CaptureCall> &Calls) {
  std::vector<int> Out(Calls.size(), -1);
  for (size_t I = 0; I < Calls.size(); ++I) {
    if (!Calls[I].Begin)
      continue;
    for (size_t J = I + 1; J < Calls.size() && Out[I] < 0; ++J)
      if (!Calls[J].Begin && Calls[J].Stream == Calls[I].Stream)
        Out[I] = int(J);
    for (size_t J = I + 1; J < Calls.size() && Out[I] < 0; ++J)
      if (!Calls[J].Begin)
        Out[I] = int(J);
  }
  return Out;
}

/// The boolean literal `R` returns (`return true;`, `return 0;`), if it returns one.
std::optional<bool> returnedLiteral(const ReturnStmt &R) {
  const Expr *V = R.getRetValue();
  if (!V)
    return std::nullopt;
  V = V->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(V))
    return B->getValue();
  if (const auto *I = dyn_cast<IntegerLiteral>(V))
    return I->getValue() != 0;
  return std::nullopt;
}

/// Whether `R` returns whether the begin call in it succeeded: `return begin(...) == 0;`
/// (`cudaSuccess`, `CUDA_SUCCESS`), which is true exactly on the path that opened the capture.
bool returnsBeginSucceeded(const ReturnStmt &R, const ASTContext &Ctx) {
  const auto *Cmp = dyn_cast_or_null<BinaryOperator>(R.getRetValue() ? R.getRetValue()->IgnoreParenImpCasts() : nullptr);
  if (!Cmp || Cmp->getOpcode() != BO_EQ)
    return false;
  auto IsZero = [&](const Expr *E) {
    Expr::EvalResult V;
    return !E->isValueDependent() && E->EvaluateAsInt(V, Ctx) && V.Val.getInt() == 0;
  };
  const Expr *L = Cmp->getLHS()->IgnoreParenImpCasts(), *Rhs = Cmp->getRHS()->IgnoreParenImpCasts();
  return (isa<CallExpr>(L) && IsZero(Rhs)) || (isa<CallExpr>(Rhs) && IsZero(L));
}

/// Whether `FD`, which opens a capture at `Open`, opens it only on the paths that return true:
/// it returns a bool, every return before `Open` returns false and every one after it true —
/// or the return that holds the begin call returns whether it succeeded.
bool opensOnTrue(const FunctionDecl &FD, SourceLocation Open, const SourceManager &SM) {
  if (!FD.getReturnType()->isBooleanType() || !FD.getBody())
    return false;
  bool Before = false, After = false, Agree = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Agree || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      SourceRange Range(SM.getExpansionLoc(R->getBeginLoc()), SM.getExpansionLoc(R->getEndLoc()));
      if (!SM.isBeforeInTranslationUnit(Open, Range.getBegin()) && !SM.isBeforeInTranslationUnit(Range.getEnd(), Open)) {
        Agree = returnsBeginSucceeded(*R, FD.getASTContext());
        Before = After = true; // false on failure, true on success
        return;
      }
      bool Later = SM.isBeforeInTranslationUnit(Open, SM.getExpansionLoc(R->getBeginLoc()));
      std::optional<bool> V = returnedLiteral(*R);
      Agree = V && *V == Later;
      (Later ? After : Before) = true;
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD.getBody());
  return Agree && Before && After;
}

/// What `Calls` (one body's, in source order) do to capture for the body's callers.
CaptureEffect effectOf(const std::vector<CaptureCall> &Calls) {
  CaptureEffect E;
  if (Calls.empty())
    return E;
  if (!Calls.front().Begin) {
    E.Closes = true;
    E.StreamParam = Calls.front().KeyParam;
    E.StreamField = Calls.front().KeyField;
  }
  std::vector<int> Close = closers(Calls);
  for (size_t I = Calls.size(); I-- > 0;)
    if (Calls[I].Begin && Close[I] < 0) { // the last begin left open
      E.Opens = true;
      E.Relaxed = Calls[I].Relaxed;
      E.StreamParam = Calls[I].KeyParam;
      E.StreamField = Calls[I].KeyField;
      break;
    }
  return E;
}

std::vector<CaptureSite> collectSites(const FunctionDecl &FD, const ApiResolver &Api, const SourceManager &SM,
                                      llvm::function_ref<bool(const FunctionDecl *)> Keep) {
  SiteCollector Collector(Api, SM, Keep);
  Collector.TraverseStmt(FD.getBody());
  return std::move(Collector.Sites);
}

} // namespace

CaptureEffects CaptureEffects::compute(llvm::ArrayRef<const FunctionDecl *> Functions, const ApiResolver &Api,
                                       const SourceManager &SM, Import Imported, Import ImportedVirtual) {
  CaptureEffects Out;
  Out.Imported = std::move(Imported);
  Out.ImportedVirtual = std::move(ImportedVirtual);
  llvm::DenseSet<const FunctionDecl *> Defined;
  for (const FunctionDecl *FD : Functions)
    Defined.insert(canon(FD));
  auto Keep = [&](const FunctionDecl *Callee) {
    return Defined.contains(canon(Callee)) || (Out.Imported && !Callee->hasBody());
  };
  for (const FunctionDecl *FD : Functions) {
    if (FD->getBody())
      if (std::vector<CaptureSite> S = collectSites(*FD, Api, SM, Keep); !S.empty())
        Out.Sites[canon(FD)] = std::move(S);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      llvm::SmallVector<const CXXMethodDecl *, 4> Work(MD->overridden_methods().begin(),
                                                       MD->overridden_methods().end());
      llvm::DenseSet<const FunctionDecl *> Seen;
      while (!Work.empty()) {
        const CXXMethodDecl *Base = Work.pop_back_val();
        if (!Seen.insert(canon(Base)).second)
          continue;
        Out.Overriders[canon(Base)].push_back(FD);
        Work.append(Base->overridden_methods().begin(), Base->overridden_methods().end());
      }
    }
  }

  // Effects only appear where a body has a capture call or calls a function with an effect, so
  // the rounds stop after the longest chain of wrappers (bounded against recursion that flips).
  for (unsigned Round = 0; Round < 32; ++Round) {
    bool Changed = false;
    for (const auto &[FD, Sites] : Out.Sites) {
      std::vector<CaptureCall> Calls = captureCalls(Sites, &Out, SM, FD->getASTContext());
      CaptureEffect E = effectOf(Calls);
      if (E.Opens)
        for (size_t I = Calls.size(); I-- > 0;)
          if (Calls[I].Begin) {
            E.OpensOnTrue = opensOnTrue(*FD, Calls[I].Stop, SM);
            break;
          }
      auto It = Out.Own.find(FD);
      const CaptureEffect None;
      if (E == (It == Out.Own.end() ? None : It->second))
        continue;
      Changed = true;
      if (E.any())
        Out.Own[FD] = E;
      else
        Out.Own.erase(FD);
    }
    if (!Changed)
      break;
  }
  return Out;
}

const CaptureEffect *CaptureEffects::of(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  auto It = Own.find(canon(FD));
  if (It != Own.end())
    return &It->second;
  if (Imported && !Sites.count(canon(FD)) && !FD->hasBody())
    return Imported(FD);
  return nullptr;
}

std::optional<CaptureEffect> CaptureEffects::ofCall(const CaptureSite &Site) const {
  const CaptureEffect *Own = of(Site.Callee);
  if (!Site.Virtual)
    return Own ? std::optional<CaptureEffect>(*Own) : std::nullopt;
  std::vector<const CaptureEffect *> All;
  if (Own)
    All.push_back(Own);
  auto It = Overriders.find(canon(Site.Callee));
  if (It != Overriders.end())
    for (const FunctionDecl *O : It->second)
      if (const CaptureEffect *E = of(O); E && E->any())
        All.push_back(E);
  // Overriders defined in the program's other units (whole-program mode).
  if (ImportedVirtual)
    if (const CaptureEffect *E = ImportedVirtual(Site.Callee); E && E->any())
      All.push_back(E);
  if (All.empty())
    return std::nullopt;
  CaptureEffect Merged = *All.front();
  for (const CaptureEffect *E : All)
    Merged.join(*E);
  return Merged;
}

bool CaptureEffects::isCalled(const FunctionDecl *FD) const {
  for (const auto &[Caller, List] : Sites)
    for (const CaptureSite &S : List) {
      if (S.What != CaptureSite::Kind::Callee)
        continue;
      if (canon(S.Callee) == canon(FD))
        return true;
      if (!S.Virtual)
        continue;
      auto It = Overriders.find(canon(S.Callee));
      if (It != Overriders.end() && llvm::any_of(It->second, [&](const FunctionDecl *O) { return canon(O) == canon(FD); }))
        return true;
    }
  return false;
}

std::map<const FunctionDecl *, CaptureEffect> CaptureEffects::byOverriddenMethod() const {
  std::map<const FunctionDecl *, CaptureEffect> Out;
  for (const auto &[Base, List] : Overriders)
    for (const FunctionDecl *O : List)
      if (const CaptureEffect *E = of(O); E && E->any()) {
        auto [It, New] = Out.try_emplace(Base, *E);
        if (!New)
          It->second.join(*E);
      }
  return Out;
}

std::vector<const FunctionDecl *> CaptureEffects::closingOverriders(const FunctionDecl *MD) const {
  std::vector<const FunctionDecl *> Out;
  auto It = Overriders.find(canon(MD));
  if (It != Overriders.end())
    for (const FunctionDecl *O : It->second)
      if (const CaptureEffect *E = of(O); E && E->Closes)
        Out.push_back(O);
  return Out;
}

const std::vector<CaptureSite> *CaptureEffects::sitesOf(const FunctionDecl *FD) const {
  auto It = Sites.find(canon(FD));
  return It == Sites.end() ? nullptr : &It->second;
}

namespace {

/// The end calls and destroyed objects that end a window on their paths.
FlowEnds endsOf(const std::vector<const CaptureCall *> &Calls) {
  FlowEnds Out;
  for (const CaptureCall *C : Calls) {
    if (C->Call)
      Out.Calls.push_back(C->Call);
    if (C->Destroyed)
      Out.Destroyed.push_back(C->Destroyed);
  }
  return Out;
}

std::vector<CaptureCall> callsOf(const FunctionDecl &FD, const ApiResolver &Api, const SourceManager &SM,
                                 const CaptureEffects *Effects) {
  if (Effects) {
    const std::vector<CaptureSite> *Sites = Effects->sitesOf(&FD);
    return Sites ? captureCalls(*Sites, Effects, SM, FD.getASTContext()) : std::vector<CaptureCall>{};
  }
  std::vector<CaptureSite> Sites = collectSites(FD, Api, SM, [](const FunctionDecl *) { return false; });
  return captureCalls(Sites, nullptr, SM, FD.getASTContext());
}

} // namespace

std::vector<CaptureWindow> findCaptureWindows(const FunctionDecl &FD, const ApiResolver &Api,
                                              const SourceManager &SM, const CaptureEffects *Effects) {
  std::vector<CaptureWindow> Windows;
  if (!FD.getBody())
    return Windows;
  std::vector<CaptureCall> Calls = callsOf(FD, Api, SM, Effects);
  std::vector<int> Close = closers(Calls);
  for (size_t I = 0; I < Calls.size(); ++I) {
    if (!Calls[I].Begin)
      continue;
    CaptureWindow W;
    W.Function = &FD;
    W.Begin = Calls[I].Start;
    W.Open = Calls[I].Stop;
    W.Relaxed = Calls[I].Relaxed;
    W.ThreadLocal = Calls[I].ThreadLocal;
    if (Close[I] >= 0) {
      W.Close = Calls[Close[I]].Start;
      W.ClosedBy = Calls[Close[I]].Callee;
    }
    // Every end call on the window's stream (else every end call) ends it on its path.
    std::vector<const CaptureCall *> EndCalls;
    for (const CaptureCall &C : Calls)
      if (!C.Begin && C.Stream == Calls[I].Stream)
        EndCalls.push_back(&C);
    if (EndCalls.empty())
      for (const CaptureCall &C : Calls)
        if (!C.Begin)
          EndCalls.push_back(&C);
    narrowByFlow(W, FD, Calls[I].Call, endsOf(EndCalls), SM, Calls[I].OnTrue);
    Windows.push_back(W);
  }
  return Windows;
}

std::optional<CaptureWindow> entryWindow(const FunctionDecl &FD, const ApiResolver &Api, const SourceManager &SM,
                                         const CaptureEffects &Effects) {
  if (!FD.getBody())
    return std::nullopt;
  std::vector<CaptureCall> Calls = callsOf(FD, Api, SM, &Effects);
  if (Calls.empty() || Calls.front().Begin)
    return std::nullopt;
  CaptureWindow W;
  W.Function = &FD;
  const Stmt *Body = FD.getBody();
  W.Open = SM.getExpansionLoc(isa<CompoundStmt>(Body) ? cast<CompoundStmt>(Body)->getLBracLoc() : Body->getBeginLoc());
  W.Begin = W.Open;
  W.Close = Calls.front().Start;
  W.ClosedBy = Calls.front().Callee;
  std::vector<const CaptureCall *> EndCalls;
  for (const CaptureCall &C : Calls)
    if (!C.Begin)
      EndCalls.push_back(&C);
  narrowByFlow(W, FD, nullptr, endsOf(EndCalls), SM);
  return W;
}

} // namespace graphify
