// Lazy initialisation in capture windows. Invariant: a first-call hazard is reported only when no
// call of the same function can have run before the window on the window's own function's path
// in source order (a warm-up call of it, or of any function that reaches it), so a capture preceded
// by one eager run of the same step is never reported.
#include "FirstCallsInWindows.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringSet.h>

#include <string>

namespace graphify {

using namespace clang;

namespace {

const Decl *canon(const Decl *D) { return D ? D->getCanonicalDecl() : nullptr; }

/// The calls written in a body (lambdas included).
class CallLister : public RecursiveASTVisitor<CallLister> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *CE) {
    Calls.push_back(CE);
    return true;
  }
};

std::vector<const CallExpr *> callsIn(const Stmt *Body) {
  CallLister L;
  L.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(L.Calls);
}

/// Which tagged functions each analysed body reaches, directly or through the bodies it calls.
class Reach {
public:
  Reach(const AnalysisContext &Ctx) : Ctx(Ctx) {
    for (const FunctionDecl *FD : Ctx.functions())
      Bodies[canon(FD)] = FD;
  }

  /// The `first_call_allocates` entries `FD`'s body reaches (by entry name).
  const llvm::StringSet<> &of(const FunctionDecl *FD) {
    const Decl *Key = canon(FD);
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second;
    llvm::StringSet<> &Out = Memo[Key]; // empty while in progress: recursion reaches nothing new
    const FunctionDecl *Def = Bodies.lookup(Key);
    if (!Def)
      return Out;
    llvm::StringSet<> Found;
    for (const CallExpr *CE : callsIn(Def->getBody())) {
      if (const ApiEntry *E = tagged(CE)) {
        Found.insert(E->Name);
        continue;
      }
      if (const FunctionDecl *Callee = CE->getDirectCallee())
        for (const auto &N : of(Callee))
          Found.insert(N.getKey());
    }
    Memo[Key] = std::move(Found);
    return Memo[Key];
  }

  const ApiEntry *tagged(const CallExpr *CE) const {
    auto C = Ctx.api().resolve(CE);
    return C ? C->entryWithTag("first_call_allocates") : nullptr;
  }
  const FunctionDecl *body(const FunctionDecl *FD) const { return Bodies.lookup(canon(FD)); }

private:
  const AnalysisContext &Ctx;
  llvm::DenseMap<const Decl *, const FunctionDecl *> Bodies;
  llvm::DenseMap<const Decl *, llvm::StringSet<>> Memo;
};

/// A tagged call reached from a window, and the body it is written in.
struct Reached {
  const CallExpr *Call;
  const ApiEntry *Entry;
};

/// The tagged calls a window reaches: written in it, or in the bodies it calls, transitively.
std::vector<Reached> reachedFrom(const CaptureWindow &W, Reach &R, const SourceManager &SM) {
  std::vector<Reached> Out;
  llvm::DenseSet<const Decl *> Seen;
  std::vector<const CallExpr *> Work;
  for (const CallExpr *CE : callsIn(W.Function->getBody()))
    if (W.contains(CE->getBeginLoc(), SM))
      Work.push_back(CE);
  while (!Work.empty()) {
    const CallExpr *CE = Work.back();
    Work.pop_back();
    if (const ApiEntry *E = R.tagged(CE)) {
      Out.push_back({CE, E});
      continue;
    }
    const FunctionDecl *Callee = R.body(CE->getDirectCallee());
    if (!Callee || !Seen.insert(canon(Callee)).second)
      continue;
    for (const CallExpr *Inner : callsIn(Callee->getBody()))
      Work.push_back(Inner);
  }
  return Out;
}

/// Whether `FD` calls `Name`, directly or through what it calls, before `Before` and outside
/// every capture window of its own.
bool warmedUp(const FunctionDecl &FD, llvm::StringRef Name, SourceLocation Before,
              llvm::ArrayRef<CaptureWindow> Windows, Reach &R, const SourceManager &SM) {
  for (const CallExpr *CE : callsIn(FD.getBody())) {
    SourceLocation Loc = SM.getExpansionLoc(CE->getBeginLoc());
    if (!SM.isBeforeInTranslationUnit(Loc, Before))
      continue;
    if (llvm::any_of(Windows, [&](const CaptureWindow &W) { return W.contains(Loc, SM); }))
      continue;
    if (const ApiEntry *E = R.tagged(CE)) {
      if (E->Name == Name)
        return true;
      continue;
    }
    if (const FunctionDecl *Callee = CE->getDirectCallee(); Callee && R.of(Callee).contains(Name))
      return true;
  }
  return false;
}

/// Whether `W` is an entry window (a function entered with the capture open): its begin call is
/// in a caller, where the warm-up would be too.
bool isEntryWindow(const CaptureWindow &W, const SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(W.Function->getBody());
  return Body && W.Open == SM.getExpansionLoc(Body->getLBracLoc());
}

} // namespace

void reportUnwarmedFirstCalls(AnalysisContext &Ctx, const CheckInfo &Check) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  Reach R(Ctx);
  llvm::DenseSet<const CallExpr *> Reported;
  for (const FunctionDecl *FD : Ctx.functions()) {
    llvm::ArrayRef<CaptureWindow> Windows = Ctx.regions().windowsOf(FD);
    for (const CaptureWindow &W : Windows) {
      if (isEntryWindow(W, SM))
        continue;
      for (const Reached &Hit : reachedFrom(W, R, SM)) {
        if (Reported.contains(Hit.Call) || warmedUp(*FD, Hit.Entry->Name, W.Open, Windows, R, SM))
          continue;
        Reported.insert(Hit.Call);
        auto C = Ctx.api().resolve(Hit.Call);
        SourceLocation Caret = C ? C->NameLoc : Hit.Call->getBeginLoc();
        unsigned Line = SM.getExpansionLineNumber(W.Open);
        Ctx.report(Check, Caret,
                   "'" + (C ? C->Name : Hit.Entry->Name) + "' " +
                       (Hit.Entry->Doc.empty() ? "may initialise lazily" : Hit.Entry->Doc) +
                       " on its first call, and nothing calls it before the capture that begins at line " +
                       std::to_string(Line) + "; run it once before capturing (a warm-up run of the captured code)",
                   Hit.Call);
      }
    }
  }
}

} // namespace graphify
