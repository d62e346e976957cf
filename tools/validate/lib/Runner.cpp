// POSIX process control is done by hand rather than with llvm::sys::ExecuteAndWait because the
// child must get its own process group (so a timeout kills whatever the model spawned too) and
// because the report needs the signal's name, which ExecuteAndWait folds into an error string.
#include "graphify/validate/Runner.h"
#include "graphify/validate/Interrupts.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace graphify::validate {

std::string RunResult::describe() const {
  switch (Status) {
  case State::Exited: return "exited with status " + std::to_string(ExitCode);
  case State::Signaled: return "crashed with signal " + std::to_string(Signal) + " (" + strsignal(Signal) + ")";
  case State::TimedOut: return "timed out after " + std::to_string(TimeoutSeconds) + " s";
  case State::FailedToStart: return "could not start: " + StartError;
  }
  return "?";
}

/// The output of a child, at most `kOutputKeptBytes`: its beginning (the first compiler errors)
/// and its end (what a crashing model printed last), with the size of what was left out. A model
/// printing without end must not make the validator hold it all (20M lines were 1.2 GB).
static std::string slurpAndRemove(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary | std::ios::ate);
  const std::streamoff Size = In.tellg();
  std::string Out;
  if (Size <= 0) {
    std::remove(Path.c_str());
    return Out;
  }
  const std::streamoff Half = kOutputKeptBytes / 2;
  auto readAt = [&](std::streamoff From, std::streamoff Count) {
    std::string Part(size_t(Count), '\0');
    In.seekg(From);
    In.read(Part.data(), Count);
    Part.resize(size_t(In.gcount()));
    return Part;
  };
  if (Size <= std::streamoff(kOutputKeptBytes)) {
    Out = readAt(0, Size);
  } else {
    Out = readAt(0, Half) + "\n[... " + std::to_string(Size - 2 * Half) + " bytes of output left out ...]\n" +
          readAt(Size - Half, Half);
  }
  std::remove(Path.c_str());
  return Out;
}

RunResult runIsolated(const std::vector<std::string> &Argv, unsigned TimeoutSeconds) {
  RunResult R;
  R.TimeoutSeconds = TimeoutSeconds;
  if (Argv.empty()) {
    R.StartError = "empty command";
    return R;
  }
  const char *TmpDir = std::getenv("TMPDIR");
  std::string Base = std::string(TmpDir && *TmpDir ? TmpDir : "/tmp") + "/graphify-run-XXXXXX";
  std::vector<char> OutName(Base.begin(), Base.end()), ErrName(Base.begin(), Base.end());
  OutName.push_back(0);
  ErrName.push_back(0);
  int OutFd = mkstemp(OutName.data());
  int ErrFd = mkstemp(ErrName.data());
  TrackedPath OutTracked(OutName.data()), ErrTracked(ErrName.data());
  if (OutFd < 0 || ErrFd < 0) {
    R.StartError = std::string("cannot create a temporary file: ") + std::strerror(errno);
    if (OutFd >= 0) { close(OutFd); std::remove(OutName.data()); }
    if (ErrFd >= 0) { close(ErrFd); std::remove(ErrName.data()); }
    return R;
  }

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, OutFd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, ErrFd, STDERR_FILENO);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  // Its own group: a timeout kills its children too. The signals the interrupt handler blocks in
  // the validator are unblocked and defaulted in the child.
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&Attr, 0);
  sigset_t NoSignals, Defaulted;
  sigemptyset(&NoSignals);
  posix_spawnattr_setsigmask(&Attr, &NoSignals);
  sigemptyset(&Defaulted);
  for (int S : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    sigaddset(&Defaulted, S);
  posix_spawnattr_setsigdefault(&Attr, &Defaulted);

  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);

  auto Start = std::chrono::steady_clock::now();
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Argv[0].c_str(), &Actions, &Attr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  close(OutFd);
  close(ErrFd);
  if (Rc != 0) {
    R.StartError = Argv[0] + ": " + std::strerror(Rc);
    slurpAndRemove(OutName.data());
    slurpAndRemove(ErrName.data());
    return R;
  }

  TrackedProcessGroup Group(Pid);
  int WaitStatus = 0;
  auto Deadline = Start + std::chrono::seconds(TimeoutSeconds);
  auto Sleep = std::chrono::milliseconds(2);
  while (true) {
    pid_t Done = waitpid(Pid, &WaitStatus, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR) {
      R.StartError = std::string("waitpid failed: ") + std::strerror(errno);
      R.Status = RunResult::State::FailedToStart;
      break;
    }
    if (TimeoutSeconds && std::chrono::steady_clock::now() >= Deadline) {
      kill(-Pid, SIGKILL);
      waitpid(Pid, &WaitStatus, 0);
      R.Status = RunResult::State::TimedOut;
      break;
    }
    std::this_thread::sleep_for(Sleep);
    // Back off to 50 ms: quick for the many short runs, cheap for long compiles.
    Sleep = std::min(Sleep * 2, std::chrono::milliseconds(50));
  }
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (R.Status != RunResult::State::TimedOut && R.StartError.empty()) {
    if (WIFEXITED(WaitStatus)) {
      R.Status = RunResult::State::Exited;
      R.ExitCode = WEXITSTATUS(WaitStatus);
    } else if (WIFSIGNALED(WaitStatus)) {
      R.Status = RunResult::State::Signaled;
      R.Signal = WTERMSIG(WaitStatus);
    }
  }
  R.Stdout = slurpAndRemove(OutName.data());
  R.Stderr = slurpAndRemove(ErrName.data());
  return R;
}

} // namespace graphify::validate
