// Device-to-host reads. Under cuda-graph every such call blocks capture; under trace only those
// whose value reaches the graph change results (a value only printed or dropped is harmless
// there), which the taint facts answer with flowsIntoGraph().
#include "HostSyncCheck.h"

#include <clang/AST/ExprCXX.h>

namespace graphify {

using namespace clang;

const CheckInfo &HostSyncCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-host-sync",
      "device-to-host read or transfer inside a graph region",
      "Finds calls that read tensor values on the host or wait for the device: item(), "
      "is_nonzero(), equal(), allclose(), data_ptr()/accessor() reads, cpu() and to(kCPU), "
      "printing a tensor (entries tagged host_sync, and device_transfer entries whose "
      "destination argument is the CPU). Each one synchronizes the host with the device, which "
      "CUDA-graph capture forbids; under --profile=trace only reads whose value flows into the "
      "graph are reported, because a trace freezes them into constants.",
      "Keep the value on the device as a 0-d tensor (x * y.max() instead of "
      "x * y.max().item<float>()), compare with tensor ops and select with torch::where, and "
      "move logging and host copies out of the graph region.",
      /*InTraceProfile=*/true};
  return Info;
}

void HostSyncCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  bool Trace = Ctx.profile() == Profile::Trace;
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call || Call->Entries.empty())
      return;
    // One finding per call: these entries belong to the dynamic-shape and capture checks.
    if (Call->hasTag("dynamic_output_shape") || Call->hasTag("capture_unsafe"))
      return;
    std::string What;
    if (const ApiEntry *E = Call->entryWithTag("host_sync")) {
      What = "'" + Call->Name + "' " + (E->Doc.empty() ? "reads tensor data on the host" : E->Doc);
    } else if (Call->hasTag("device_transfer")) {
      bool ToCpu = false;
      for (unsigned I = Call->IsMethod ? 1 : 0; I < Call->Args.size(); ++I)
        ToCpu |= ApiResolver::mentionsConstant(Call->Args[I], "CPU", "cpu");
      if (!ToCpu)
        return;
      What = "'" + Call->Name + "' copies the tensor to host memory";
    } else {
      return;
    }
    if (Trace) {
      // Only reads that produce a host value which then reaches the graph.
      if (!Call->hasTag("data_dependent_output") || !Facts.flowsIntoGraph(Call->Call))
        return;
      Ctx.report(info(), Call->NameLoc,
                 What + "; a trace records the value as a constant for every input", &S);
      return;
    }
    Ctx.report(info(), Call->NameLoc,
               What + "; the device-to-host sync cannot be captured in a CUDA graph", &S);
  });
}

} // namespace graphify
