#pragma once
/// \file
/// Capture windows along the control flow: the code a capture runs is what the function can reach
/// from the begin call without passing an end call, not the source text up to the first end call.
/// An end call on a path that leaves (`if (err) { cudaStreamEndCapture(s, &g); return; }`) or in one
/// branch only leaves the capture running on the other paths; code after an end call that every
/// path passes is not captured. A conditional end whose other branch ends nothing is taken as
/// correlated with the begin (`if (use_graph) begin(); ... if (use_graph) end();`): the path
/// around it is one where nothing was captured. A local bool flag that only code after an end call
/// assigns keeps its initial value where the capture is open (`if (aborted)` after an aborting
/// `break`); a RAII guard that ends the capture is destroyed before a handler of its `try` runs.
/// narrowByFlow computes that on Clang's CFG and
/// records it in the
/// window: the statements past the first end call that are still reached extend it, and those inside
/// it that are not reached are excluded.
///
/// \code
///   narrowByFlow(W, FD, BeginCall, EndCalls, SM);
///   if (W.contains(Loc, SM)) ...
/// \endcode

#include "graphify/analyzer/CaptureWindows.h"

#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>

#include <vector>

namespace graphify {

/// What ends a window on a path: end calls (calls, or calls of functions that end a capture) and
/// the destruction of objects whose destructor ends one at the end of their scope.
struct FlowEnds {
  std::vector<const clang::Stmt *> Calls;
  std::vector<const clang::VarDecl *> Destroyed;
};

/// Whether two flag names (a variable, a field of `this`, or a field of such a name:
/// `use_graph`, `opts_.graphs`) name the same flag.
bool sameFlagName(const clang::Expr *A, const clang::Expr *B);

/// Whether `S` writes the flag `Flag` (an assignment, compound assignment, increment or its
/// address taken, or a write of an object that holds it): then two tests of it may disagree.
bool writesFlagIn(const clang::Stmt *S, const clang::Expr *Flag);

/// Narrows `W` to what `FD` reaches from `Begin` (its entry when null) without passing one of
/// `Ends`. Leaves `W` as it is when the CFG cannot be built or does not hold `Begin`. `OnTrue`:
/// `Begin` opens the capture only when it returns true, so when it is an `if`'s condition
/// (`if (!begin()) return;`) the capture runs only on the branch where it did.
void narrowByFlow(CaptureWindow &W, const clang::FunctionDecl &FD, const clang::Stmt *Begin, const FlowEnds &Ends,
                  const clang::SourceManager &SM, bool OnTrue = false);

} // namespace graphify
