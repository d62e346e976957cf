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

#include <optional>

namespace graphify {

/// Whether every tensor `Call` reads (a method's object; a function's tensor arguments: `std::cout
/// << t`) is in host memory (HostOrigin.h): built by a factory, copied to the host before the
/// region or window ran, or copied there by the region itself. Such a read waits for no device;
/// a copy the region makes is the finding (graphify-host-sync), and the host values read from the
/// copy stay tainted, so the branches, loops and sizes they decide keep theirs. False when it
/// reads no tensor.
bool readsHostMemoryOnly(const ApiCall &Call, const AnalysisContext &Ctx);

/// The call that put the tensor `E` in pageable host memory at this point, as the taint analysis
/// followed it (HostOrigin.h: findHostResidentOrigin), or null when it may live on a device.
const clang::Expr *hostMemoryOrigin(const clang::Expr *E, const AnalysisContext &Ctx);

/// Whether every tensor `Call` reads is in host memory because it was copied there (`cpu()`,
/// `to(kCPU)`; an op or a helper of the file computed from such a copy), not built there by a
/// factory: a factory given no device in graph code is more often device work written without
/// its placement (graphify-host-sync advises the device) than host work.
bool readsHostCopiesOnly(const ApiCall &Call, const AnalysisContext &Ctx);

class HostOnlyTensors {
public:
  explicit HostOnlyTensors(AnalysisContext &Ctx) : Ctx(Ctx) {}

  /// Whether `Call` works on host memory only: a method of a tensor in host memory (a copy the
  /// region made with cpu(), a factory's result; `host.narrow(0, 0, n)`), an op whose tensor
  /// operands all are (readsHostMemoryOnly), or a host factory whose result no copy to a device
  /// reads: one placed with a host tensor's options or device (`torch::zeros({n},
  /// host.options())`), or one given no device and sized by the shapes of tensors in host memory
  /// (`torch::ones({host.size(0), 1})` concatenated with the host copy, `torch::zeros(host.sizes())`)
  /// or read by host work only (readOnHostOnly).
  bool staysOnHost(const ApiCall &Call) const;

private:
  AnalysisContext &Ctx;
  /// The host factories the region's copies to a device read, collected at the first factory
  /// that needs them (most regions size none from host tensors).
  mutable std::optional<llvm::SmallPtrSet<const clang::Expr *, 8>> CopiedFactories;

  bool copiedToDevice(const clang::Expr *Factory) const;
  /// Whether `Factory` initialises a local tensor that only ops of the packs read, each beside
  /// tensors copied to host memory only and copying nothing to a device (`t.index_select(0,
  /// picked)` on a host copy `t`).
  bool readOnHostOnly(const clang::Expr *Factory) const;
  /// Whether the sizes `Call` is given read the shapes of tensors (one or more), all in host memory.
  bool sizedByHostTensors(const ApiCall &Call) const;
};

} // namespace graphify
