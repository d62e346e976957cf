#pragma once
/// \file
/// Ctrl-C, SIGTERM and SIGHUP end graphify-validate cleanly. The harnesses and compilers it
/// starts run in process groups of their own (so a timeout can kill what they spawned), which
/// also means the terminal's SIGINT never reaches them: without this, an interrupted validator
/// left its harness spinning and its temporary files behind. On one of those signals every
/// registered process group is killed and every registered path removed, then the tool exits
/// with 128 + the signal number (130 for Ctrl-C), as a shell reports it.
///
/// \code
///   int main(int Argc, char **Argv) {
///     graphify::validate::installInterruptHandler(); // first, before any thread starts
///     ...
///   }
///   graphify::validate::TrackedProcessGroup Group(Pid);   // while the child runs
///   graphify::validate::TrackedPath Temp(Dir);            // while the path exists
/// \endcode

#include <string>

#include <sys/types.h>

namespace graphify::validate {

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread started after it, and
/// handles them on a dedicated thread. Call once, at the start of main. Without it (tests that
/// call the library in-process), the registrations below are kept but nothing handles signals.
void installInterruptHandler();


/// Registers a child's process group for the lifetime of the object.
class TrackedProcessGroup {
public:
  explicit TrackedProcessGroup(pid_t Group);
  ~TrackedProcessGroup();
  TrackedProcessGroup(const TrackedProcessGroup &) = delete;
  TrackedProcessGroup &operator=(const TrackedProcessGroup &) = delete;

private:
  pid_t Group;
};

/// Registers a temporary file or directory (removed recursively) for the lifetime of the object.
class TrackedPath {
public:
  explicit TrackedPath(std::string Path);
  ~TrackedPath();
  TrackedPath(const TrackedPath &) = delete;
  TrackedPath &operator=(const TrackedPath &) = delete;

private:
  std::string Path;
};

} // namespace graphify::validate
