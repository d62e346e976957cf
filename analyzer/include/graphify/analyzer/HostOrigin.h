#pragma once
/// \file
/// Where a tensor copied to the device was built: the `host_factory` call (a factory given no
/// placement argument) whose pageable host memory the copy reads, found through locals, the
/// ops computed on the host from it and the helpers of the file that return one. The
/// graphify-host-sync check reports the copy; the host-factory-to-device rewrite reads the same
/// path to give the factory the copy's device instead.
///
/// \code
///   if (auto Transfer = Api.resolve(E); Transfer && copiesToDevice(*Transfer, Api))
///     if (auto Origin = findHostOrigin(Transfer->arg(0), Api))
///       ... Origin->Factory, Origin->Steps, Origin->Locals ...
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>

namespace graphify {

/// The path from a copied value back to the factory that built it in host memory.
struct HostOrigin {
  const clang::Expr *Factory = nullptr; ///< the host_factory call
  /// pin_memory() is on the way: a copy with non_blocking=true is stream-ordered.
  bool Pinned = false;
  /// The value is returned by a function of the analysed code (the factory is in its body).
  bool ThroughFunction = false;
  /// The calls between the copied value and the factory, outermost first (also those that give
  /// a followed local its new values), and the locals the value passes through.
  llvm::SmallVector<const clang::Expr *, 8> Steps;
  llvm::SmallVector<const clang::VarDecl *, 4> Locals;
};

/// The host factory `E` was built by, or nothing when `E` may live on a device (a factory given
/// a device, a parameter, a field, a local given a device value).
std::optional<HostOrigin> findHostOrigin(const clang::Expr *E, const ApiResolver &Api);

/// What a flow-sensitive analysis knows of a local or field read here (a DeclRefExpr or a
/// MemberExpr): the call that put its tensor in pageable host memory, or null.
using HostResidentLookup = llvm::function_ref<const clang::Expr *(const clang::Expr *Read)>;

/// The call that put the tensor `E` in pageable host memory: a `host_factory` call given no
/// device, or a copy to the CPU (`to(kCPU)`, `cpu()`), through the ops computed from it on the
/// host and the helpers of the file; locals and fields are answered by `Known`, which knows the
/// value they hold at this point (`t = t.to(kCUDA)` copies the host tensor `t` held before).
/// Null when `E` may live on a device.
const clang::Expr *findHostResidentOrigin(const clang::Expr *E, const ApiResolver &Api, HostResidentLookup Known);

/// Whether the local list of tensors `VD` (`auto grid = torch::meshgrid({x, y});`) is only read
/// after its declaration: every use takes an element (`grid[1]`, `grid.at(0)`) that is not
/// assigned to, so its elements stay where its initialiser made them.
bool elementsOnlyRead(const clang::VarDecl *VD, const ApiResolver &Api);

/// The host factory of the first tensor added to the local list of tensors `VD` when it starts
/// empty and every tensor added to it anywhere in its function is built in host memory
/// (`parts.push_back(torch::from_blob(m.data, ...))` in a loop), and every other use reads it
/// (`parts.size()`, `parts[i]`, `torch::stack(parts)`); null otherwise.
const clang::Expr *hostFilledList(const clang::VarDecl *VD, const ApiResolver &Api);

/// As hostFilledList, for a list of tensors kept in a private or protected field of a class
/// (`std::vector<Tensor> dets_;` filled with `dets_.emplace_back(kept.to(torch::kCPU))` in one
/// method and read as `dets_[0]` in another): every use in the class's methods defined here is on
/// `this` and reads it or adds a tensor in host memory, none is in a lambda, and no constructor
/// initialises it; the first tensor added, or null.
const clang::Expr *hostFilledFieldList(const clang::FieldDecl *F, const ApiResolver &Api);

/// Whether every use of the local list of tensors `VD`, which starts empty or with the tensors of a
/// braced initialiser (initialTensors), reads it
/// (`parts[i]`, `parts.size()`, `torch::stack(parts)`) or stores tensors into it where a
/// flow-sensitive analysis sees each one (`push_back(t)`, `emplace_back(t)`, `parts[i] = t`):
/// such an analysis knows where its tensors live by checking each store where it is made
/// (`parts.push_back(torch::zeros({0, 6}, host.device()))`, `parts[b] = host.index({keep})`).
bool storedOnlyVisibly(const clang::VarDecl *VD, const ApiResolver &Api);

/// The tensors a local list of tensors starts with: none (`std::vector<Tensor> parts;`), or the
/// elements of its braced initialiser (`std::vector<Tensor> parts = {a, b};`); nothing when it is
/// initialised otherwise.
std::optional<llvm::ArrayRef<const clang::Expr *>> initialTensors(const clang::VarDecl *VD, const ApiResolver &Api);

/// The list whose element `Target` is (`parts[i]`, `parts.at(i)`), when it is a variable.
const clang::VarDecl *storingList(const clang::Expr *Target, const ApiResolver &Api);

/// Whether the factory call is given a placement (options, a device) that may name a device:
/// `torch::tensor(v, x.options())` builds on x's device, where a factory given none builds in
/// host memory.
bool placesOnDevice(const ApiCall &Factory, const ApiResolver &Api);

/// Whether `Factory` (a host_factory call) is given a size of zero elements (`torch::empty({0})`):
/// a copy of it moves nothing and waits for nothing.
bool buildsNoElements(const ApiCall &Factory, clang::ASTContext &Ast);

/// Whether the host data the factory copies is one number (`torch::tensor(0.5f, opts)`): LibTorch
/// makes that a 0-d tensor filled on the device it names (at::scalar_tensor), with no copy.
bool buildsFromScalar(const ApiCall &Factory);

/// Whether `Factory` copies host values to a device as it builds the tensor: a factory of host
/// data that copies element by element (its entry lists `length_args`), given a placement that
/// may name a device, with some elements and more than one number (`torch::tensor({w, h},
/// x.options())`, the copy of `torch::tensor({w, h}).to(x.device())` in one call).
bool buildsHostValuesOnDevice(const ApiCall &Factory, const ApiResolver &Api, clang::ASTContext &Ast);

/// Whether the `device_transfer` call copies self to host memory: `cpu()` (tagged host_sync), or
/// a destination that names the CPU.
bool copiesToHost(const ApiCall &Call);

/// Whether the `device_transfer` call copies self to a device (not to the CPU, not a dtype
/// conversion): tagged `to_device` (`cuda()`), or given a placement value that does not name
/// the CPU or a tensor (`to(other)` copies to other's device).
bool copiesToDevice(const ApiCall &Call, const ApiResolver &Api);

/// The argument of a transfer that names its destination device (a device, options or a
/// tensor), or null (`cuda()` names none).
const clang::Expr *destinationArgument(const ApiCall &Call, const ApiResolver &Api);

/// Whether values of `T` say their device through an argument-free `device()` (options and
/// tensors, also through a base class: at::Tensor's is TensorBase), as a device value does not.
bool hasDeviceGetter(clang::QualType T);

/// The argument as written, without the implicit conversion clang adds to match the parameter:
/// `torch::kFloat` passed as TensorOptions is still a dtype.
const clang::Expr *asWritten(const clang::Expr *E);

} // namespace graphify
