#include "graphify/validate/Runner.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <csignal>

using namespace graphify::validate;

namespace {

TEST(Runner, CapturesOutputAndExitStatus) {
  RunResult R = runIsolated({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  EXPECT_EQ(R.Status, RunResult::State::Exited);
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_EQ(R.Stdout, "out\n");
  EXPECT_EQ(R.Stderr, "err\n");
  EXPECT_EQ(R.describe(), "exited with status 3");
}

TEST(Runner, ReportsCrashesBySignal) {
  RunResult R = runIsolated({"/bin/sh", "-c", "kill -SEGV $$"}, 10);
  EXPECT_EQ(R.Status, RunResult::State::Signaled);
  EXPECT_EQ(R.Signal, SIGSEGV);
  EXPECT_EQ(R.describe(), "crashed with signal 11 (Segmentation fault)");
}

TEST(Runner, KillsHangsAtTheTimeLimit) {
  RunResult R = runIsolated({"/bin/sh", "-c", "sleep 30"}, 1);
  EXPECT_EQ(R.Status, RunResult::State::TimedOut);
  EXPECT_LT(R.Seconds, 10);
  EXPECT_EQ(R.describe(), "timed out after 1 s");
}

TEST(Runner, MissingProgram) {
  RunResult R = runIsolated({"/nonexistent/program"}, 1);
  EXPECT_FALSE(R.succeeded());
  // posix_spawn may report the failure itself or through an exit status of 127.
  EXPECT_TRUE(R.Status == RunResult::State::FailedToStart ||
              (R.Status == RunResult::State::Exited && R.ExitCode == 127));
}

TEST(Runner, FloodedOutputIsCappedKeepingBothEnds) {
  // 40 MB on stderr: the validator keeps its first and last half megabyte, not all of it.
  RunResult R = runIsolated({"/bin/sh", "-c", "echo first >&2; yes 0123456789 | head -c 40000000 >&2; echo last >&2"}, 60);
  ASSERT_TRUE(R.succeeded()) << R.describe();
  EXPECT_LE(R.Stderr.size(), kOutputKeptBytes + 100);
  EXPECT_EQ(R.Stderr.rfind("first\n", 0), 0u);
  EXPECT_EQ(R.Stderr.substr(R.Stderr.size() - 5), "last\n");
  EXPECT_NE(R.Stderr.find("bytes of output left out"), std::string::npos);
  RunResult Small = runIsolated({"/bin/sh", "-c", "echo small >&2"}, 10);
  EXPECT_EQ(Small.Stderr, "small\n");
}

TEST(Runner, ChildGetsDefaultSignalHandling) {
  // The validator blocks SIGINT/SIGTERM for its interrupt thread; its children must not inherit that.
  sigset_t Blocked, Old;
  sigemptyset(&Blocked);
  sigaddset(&Blocked, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &Blocked, &Old);
  RunResult R = runIsolated({"/bin/sh", "-c", "kill -TERM $$; sleep 5"}, 20);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  EXPECT_EQ(R.Status, RunResult::State::Signaled) << R.describe();
  EXPECT_EQ(R.Signal, SIGTERM);
}

} // namespace
