#pragma once
/// \file
/// Tensors that stay in host memory inside a region: a shape they take from the data is host work,
/// like the rest of what runs after the copy that brought the data to the host (which is the
/// finding). Under the cuda-graph profile graphify-data-dependent-size leaves them out; a trace
/// freezes their sizes too, so the trace profile keeps them.
///
/// \code
///   HostOnlyTensors Host(Ctx);
///   if (Host.staysOnHost(Call)) return;  // sizes of host work
/// \endcode

#include "graphify/analyzer/AnalysisContext.h"

#include <llvm/ADT/SmallPtrSet.h>

namespace graphify {

class HostOnlyTensors {
public:
  /// Collects the host factories the region's copies to a device read.
  explicit HostOnlyTensors(AnalysisContext &Ctx);

  /// Whether `Call` works on host memory only: a method of a tensor in host memory (a copy the
  /// region made with cpu(), a factory's result; `host.narrow(0, 0, n)`), an op whose tensor
  /// operands all are, or a host factory given no device, sized by the shapes of tensors in host
  /// memory, whose result no copy to a device reads (`torch::ones({host.size(0), 1})`
  /// concatenated with the host copy, `torch::zeros(host.sizes())`).
  bool staysOnHost(const ApiCall &Call) const;

private:
  AnalysisContext &Ctx;
  llvm::SmallPtrSet<const clang::Expr *, 8> CopiedFactories;

  bool inHostMemory(const clang::Expr *Tensor) const;
  /// Whether the sizes `Call` is given read the shapes of tensors (one or more), all in host memory.
  bool sizedByHostTensors(const ApiCall &Call) const;
};

} // namespace graphify
