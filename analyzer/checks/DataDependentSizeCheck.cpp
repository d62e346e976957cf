// A size, shape, bound or k computed from a host value read from a tensor: the result's shape
// follows the data, which a static graph cannot hold. Which arguments are sizes comes from the
// `size_args` of the pack entries; `length_args` name host data whose number of elements is
// the size (`torch::tensor(keep)`, the parts of `torch::stack(parts)`).
#include "DataDependentSizeCheck.h"

#include "HostOnlyTensors.h"
#include "HostSizeReads.h"

#include <clang/AST/ExprCXX.h>

#include <set>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentSizeCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-size",
      "size, shape, bound or k computed from a value read from a tensor",
      "Finds arguments at the size positions of tensor operations (zeros/arange/full sizes, "
      "view/reshape shapes, slice and narrow bounds, topk's k, Slice(a, b)) that depend on a "
      "tensor value copied to the host, and host data whose number of elements follows tensor "
      "values where it becomes a tensor (torch::tensor(v), torch::stack(parts) of a list filled "
      "under a condition on tensor data). The result's shape then changes with the data: a trace "
      "freezes the size seen while tracing, and a CUDA graph needs every shape fixed at capture.",
      "Use sizes from tensor metadata (x.size(0)) or constants, and express value-dependent "
      "selections with masks (torch::where, masked_fill) over a fixed-size tensor.",
      /*InTraceProfile=*/true};
  return Info;
}

void DataDependentSizeCheck::run(AnalysisContext &Ctx) {
  using Ctx_ = AnalysisContext;
  const TaintFacts &Facts = Ctx.facts();
  // Host work after a copy to the host (the copy is the finding): its sizes move out with it. A
  // trace freezes them too.
  const std::optional<HostOnlyTensors> Host =
      Ctx.profile() == Profile::Trace ? std::nullopt : std::optional<HostOnlyTensors>(std::in_place, Ctx);
  Ctx.forEachRegionApiCall(
      [&](const ApiCall &Call) {
        if (Host && Host->staysOnHost(Call))
          return;
        // `std::cout << sel.size(0)`, `DebugLog("{}", sel.sizes()[0])`: the size of a selection
        // read into host code, a number that exists only once the data is on the host.
        if (Host && Call.hasTag("shape_query")) {
          const Expr *Read = sizeReadOf(Call.Call, Ctx.ast());
          const TracedOrigin *O = Facts.tracedTaintOf(Read);
          if (O && O->SizeOfSelection)
            if (std::string Sink = hostSinkOfSize(Read, Ctx.api(), Ctx.ast()); !Sink.empty())
              Ctx.report(info(), Call.NameLoc,
                         "the size of a value-dependent selection read here " + Sink +
                             " on the host; a static graph cannot hold a size that changes with the data",
                         Read, O, Read->getSourceRange());
          return;
        }
        // `torch::tensor(keep)`: as many elements as `keep` holds; `torch::stack(parts)`: as
        // many slices as `parts` holds.
        std::set<unsigned> Lengths;
        for (const ApiEntry *E : Call.Entries)
          Lengths.insert(E->LengthArgs.begin(), E->LengthArgs.end());
        for (unsigned Pos : Lengths) {
          const Expr *Data = Call.arg(Pos);
          const TracedOrigin *O = Data ? Facts.lengthTaintOf(Data) : nullptr;
          if (!O)
            continue;
          const std::string Parts = Call.hasTag("joins_inputs")
                                        ? "' joins one part per element of its list, "
                                        : "' builds a tensor with one element per element of its host data, ";
          std::string Message = "'" + Call.Name + Parts + "whose number depends on " + dependenceOf(O) +
                                "; the result's shape changes with the data, which a static graph cannot hold";
          Ctx.report(info(), Data->getBeginLoc(), Message, Call.Call, O, Data->getSourceRange());
          return;
        }
        // The finding stands for the call: what it builds is data-shaped, whichever size did it.
        Ctx.forEachTaintedArgument(Call, Ctx_::ArgumentSlot::Size, [&](const Ctx_::TaintedArgument &Arg) {
          Ctx.reportArgument(info(), Call, Arg,
                             "size argument of '" + Call.Name + "' depends on " + dependenceOf(Arg.Origin) +
                                 "; the result's shape changes with the data, which a static graph cannot hold",
                             Ctx_::ArgumentAnchor::Call);
          return true;
        });
      },
      AnalysisContext::CallForms::CallsAndConstructions);
}

} // namespace graphify
