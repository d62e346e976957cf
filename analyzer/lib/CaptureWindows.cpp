// Capture windows. Invariant: a window never starts before its begin call nor extends past the
// end call that closes it, so code set up before capture and synchronisation after it are
// never reported.
#include "graphify/analyzer/CaptureWindows.h"

#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace graphify {

using namespace clang;

bool CaptureWindow::contains(SourceLocation Loc, const SourceManager &SM) const {
  if (Loc.isInvalid() || Open.isInvalid())
    return false;
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (!SM.isBeforeInTranslationUnit(Open, L))
    return false;
  return Close.isInvalid() || SM.isBeforeInTranslationUnit(L, Close);
}

namespace {

/// One begin or end call of the body.
struct CaptureCall {
  bool Begin = false;
  SourceLocation Start, Stop; // expansion range of the call (the macro around it, if any)
  std::string Stream;         // the stream argument as written
  bool Relaxed = false;
};

std::string spelling(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->IgnoreParenImpCasts()->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  return OS.str();
}

bool selectsRelaxedMode(const ApiCall &C, const ApiEntry &E) {
  if (!E.ModeArg)
    return false;
  const Expr *Mode = C.arg(*E.ModeArg);
  if (!Mode)
    return false; // defaulted: the global mode
  return llvm::any_of(E.RelaxedModes, [&](const std::string &Name) {
    return ApiResolver::mentionsConstant(Mode, Name, /*StringPrefix=*/"");
  });
}

class CaptureCallCollector : public RecursiveASTVisitor<CaptureCallCollector> {
public:
  CaptureCallCollector(const ApiResolver &Api, const SourceManager &SM, const ASTContext &Ctx)
      : Api(Api), SM(SM), Ctx(Ctx) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  std::vector<CaptureCall> Calls;

  bool VisitCallExpr(CallExpr *CE) {
    auto C = Api.resolve(CE);
    if (!C)
      return true;
    const ApiEntry *Begin = C->entryWithTag("capture_begin");
    const ApiEntry *End = Begin ? nullptr : C->entryWithTag("capture_end");
    const ApiEntry *E = Begin ? Begin : End;
    if (!E)
      return true;
    CaptureCall Call;
    Call.Begin = Begin != nullptr;
    Call.Start = SM.getExpansionRange(CE->getBeginLoc()).getBegin();
    Call.Stop = SM.getExpansionRange(CE->getEndLoc()).getEnd();
    Call.Stream = spelling(C->arg(*E->StreamArg), Ctx);
    Call.Relaxed = Begin && selectsRelaxedMode(*C, *Begin);
    Calls.push_back(std::move(Call));
    return true;
  }

private:
  const ApiResolver &Api;
  const SourceManager &SM;
  const ASTContext &Ctx;
};

} // namespace

std::vector<CaptureWindow> findCaptureWindows(const FunctionDecl &FD, const ApiResolver &Api,
                                              const SourceManager &SM) {
  std::vector<CaptureWindow> Windows;
  if (!FD.getBody())
    return Windows;
  CaptureCallCollector Collector(Api, SM, FD.getASTContext());
  Collector.TraverseStmt(FD.getBody());
  std::vector<CaptureCall> &Calls = Collector.Calls;
  std::stable_sort(Calls.begin(), Calls.end(), [&](const CaptureCall &A, const CaptureCall &B) {
    return SM.isBeforeInTranslationUnit(A.Start, B.Start);
  });

  for (size_t I = 0; I < Calls.size(); ++I) {
    if (!Calls[I].Begin)
      continue;
    CaptureWindow W;
    W.Function = &FD;
    W.Open = Calls[I].Stop;
    W.Relaxed = Calls[I].Relaxed;
    // The next end on the same stream, else the next end at all.
    const CaptureCall *Close = nullptr;
    for (size_t J = I + 1; J < Calls.size() && !Close; ++J)
      if (!Calls[J].Begin && Calls[J].Stream == Calls[I].Stream)
        Close = &Calls[J];
    for (size_t J = I + 1; J < Calls.size() && !Close; ++J)
      if (!Calls[J].Begin)
        Close = &Calls[J];
    if (Close)
      W.Close = Close->Start;
    Windows.push_back(W);
  }
  return Windows;
}

} // namespace graphify
