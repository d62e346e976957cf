#pragma once
/// \file
/// Why a condition has no tensor form whatever the statement around it: the size of a selection
/// it tests, the host work of the branch it decides (or jumps past), a compaction or host counting
/// in its arms, a host object it reads. liftCondition and the rewrite rules refuse with these
/// first; the advice on a read that decides such a branch names the branch.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <optional>
#include <string>

namespace graphify::rewriter {

/// What blocks `Cond` whatever the statement around it, in this order: the size of a selection
/// it tests (with the host work of its arms), host work in the arms of the if it decides, a
/// compaction in the arms, a host object it reads (a string, a container, a struct computed on
/// the host). Null when none does; liftCondition refuses with this first.
std::optional<std::string> conditionObstacle(const clang::Expr *Cond, const ApiModel &Api, clang::ASTContext &Ctx);

/// conditionObstacle without the size of a selection: what the branch `Cond` decides does (host
/// work, a compaction) or what host object it tests. A read whose value decides such a branch
/// is advised with this reason: the branch, not the read, is what has to change.
std::optional<std::string> branchObstacle(const clang::Expr *Cond, const ApiModel &Api, clang::ASTContext &Ctx);

/// Why the branch `Cond` decides has no select form when it leaves the loop around it early
/// (`if (torch::equal(t, eos)) break;` in a `while (true)` decode loop) and no rule bounded that
/// loop: a graph runs a fixed sequence of steps. Null otherwise. Not a conditionObstacle: the
/// early-exit rule masks such a loop when it has a static trip count.
std::optional<std::string> loopExitObstacle(const clang::Expr *Cond, clang::ASTContext &Ctx);

/// A value of class type that is neither a number nor a tensor: a container, a string, a struct.
bool isHostObject(clang::QualType T, const ApiModel &Api);

/// A string or an iterable container: a table the condition reads at some position.
bool isHostTable(clang::QualType T);

/// Why a condition on the host object `V` (a container, a string) has no tensor form, with where
/// its value was read from a tensor when it was (a token looked up from an id read on the host).
std::string hostObjectReason(const clang::VarDecl *V, const clang::Expr *Use, const ApiModel &Api,
                             clang::ASTContext &Ctx);

/// The outermost member access or call on the object `Use` names (`vocab->end_id()`,
/// `cfg.threshold`), or `Use` when it is used as a whole.
const clang::Expr *objectRead(const clang::DeclRefExpr *Use, clang::ASTContext &Ctx);

/// Why a condition that reads a host object holding nothing from tensors (a vocabulary's end id,
/// a config's threshold) is not lifted: the object has no tensor form, the number it gives does,
/// but this use of it is not one that may run unconditionally (isPureHostValue).
std::string untaintedObjectReason(const clang::VarDecl *V, const clang::DeclRefExpr *Use, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
