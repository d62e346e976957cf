#pragma once
/// \file
/// The logging macros LibTorch's headers give model code: `LOG(INFO|WARNING|ERROR|FATAL) << ...`,
/// `LOG_IF`, `VLOG`, `VLOG_IS_ON`, `CHECK(cond) << ...`, `CHECK_EQ/NE/LT/LE/GT/GE`,
/// `CHECK_NOTNULL` and the `DCHECK` forms. Debian's LibTorch routes them to glog; this is the
/// implementation LibTorch itself has when built without glog (c10's MessageLogger), so the
/// shim needs no logging library:
/// - a message of severity WARNING or above is one line on stderr, `[E model.cpp:12] message`
///   (I, W, E, F); INFO and VLOG messages are dropped (c10's default level is WARNING), and their
///   stream operands are not evaluated;
/// - FATAL and a failed CHECK print the line, then abort, as c10's does;
/// - DCHECK is CHECK unless NDEBUG is defined, then it checks nothing.
/// A macro already defined (a file that includes <glog/logging.h> before <torch/torch.h>, or defines
/// its own LOG) is left as it is.

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace c10 {

constexpr int GLOG_INFO = 0, GLOG_WARNING = 1, GLOG_ERROR = 2, GLOG_FATAL = 3;
/// The least severity that is printed (c10's FLAGS_caffe2_log_level default).
constexpr int kLogThreshold = GLOG_WARNING;

/// One log message: collects what is streamed into it and writes it out when destroyed.
class MessageLogger {
public:
  MessageLogger(const char *file, int line, int severity) : severity_(severity) {
    std::string name(file);
    const auto slash = name.find_last_of('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    static constexpr char kLetters[] = "IWEF";
    stream_ << '[' << kLetters[severity < 0 ? 0 : severity > GLOG_FATAL ? GLOG_FATAL : severity] << ' ' << name
            << ':' << line << "] ";
  }
  MessageLogger(const MessageLogger &) = delete;
  MessageLogger &operator=(const MessageLogger &) = delete;
  ~MessageLogger() {
    stream_ << '\n';
    const std::string text = stream_.str();
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
    if (severity_ >= GLOG_FATAL) std::abort();
  }
  std::ostream &stream() { return stream_; }

private:
  std::ostringstream stream_;
  int severity_;
};

/// Turns `stream << ...` into void so that it can sit in the false branch of `?:` (the form keeps
/// `if (x) LOG(ERROR) << "a"; else ...` from binding the user's else to the macro's own if).
struct LoggerVoidify {
  void operator&(const std::ostream &) {}
};

/// CHECK_NOTNULL: `value` itself when it is not null.
template <class T> T CheckNotNull(const char *file, int line, const char *message, T value) {
  if (value == nullptr) MessageLogger(file, line, GLOG_FATAL).stream() << message;
  return value;
}

} // namespace c10

/// A message of severity `n` when `condition` holds and `n` reaches the threshold.
#define GFY_C10_LOG_IF_(n, condition)                                                                              \
  !((condition) && (n) >= ::c10::kLogThreshold)                                                                    \
      ? (void)0                                                                                                    \
      : ::c10::LoggerVoidify() & ::c10::MessageLogger(__FILE__, __LINE__, (n)).stream()

#ifndef LOG
#define LOG(n) GFY_C10_LOG_IF_(::c10::GLOG_##n, true)
#endif
#ifndef LOG_IF
#define LOG_IF(n, condition) GFY_C10_LOG_IF_(::c10::GLOG_##n, condition)
#endif
#ifndef VLOG
#define VLOG(n) GFY_C10_LOG_IF_(-(n), true)
#endif
#ifndef VLOG_IS_ON
#define VLOG_IS_ON(n) (-(n) >= ::c10::kLogThreshold)
#endif
#ifndef VLOG_IF
#define VLOG_IF(n, condition) GFY_C10_LOG_IF_(-(n), condition)
#endif

#ifndef CHECK
#define CHECK(condition) GFY_C10_LOG_IF_(::c10::GLOG_FATAL, !(condition)) << "Check failed: " #condition " "
#endif
/// glog's wording: "Check failed: a == b (1 vs. 2) ".
#define GFY_C10_CHECK_OP_(a, b, op)                                                                                \
  GFY_C10_LOG_IF_(::c10::GLOG_FATAL, !((a)op(b)))                                                                  \
      << "Check failed: " #a " " #op " " #b " (" << (a) << " vs. " << (b) << ") "
#ifndef CHECK_EQ
#define CHECK_EQ(a, b) GFY_C10_CHECK_OP_(a, b, ==)
#define CHECK_NE(a, b) GFY_C10_CHECK_OP_(a, b, !=)
#define CHECK_LT(a, b) GFY_C10_CHECK_OP_(a, b, <)
#define CHECK_LE(a, b) GFY_C10_CHECK_OP_(a, b, <=)
#define CHECK_GT(a, b) GFY_C10_CHECK_OP_(a, b, >)
#define CHECK_GE(a, b) GFY_C10_CHECK_OP_(a, b, >=)
#endif
#ifndef CHECK_NOTNULL
#define CHECK_NOTNULL(value)                                                                                       \
  ::c10::CheckNotNull(__FILE__, __LINE__, "Check failed: '" #value "' Must be non NULL", (value))
#endif

#ifndef DCHECK
#ifdef NDEBUG
// Compiled (so the operands stay checked names) but never run.
#define DCHECK(condition) while (false) CHECK(condition)
#define DCHECK_EQ(a, b) while (false) CHECK_EQ(a, b)
#define DCHECK_NE(a, b) while (false) CHECK_NE(a, b)
#define DCHECK_LT(a, b) while (false) CHECK_LT(a, b)
#define DCHECK_LE(a, b) while (false) CHECK_LE(a, b)
#define DCHECK_GT(a, b) while (false) CHECK_GT(a, b)
#define DCHECK_GE(a, b) while (false) CHECK_GE(a, b)
#else
#define DCHECK(condition) CHECK(condition)
#define DCHECK_EQ(a, b) CHECK_EQ(a, b)
#define DCHECK_NE(a, b) CHECK_NE(a, b)
#define DCHECK_LT(a, b) CHECK_LT(a, b)
#define DCHECK_LE(a, b) CHECK_LE(a, b)
#define DCHECK_GT(a, b) CHECK_GT(a, b)
#define DCHECK_GE(a, b) CHECK_GE(a, b)
#endif
#endif
