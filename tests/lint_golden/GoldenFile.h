#pragma once
// Reads the expectations of an annotated golden file, clang-tidy style:
//   // RUN-ARGS: --profile=trace --scope=all --graph-region=*::step
//   // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition {{.*}} [graphify-data-dependent-branch]
//   // CHECK-NOTES: :[[@LINE-3]]:20: note: value read from tensor here
//   // CHECK-STDERR: graphify-lint: note: 2 findings in headers not shown; use --header-filter
// `[[@LINE+-N]]` is relative to the comment's own line; `{{regex}}` may appear in the text.
// CHECK-STDERR lines are whole lines the run must print on stderr (whole-program cases only).

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace graphify::golden {

struct Expectation {
  bool IsNote = false;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Pattern;  ///< anchored regex for "warning: ... [id]" or "note: ..."
  std::string Written;  ///< the comment as written, for failure messages
  unsigned CommentLine = 0;
};

struct GoldenFile {
  std::vector<std::string> RunArgs;
  std::vector<Expectation> Expected;
  std::vector<std::string> StderrLines; ///< anchored regexes, one per expected stderr line
};

/// Parses the annotations of `Source`; malformed annotations are errors naming the line.
llvm::Expected<GoldenFile> parseGoldenFile(const std::string &Source);

/// A regex for `Text` where `{{...}}` parts are regexes and the rest is literal.
std::string toPattern(const std::string &Text);

} // namespace graphify::golden
