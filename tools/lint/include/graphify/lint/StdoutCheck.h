#pragma once
/// \file
/// The last thing both tools do: make sure what they printed reached its destination. A full disk
/// or a closed pipe on stdout must not end in "LLVM ERROR: IO failure" (raw_fd_ostream's
/// destructor aborts on an unchecked error) nor in a plain exit code over lost output.
///
/// \code
///   int main(int Argc, const char **Argv) {
///     return graphify::exitAfterFlushingStdout(graphify::runLint(...), "graphify-lint");
///   }
/// \endcode

namespace graphify {

/// Flushes llvm::outs(); on a write error prints "<Tool>: error: cannot write the output: ..."
/// to stderr and returns 2, otherwise returns `Exit`.
int exitAfterFlushingStdout(int Exit, const char *Tool);

} // namespace graphify
