// CUDA runtime, driver and framework calls that stream capture forbids. Which calls they are is
// entirely the packs' (rules/cuda.yaml): `capture_unsafe` calls (in a relaxed-mode capture window
// those also tagged `capture_relaxed_ok` are allowed), and `stream_ordered` calls, kernel
// launches included, whose stream argument selects the legacy default stream, and tensor ops a
// stream guard sends there (LegacyStreamGuards).
#include "CaptureUnsafeApiCheck.h"

#include "FirstCallsInWindows.h"
#include "LazyInit.h"
#include "LegacyStreamGuards.h"
#include "lib/IdleGuards.h"
#include "RelaxedThreadMode.h"

#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/DenseSet.h>

namespace graphify {

using namespace clang;

const CheckInfo &CaptureUnsafeApiCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-capture-unsafe-api",
      "CUDA call that is illegal or unsafe during stream capture",
      "Finds calls tagged capture_unsafe in the rule packs: device, stream and event "
      "synchronization (cudaDeviceSynchronize, cudaStreamSynchronize, torch::cuda::synchronize), "
      "allocation and freeing outside the graph's memory pool (cudaMalloc, cudaFree), blocking "
      "or legacy-stream copies (cudaMemcpy, cudaMemset) and queries of captured work "
      "(cudaEventQuery), and work enqueued on the legacy default stream: kernel launches "
      "<<<...>>> and calls tagged stream_ordered (cudaMemcpyAsync, cudaLaunchKernel, "
      "cudaEventRecord) without a stream, with stream 0 or with cudaStreamLegacy, and tensor ops "
      "after a stream guard that makes the default (legacy) stream current. Inside stream "
      "capture they fail with cudaErrorStreamCaptureUnsupported, invalidate the capture or run "
      "outside it; the legacy stream synchronises with the stream being captured, which is "
      "illegal whatever the capture mode. In a relaxed-mode capture window, calls tagged "
      "capture_relaxed_ok (cudaMalloc) are allowed.",
      "Allocate buffers before the capture begins (or use cudaMallocAsync on the capturing "
      "stream), use the Async variants and kernel launches on the capturing stream, and "
      "synchronize only after the capture ends or the graph replays, outside the capture window "
      "or graph region.",
      /*InTraceProfile=*/false};
  return Info;
}

/// Why a stream_ordered call's work goes to the legacy default stream ("without a stream",
/// "on stream 'cudaStreamLegacy'"), or empty when it goes to another stream. The stream is the
/// argument at the entry's `stream_arg`: omitted (defaulted), a null pointer constant, or spelled
/// with one of the entry's `legacy_streams` (a macro such as cudaStreamLegacy).
static std::string legacyStreamUse(const ApiCall &Call, const ApiEntry &E, const ASTContext &Ctx) {
  const Expr *Stream = Call.arg(*E.StreamArg);
  if (!Stream)
    return "without a stream";
  const Expr *Bare = Stream->IgnoreParenImpCasts();
  if (Bare->isNullPointerConstant(const_cast<ASTContext &>(Ctx), Expr::NPC_ValueDependentIsNotNull))
    return "without a stream";
  const SourceManager &SM = Ctx.getSourceManager();
  // The macro stack of the argument's first token: `cudaStreamLegacy` expands to
  // `((cudaStream_t)0x1)`, possibly inside the user's own macros.
  for (SourceLocation Loc = Stream->getBeginLoc(); Loc.isMacroID(); Loc = SM.getImmediateMacroCallerLoc(Loc)) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (llvm::is_contained(E.LegacyStreams, Macro))
      return "on stream '" + Macro.str() + "'";
  }
  // FIXME: a legacy stream reached through a variable (`cudaStream_t s = cudaStreamLegacy;`) is
  // not followed; the taint engine's value tracking would be the place for it.
  return "";
}

/// The name as the user wrote it: the driver API's macros (`cuMemAlloc` for `cuMemAlloc_v2`).
static std::string writtenName(const ApiCall &Call, const ASTContext &Ast) {
  const SourceManager &SM = Ast.getSourceManager();
  if (Call.NameLoc.isMacroID() && SM.isMacroBodyExpansion(Call.NameLoc)) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(Call.NameLoc, SM, Ast.getLangOpts());
    if (!Macro.empty() && llvm::StringRef(Call.Name).starts_with(Macro))
      return Macro.str();
  }
  return Call.Name;
}

/// The second half of every legacy-stream message: why it is illegal, whatever the capture mode.
static const char *const LegacyStreamWhy =
    "the legacy default stream, which synchronises with the stream being captured and is illegal "
    "during CUDA stream capture";

