// Ops whose output shape follows tensor values. Owned here, once per call, even when the entry
// also carries host_sync (`nonzero`): the shape is the deeper problem, and host-sync skips it.
#include "DynamicShapeCheck.h"

#include "HostOnlyTensors.h"
#include "Selections.h"

#include <clang/AST/ExprCXX.h>

namespace graphify {

using namespace clang;

const CheckInfo &DynamicShapeCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-dynamic-shape",
      "operation whose output shape depends on tensor values",
      "Finds operations tagged dynamic_output_shape in the rule packs (nonzero, argwhere, "
      "masked_select, unique*, bincount, one-argument where) and indexing with a provable "
      "boolean mask (index({mask}), index_put_({mask}, v)). Their output shape is known only "
      "after reading the data on the host, so a CUDA graph cannot hold them. Indexing with "
      "long tensors (argmax, argsort) is fixed-size and not reported.",
      "Keep fixed shapes: select with torch::where(mask, x, 0) or masked_fill instead of "
      "masked_select/boolean indexing, reorder with a stable argsort of the mask instead of "
      "concatenating boolean selections, and write through masks instead of nonzero indices.",
      /*InTraceProfile=*/false};
  return Info;
}

static std::string describe(const ApiEntry &E) { return E.Doc.empty() ? "" : ": " + E.Doc; }

void DynamicShapeCheck::run(AnalysisContext &Ctx) {
  // A selection from a tensor copied to host memory is host work that moves out with the rest of
  // what follows the copy (the copy is the finding). This check runs under the cuda-graph
  // profile only.
  Ctx.forEachRegionApiCall([&](const ApiCall &Call) {
    const ApiEntry *E = Call.Entries.empty() ? nullptr : selectionEntry(Call, Ctx);
    if (!E || readsHostCopiesOnly(Call, Ctx))
      return;
    std::string What = E->hasTag("dynamic_output_shape") ? "'" + Call.Name + "' has a data-dependent output shape"
                                                         : "'" + Call.Name + "' with a boolean mask has a "
                                                           "data-dependent output shape";
    // A project's function recognized as the NMS kernel says so: its body's findings are gone.
    const SuppressionKernel *Kernel = Ctx.api().suppressionKernel(Call.Callee);
    const std::string Recognized = !Kernel               ? ""
                                   : Kernel->Dispatches ? " (it dispatches on the boxes' dtype to torchvision's NMS "
                                                          "kernel written out)"
                                                        : " (its body is torchvision's NMS kernel written out)";
    Ctx.report(info(), Call.NameLoc, What + describe(*E) + Recognized + "; a static graph cannot hold it", Call.Call);
  });
}

} // namespace graphify
