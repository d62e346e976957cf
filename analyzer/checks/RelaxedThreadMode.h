#pragma once
/// \file
/// Code a thread runs in relaxed capture mode because it switched itself there: the caching
/// allocators' idiom `cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
/// cudaThreadExchangeStreamCaptureMode(&m); cudaMalloc(...); cudaThreadExchangeStreamCaptureMode(&m);`.
/// The exchange calls are the packs' (`capture_mode_exchange`, with the `relaxed_modes` its
/// `mode_arg` variable may hold). A statement is in relaxed mode when the nearest exchange call
/// before it, in its block or an enclosing one, switches to relaxed: the call on a local whose
/// initialiser names a relaxed mode, made an even number of times before on that local (the odd
/// ones swap the previous mode back). An exchange nested in a branch before the statement, or a
/// mode variable assigned or given by address to anything but an exchange call, decides nothing: the statement stays in the global mode.
/// A guard object declared before it (`capture_mode_guard`: LibTorch's
/// `c10::cuda::CUDAStreamCaptureModeGuard g{cudaStreamCaptureModeRelaxed};`) decides the same way,
/// for the rest of its scope, and so does an object of the project's own guard class, whose
/// constructor (defined in the translation unit) always makes one exchange call on a field
/// initialised with a relaxed mode, in the class or from its constructor's argument (mscclpp's
/// `AvoidCudaGraphCaptureGuard`).
///
/// \code
///   RelaxedThreadMode Relaxed(Ctx.api());
///   if (Call->hasTag("capture_relaxed_ok") && Relaxed.covers(S, Ctx.ast())) return;  // allowed
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <optional>

namespace graphify {

class RelaxedThreadMode {
public:
  explicit RelaxedThreadMode(const ApiResolver &Api) : Api(Api) {}

  /// Whether the thread runs `S` in relaxed capture mode, switched by an exchange call before it.
  bool covers(const clang::Stmt &S, clang::ASTContext &Ast) const;

private:
  const ApiResolver &Api;

  /// The exchange call in `S` (written there, not in a lambda), and whether `S` holds more than one.
  const clang::CallExpr *exchangeIn(const clang::Stmt *S, bool &Several) const;
  /// When `S` declares a capture-mode guard (`capture_mode_guard`): whether its mode is relaxed.
  std::optional<bool> guardIn(const clang::Stmt *S) const;
  /// When `Construct` builds an object of the project whose constructor switches the thread's
  /// mode (one exchange call on a field, always made): whether the mode it installs is relaxed,
  /// from the field's initialiser or the constructor argument that initialises it.
  std::optional<bool> projectGuardMode(const clang::CXXConstructExpr &Construct) const;
  /// Whether the exchange call `Call` (in the function whose body is `Body`) leaves the thread in
  /// relaxed mode.
  bool switchesToRelaxed(const clang::CallExpr &Call, const clang::Stmt *Body) const;
};

} // namespace graphify