void CaptureUnsafeApiCheck::run(AnalysisContext &Ctx) {
  // The configuration calls of the launches reported as launches (a <<<>>> launch is visited
  // before its configuration call, which is one of its children).
  llvm::DenseSet<const Stmt *> LaunchConfigs;
  IdleGuards Guards(Ctx.api(), &Ctx.regions().importedIdleHelpers(), &Ctx.regions().importedSetterCalls(),
                    &Ctx.regions().importedFlagRecords());
  // The calls that may run in a capture: what a bool parameter is passed there decides its tests.
  llvm::DenseSet<const Stmt *> CapturedCalls;
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (isa<CallExpr>(S))
      CapturedCalls.insert(&S);
  });
  Guards.followParameters(Ctx.ast(), Ctx.regions().wholeProgram(),
                          [&](const CallExpr &CE) { return CapturedCalls.contains(&CE); });
  RelaxedThreadMode ThreadMode(Ctx.api());
  LegacyStreamGuards Legacy(Ctx.api());
  struct LazySite {
    const Stmt *Call;
    SourceLocation Loc;
    std::string Message;
  };
  std::vector<LazySite> Lazy;
  Ctx.forEachRegionSite([&](const Stmt &S, AnalysisContext::RegionSite Site) {
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(&S)) {
      // `<<<grid, block, shmem, stream>>>` calls the toolkit's configuration function, which
      // the packs describe like any stream_ordered call.
      LaunchConfigs.insert(Launch->getConfig());
      auto Config = Ctx.api().resolve(Launch->getConfig());
      const ApiEntry *E = Config ? Config->entryWithTag("stream_ordered") : nullptr;
      if (std::string How = E ? legacyStreamUse(*Config, *E, Ctx.ast()) : ""; !How.empty())
        Ctx.report(info(), Launch->getBeginLoc(),
                   "kernel launch " + How + " runs on " + LegacyStreamWhy +
                       "; pass the capturing stream as the fourth <<<>>> argument",
                   &S);
      return;
    }
    if (!isa<CallExpr>(S) || LaunchConfigs.contains(&S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    if (const ApiEntry *E = Call->entryWithTag("stream_ordered")) {
      if (std::string How = legacyStreamUse(*Call, *E, Ctx.ast()); !How.empty())
        Ctx.report(info(), Call->NameLoc,
                   "'" + writtenName(*Call, Ctx.ast()) + "' " + How + " " + (E->Doc.empty() ? "runs" : E->Doc) +
                       " on " + LegacyStreamWhy + "; pass the capturing stream",
                   &S);
    }
    // A tensor op of the packs runs on the current stream, which a guard may have made the legacy one.
    if (!Call->Entries.empty() && Ctx.api().isTensor(cast<Expr>(S).getType()))
      if (const DeclStmt *Guard = Legacy.guardOf(S, Ctx.ast()))
        Ctx.report(info(), Call->NameLoc,
                   "'" + writtenName(*Call, Ctx.ast()) + "' runs on " + LegacyStreamWhy +
                       " (the stream guard at line " +
                       std::to_string(Ctx.ast().getSourceManager().getExpansionLineNumber(Guard->getBeginLoc())) +
                       " makes it current); keep the capturing stream current",
                   &S);
    const ApiEntry *E = Call->entryWithTag("capture_unsafe");
    // Relaxed capture mode (the capture's, or the thread's own after an exchange call) permits
    // what the packs tag capture_relaxed_ok (allocation); code that runs only when a status query
    // says no capture is running is not captured.
    const bool Relaxed = Call->hasTag("capture_relaxed_ok") && (Site.RelaxedCapture || ThreadMode.covers(S, Ctx.ast()));
    if (!E || Relaxed || Guards.runsOnlyWhenIdle(S, Ctx.ast()))
      return;
    std::string Message = "'" + writtenName(*Call, Ctx.ast()) + "' " + (E->Doc.empty() ? "is unsafe" : E->Doc) +
                          "; it is illegal or unsafe during CUDA stream capture";
    // Lazy initialisation that a warm-up ran before every capture reaching it is not reported
    // (FirstCallsInWindows judges that, for the windows of this unit).
    if (lazyInitOf(S, Ctx.ast())) {
      if (llvm::none_of(Lazy, [&](const LazySite &L) { return L.Call == &S; }))
        Lazy.push_back({&S, Call->NameLoc, std::move(Message)});
    }
    else
      Ctx.report(info(), Call->NameLoc, Message, &S);
  });
  llvm::DenseSet<const Stmt *> Warmed;
  reportUnwarmedFirstCalls(Ctx, info(), &Warmed);
  for (const LazySite &L : Lazy)
    if (!Warmed.contains(L.Call))
      Ctx.report(info(), L.Loc, L.Message, L.Call);
}

} // namespace graphify
