// CUDA runtime, driver and framework calls that stream capture forbids. Which calls they are is
// entirely the `capture_unsafe` tag of the packs (rules/cuda.yaml); in a relaxed-mode capture
// window those also tagged `capture_relaxed_ok` are allowed.
#include "CaptureUnsafeApiCheck.h"

#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>

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
      "(cudaEventQuery), and kernel launches <<<...>>> without a stream. Inside stream capture "
      "they fail with cudaErrorStreamCaptureUnsupported, invalidate the capture or run outside "
      "it. In a relaxed-mode capture window, calls tagged capture_relaxed_ok (cudaMalloc) are "
      "allowed.",
      "Allocate buffers before capture (or use cudaMallocAsync on the capturing stream), use "
      "the Async variants and kernel launches on the capturing stream, and synchronize only "
      "after replay, outside "
      "the graph region.",
      /*InTraceProfile=*/false};
  return Info;
}

/// Whether a `<<<grid, block[, shmem[, stream]]>>>` launch names no stream (or the null stream),
/// so that it goes to the legacy default stream instead of the stream being captured.
static bool launchesOnLegacyStream(const CUDAKernelCallExpr &Launch, const ASTContext &Ctx) {
  const CallExpr *Config = Launch.getConfig();
  if (!Config || Config->getNumArgs() < 4)
    return false;
  const Expr *Stream = Config->getArg(3);
  if (isa<CXXDefaultArgExpr>(Stream))
    return true;
  Stream = Stream->IgnoreParenImpCasts();
  if (Stream->isNullPointerConstant(const_cast<ASTContext &>(Ctx), Expr::NPC_ValueDependentIsNotNull))
    return true;
  return false;
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

void CaptureUnsafeApiCheck::run(AnalysisContext &Ctx) {
  Ctx.forEachRegionSite([&](const Stmt &S, AnalysisContext::RegionSite Site) {
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(&S)) {
      if (launchesOnLegacyStream(*Launch, Ctx.ast()))
        Ctx.report(info(), Launch->getBeginLoc(),
                   "kernel launch without a stream runs on the legacy default stream, outside the "
                   "stream being captured; pass the capturing stream as the fourth <<<>>> argument",
                   &S);
      return;
    }
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    const ApiEntry *E = Call->entryWithTag("capture_unsafe");
    // Relaxed capture mode permits what the packs tag capture_relaxed_ok (allocation).
    if (E && !(Site.RelaxedCapture && Call->hasTag("capture_relaxed_ok")))
      Ctx.report(info(), Call->NameLoc,
                 "'" + writtenName(*Call, Ctx.ast()) + "' " + (E->Doc.empty() ? "is unsafe" : E->Doc) +
                     "; it is illegal or unsafe during CUDA stream capture",
                 &S);
  });
}

} // namespace graphify
