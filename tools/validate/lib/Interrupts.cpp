// The handler runs on an ordinary thread (sigwait), not in a signal handler, so it may lock the
// registry and call the filesystem freely. Everything the validator starts after installation
// inherits the blocked mask; runIsolated resets it for its children.
#include "graphify/validate/Interrupts.h"

#include <llvm/Support/FileSystem.h>

#include <csignal>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include <pthread.h>
#include <unistd.h>

namespace graphify::validate {

namespace {

struct Registry {
  std::mutex Mutex;
  std::multiset<pid_t> Groups;
  std::multiset<std::string> Paths;
};

Registry &registry() {
  static Registry *R = new Registry; // never destroyed: the handler thread may outlive statics
  return *R;
}

sigset_t handledSignals() {
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, SIGINT);
  sigaddset(&Set, SIGTERM);
  sigaddset(&Set, SIGHUP);
  return Set;
}

[[noreturn]] void cleanUpAndExit(int Signal) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  for (pid_t G : R.Groups)
    ::kill(-G, SIGKILL);
  for (const std::string &P : R.Paths) {
    if (llvm::sys::fs::is_directory(P))
      llvm::sys::fs::remove_directories(P);
    else
      llvm::sys::fs::remove(P);
  }
  std::fprintf(stderr, "graphify-validate: interrupted by %s; stopped its harnesses and removed its temporary files\n",
               Signal == SIGINT ? "SIGINT" : Signal == SIGTERM ? "SIGTERM" : "SIGHUP");
  std::fflush(stderr);
  ::_exit(128 + Signal);
}

} // namespace

void installInterruptHandler() {
  const sigset_t Set = handledSignals();
  pthread_sigmask(SIG_BLOCK, &Set, nullptr);
  std::thread([Set] {
    int Signal = 0;
    while (sigwait(&Set, &Signal) != 0) {
    }
    cleanUpAndExit(Signal);
  }).detach();
}

TrackedProcessGroup::TrackedProcessGroup(pid_t Group) : Group(Group) {
  std::lock_guard<std::mutex> Lock(registry().Mutex);
  registry().Groups.insert(Group);
}

TrackedProcessGroup::~TrackedProcessGroup() {
  std::lock_guard<std::mutex> Lock(registry().Mutex);
  registry().Groups.erase(registry().Groups.find(Group));
}

TrackedPath::TrackedPath(std::string P) : Path(std::move(P)) {
  std::lock_guard<std::mutex> Lock(registry().Mutex);
  registry().Paths.insert(Path);
}

TrackedPath::~TrackedPath() {
  std::lock_guard<std::mutex> Lock(registry().Mutex);
  registry().Paths.erase(registry().Paths.find(Path));
}

} // namespace graphify::validate
