// The logging macros the compat shim gives model code through <torch/torch.h> (c10/util/Logging.h):
// what LOG and CHECK lines print, that dropped messages cost nothing, that FATAL and failed checks
// abort with glog's wording, and that the macros nest in if/else as statements.
#include <torch/torch.h>

#include <gtest/gtest.h>

#include <string>

namespace {

std::string located(char severity, int line, const std::string &message) {
  return std::string("[") + severity + " test_compat_logging.cpp:" + std::to_string(line) + "] " + message + "\n";
}

TEST(CompatLogging, WarningAndAboveAreOneLineOnStderr) {
  testing::internal::CaptureStderr();
  const int first = __LINE__ + 1;
  LOG(WARNING) << "boxes: " << 3;
  LOG(ERROR) << "no detections";
  LOG_IF(ERROR, 2 > 1) << "kept";
  LOG_IF(ERROR, 1 > 2) << "skipped";
  LOG(INFO) << "dropped";
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            located('W', first, "boxes: 3") + located('E', first + 1, "no detections") + located('E', first + 2, "kept"));
}

TEST(CompatLogging, DroppedMessagesDoNotEvaluateTheirOperands) {
  int evaluated = 0;
  auto count = [&] { return ++evaluated; };
  testing::internal::CaptureStderr();
  LOG(INFO) << count();
  VLOG(1) << count();
  VLOG_IF(0, true) << count();
  LOG_IF(ERROR, false) << count();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(evaluated, 0);
  EXPECT_FALSE(VLOG_IS_ON(0));
}

TEST(CompatLogging, MacrosAreStatementsInsideIfElse) {
  bool took_else = false;
  testing::internal::CaptureStderr();
  if (false)
    LOG(ERROR) << "not printed";
  else
    took_else = true;
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_TRUE(took_else);
}

TEST(CompatLogging, PassingChecksAreSilent) {
  int x = 2;
  int *p = &x;
  testing::internal::CaptureStderr();
  CHECK(x == 2) << "never printed";
  CHECK_EQ(x, 2);
  CHECK_NE(x, 3);
  CHECK_LT(x, 3);
  CHECK_LE(x, 2);
  CHECK_GT(x, 1);
  CHECK_GE(x, 2);
  DCHECK(x == 2);
  EXPECT_EQ(CHECK_NOTNULL(p), p);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(CompatLoggingDeathTest, FailedChecksAndFatalAbortWithTheMessage) {
  int x = 2;
  int *null = nullptr;
  EXPECT_DEATH(CHECK(x == 3) << "boxes must be", "\\[F test_compat_logging.cpp:[0-9]+\\] Check failed: x == 3 boxes must be");
  EXPECT_DEATH(CHECK_EQ(x, 3), "Check failed: x == 3 \\(2 vs. 3\\)");
  EXPECT_DEATH(CHECK_NOTNULL(null), "Check failed: 'null' Must be non NULL");
  EXPECT_DEATH(LOG(FATAL) << "unreachable", "\\[F test_compat_logging.cpp:[0-9]+\\] unreachable");
}

} // namespace
