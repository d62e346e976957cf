// CUDA runtime, driver and framework calls that stream capture forbids. Which calls they are is
// entirely the `capture_unsafe` tag of the packs (rules/cuda.yaml).
#include "CaptureUnsafeApiCheck.h"

#include <clang/AST/ExprCXX.h>

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
      "(cudaEventQuery). Inside stream capture they fail with "
      "cudaErrorStreamCaptureUnsupported or invalidate the capture.",
      "Allocate buffers before capture (or use cudaMallocAsync on the capturing stream), use "
      "the Async variants on the capturing stream, and synchronize only after replay, outside "
      "the graph region.",
      /*InTraceProfile=*/false};
  return Info;
}

void CaptureUnsafeApiCheck::run(AnalysisContext &Ctx) {
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    if (const ApiEntry *E = Call->entryWithTag("capture_unsafe"))
      Ctx.report(info(), Call->NameLoc,
                 "'" + Call->Name + "' " + (E->Doc.empty() ? "is unsafe" : E->Doc) +
                     "; it is illegal or unsafe during CUDA stream capture",
                 &S);
  });
}

} // namespace graphify
