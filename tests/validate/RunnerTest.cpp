#include "graphify/validate/Runner.h"

#include <gtest/gtest.h>

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

} // namespace
