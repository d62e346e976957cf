#pragma once
/// \file
/// Code that runs only when no capture is running: a call in a branch taken when a capture
/// status query says the stream is idle (`if (status == cudaStreamCaptureStatusNone) sync();`),
/// or after a branch that leaves when it is not (`if (status != cudaStreamCaptureStatusNone)
/// return;`). The enumerators that mean "idle" are the packs' (`idle_statuses` of
/// capture_status_query entries), compared by qualified name or, for C enumerators, by name.
///
/// \code
///   IdleGuards Guards(Ctx.api().rules());
///   if (Guards.runsOnlyWhenIdle(*Call, Ctx.ast())) return;  // not captured
/// \endcode

#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/StringSet.h>

#include <optional>

namespace graphify {

class IdleGuards {
public:
  explicit IdleGuards(const RuleSet &Rules);

  /// Whether `S` runs only when a capture status query said no capture is running.
  bool runsOnlyWhenIdle(const clang::Stmt &S, clang::ASTContext &Ast) const;

private:
  llvm::StringSet<> Idle;

  /// Whether `Cond` being true means idle (true), capturing (false), or neither is known.
  std::optional<bool> meansIdle(const clang::Expr *Cond) const;
  bool isIdleStatus(const clang::Expr *E) const;
};

} // namespace graphify
