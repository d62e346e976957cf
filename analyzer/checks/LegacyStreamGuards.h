#pragma once
/// \file
/// LibTorch work on the legacy default stream made current by a guard object:
/// `c10::cuda::CUDAStreamGuard g(c10::cuda::getDefaultCUDAStream()); x.add_(1);` enqueues the add
/// on CUDA's legacy NULL stream, which synchronises with every blocking stream, so inside a capture
/// it invalidates the capture whatever its mode. The guards are the packs' `current_stream_guard`
/// constructors (the stream at `stream_arg` is current for the object's lifetime); the legacy
/// stream is a `legacy_stream_source` call, written as the guard's argument or as the initialiser
/// of a local that nothing assigns again. The nearest guard declared before a statement, in its
/// block or an enclosing one, decides: a guard on any other stream (the capturing one) puts the
/// work back there.
///
/// \code
///   LegacyStreamGuards Legacy(Ctx.api());
///   if (const DeclStmt *G = Legacy.guardOf(S, Ctx.ast())) ...  // S runs on the legacy stream
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

namespace graphify {

class LegacyStreamGuards {
public:
  explicit LegacyStreamGuards(const ApiResolver &Api) : Api(Api) {}

  /// The declaration of the guard that makes the legacy default stream current where `S` runs,
  /// or null when the current stream there is not known to be the legacy one.
  const clang::DeclStmt *guardOf(const clang::Stmt &S, clang::ASTContext &Ast) const;

private:
  const ApiResolver &Api;

  /// When `S` declares a stream guard: whether the stream it makes current is the legacy one.
  std::optional<bool> guardIn(const clang::Stmt *S) const;
  /// Whether `Stream` is the legacy default stream: a legacy_stream_source call, or a local
  /// initialised with one and never assigned.
  bool isLegacy(const clang::Expr *Stream, unsigned Depth = 0) const;
};

} // namespace graphify
