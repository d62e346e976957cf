#pragma once
/// \file
/// Code that never runs: the statements of a block after one that always leaves it (`return`,
/// `throw`, `break`, `continue`, `goto`, a call to a `[[noreturn]]` function, an `if` whose
/// branches all leave, a block that leaves), up to the next label or `case`, where a jump may
/// enter again. Region code is visited without them, and calls written only there make no
/// region: a block kept after an early `return {};` while a function is being rewritten is not
/// a blocker of the graph, as a compiler's unreachable-code warning would not analyse it either.
///
/// Syntactic on purpose: a condition that is constant (`if (false)`, `TORCH_CHECK(false, ...)`)
/// is not evaluated, so such code stays live; a dead statement holding a label or a `case` is
/// kept, since a jump may land inside it.
///
/// \code
///   graphify::forEachLiveChild(Block, [&](const clang::Stmt &Child) { walk(&Child); });
/// \endcode

#include <clang/AST/Stmt.h>
#include <llvm/ADT/STLFunctionalExtras.h>

namespace graphify {

/// Whether running `S` never goes on to the statement after it.
bool alwaysLeaves(const clang::Stmt &S);

/// Calls `Visit` on each child of `Block` that a path can reach, in order.
void forEachLiveChild(const clang::CompoundStmt &Block, llvm::function_ref<void(const clang::Stmt &)> Visit);

} // namespace graphify
