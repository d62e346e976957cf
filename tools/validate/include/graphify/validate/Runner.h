#pragma once
/// \file
/// Runs a program in its own process group with a wall-clock limit, capturing stdout and stderr.
/// Model code runs only here, so a segfault, an abort, an uncaught exception or an infinite loop
/// in the model becomes a value (a RunResult) and never takes the validator down.
///
/// \code
///   graphify::validate::RunResult R = graphify::validate::runIsolated({"/bin/true"}, 60);
///   if (!R.succeeded()) llvm::errs() << R.describe() << "\n";
/// \endcode

#include <string>
#include <vector>

namespace graphify::validate {

/// How a child process ended.
struct RunResult {
  enum class State {
    Exited,       ///< returned from main or called exit (ExitCode)
    Signaled,     ///< killed by a signal (Signal), e.g. a segfault or abort
    TimedOut,     ///< still running after the limit; the whole process group was killed
    FailedToStart ///< could not be spawned (StartError)
  } Status = State::FailedToStart;
  int ExitCode = -1;
  int Signal = 0;
  unsigned TimeoutSeconds = 0;
  double Seconds = 0;
  std::string Stdout;
  std::string Stderr;
  std::string StartError;

  bool succeeded() const { return Status == State::Exited && ExitCode == 0; }
  /// "exited with status 3", "crashed with signal 11 (Segmentation fault)",
  /// "timed out after 60 s", "could not start: ...".
  std::string describe() const;
};

/// How much of each output stream RunResult keeps: the first and the last half of it, with a
/// line saying how many bytes were left out in between.
inline constexpr size_t kOutputKeptBytes = 1 << 20;

/// Runs `Argv` (Argv[0] is a path) and waits at most `TimeoutSeconds` (0: no limit). Output is
/// collected through temporary files, so a chatty child never blocks on a full pipe. The child's
/// process group and the temporary files are registered with the interrupt handler
/// (Interrupts.h) while it runs.
RunResult runIsolated(const std::vector<std::string> &Argv, unsigned TimeoutSeconds);

} // namespace graphify::validate
