// A line diff by longest common subsequence over the region between the common prefix and
// suffix. Fixes touch a few lines of a file, so that region is small and the quadratic table is
// cheap; no diff tool is run.
#include "UnifiedDiff.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <vector>

namespace graphify::rewriter {

namespace {

std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    if (NL == llvm::StringRef::npos) {
      Lines.push_back(Text);
      break;
    }
    Lines.push_back(Text.substr(0, NL + 1));
    Text = Text.substr(NL + 1);
  }
  return Lines;
}

enum class Op { Keep, Remove, Add };
struct Line {
  Op Kind;
  llvm::StringRef Text;
};

} // namespace

void writeUnifiedDiff(llvm::StringRef Path, llvm::StringRef Before, llvm::StringRef After, llvm::raw_ostream &OS,
                      unsigned Context) {
  if (Before == After)
    return;
  std::vector<llvm::StringRef> A = splitLines(Before), B = splitLines(After);
  size_t Prefix = 0;
  while (Prefix < A.size() && Prefix < B.size() && A[Prefix] == B[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < A.size() - Prefix && Suffix < B.size() - Prefix &&
         A[A.size() - 1 - Suffix] == B[B.size() - 1 - Suffix])
    ++Suffix;
  size_t N = A.size() - Prefix - Suffix, M = B.size() - Prefix - Suffix;
  // LCS table over the middle region.
  std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      L[I][J] = A[Prefix + I] == B[Prefix + J] ? L[I + 1][J + 1] + 1 : std::max(L[I + 1][J], L[I][J + 1]);
  std::vector<Line> Script;
  for (size_t I = 0; I < Prefix; ++I)
    Script.push_back({Op::Keep, A[I]});
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && A[Prefix + I] == B[Prefix + J]) {
      Script.push_back({Op::Keep, A[Prefix + I]});
      ++I, ++J;
    } else if (I < N && (J == M || L[I + 1][J] >= L[I][J + 1])) {
      // On a tie, removals come first, as diff(1) and git print them.
      Script.push_back({Op::Remove, A[Prefix + I++]});
    } else {
      Script.push_back({Op::Add, B[Prefix + J++]});
    }
  }
  for (size_t K = A.size() - Suffix; K < A.size(); ++K)
    Script.push_back({Op::Keep, A[K]});

  // git-style a/ b/ prefixes for relative paths (patch -p1); absolute paths as they are (-p0).
  bool Absolute = Path.starts_with("/");
  OS << "--- " << (Absolute ? "" : "a/") << Path << "\n+++ " << (Absolute ? "" : "b/") << Path << "\n";
  // Group changes into hunks with `Context` lines around them.
  size_t Pos = 0;
  while (Pos < Script.size()) {
    while (Pos < Script.size() && Script[Pos].Kind == Op::Keep)
      ++Pos;
    if (Pos == Script.size())
      break;
    size_t Start = Pos >= Context ? Pos - Context : 0;
    size_t End = Pos;
    size_t Quiet = 0;
    for (size_t K = Pos; K < Script.size(); ++K) {
      if (Script[K].Kind == Op::Keep) {
        if (++Quiet > 2 * Context)
          break;
      } else {
        Quiet = 0;
        End = K;
      }
    }
    size_t Stop = std::min(Script.size(), End + 1 + Context);
    // Line numbers of the hunk start in each version.
    unsigned OldLine = 1, NewLine = 1;
    for (size_t K = 0; K < Start; ++K) {
      OldLine += Script[K].Kind != Op::Add;
      NewLine += Script[K].Kind != Op::Remove;
    }
    unsigned OldCount = 0, NewCount = 0;
    for (size_t K = Start; K < Stop; ++K) {
      OldCount += Script[K].Kind != Op::Add;
      NewCount += Script[K].Kind != Op::Remove;
    }
    OS << llvm::formatv("@@ -{0},{1} +{2},{3} @@\n", OldCount ? OldLine : OldLine - 1, OldCount,
                        NewCount ? NewLine : NewLine - 1, NewCount);
    for (size_t K = Start; K < Stop; ++K) {
      OS << (Script[K].Kind == Op::Keep ? ' ' : Script[K].Kind == Op::Add ? '+' : '-') << Script[K].Text;
      if (!Script[K].Text.ends_with("\n"))
        OS << "\n\\ No newline at end of file\n";
    }
    Pos = Stop;
  }
}

} // namespace graphify::rewriter
