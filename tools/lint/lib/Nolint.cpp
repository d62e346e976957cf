// NOLINT comments. Invariant: suppression is decided from the source text alone, after the
// analysis, so it behaves identically whatever produced a finding, and a malformed region is
// reported instead of silently hiding (or failing to hide) findings.
#include "graphify/lint/Nolint.h"
#include "graphify/lint/Config.h"

#include <llvm/ADT/StringExtras.h>

namespace graphify {
namespace {

enum class Kind { SameLine, NextLine, Begin, End };

struct Marker {
  Kind K;
  unsigned Line, Column;
  bool AllChecks;
  std::vector<std::string> Globs;
  std::string ListKey; // normalised check list, to pair BEGIN with END
};

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

// Finds the NOLINT markers of one line. Only text after `//` or `/*` counts, so a string literal
// or identifier containing NOLINT before any comment is not a marker.
void scanLine(llvm::StringRef Line, unsigned LineNo, std::vector<Marker> &Out) {
  size_t CommentStart = std::min(Line.find("//"), Line.find("/*"));
  if (CommentStart == llvm::StringRef::npos)
    return;
  size_t Pos = CommentStart;
  while ((Pos = Line.find("NOLINT", Pos)) != llvm::StringRef::npos) {
    llvm::StringRef Rest = Line.substr(Pos + 6);
    Marker M{Kind::SameLine, LineNo, unsigned(Pos + 1), true, {}, ""};
    size_t KeywordEnd = Pos + 6;
    if (Rest.starts_with("NEXTLINE")) {
      M.K = Kind::NextLine;
      KeywordEnd += 8;
    } else if (Rest.starts_with("BEGIN")) {
      M.K = Kind::Begin;
      KeywordEnd += 5;
    } else if (Rest.starts_with("END")) {
      M.K = Kind::End;
      KeywordEnd += 3;
    }
    Pos = KeywordEnd;
    if (KeywordEnd < Line.size() && isIdentChar(Line[KeywordEnd]))
      continue; // NOLINTFOO is not a marker
    if (KeywordEnd < Line.size() && Line[KeywordEnd] == '(') {
      size_t Close = Line.find(')', KeywordEnd);
      if (Close != llvm::StringRef::npos) {
        M.AllChecks = false;
        llvm::SmallVector<llvm::StringRef, 4> Parts;
        Line.slice(KeywordEnd + 1, Close).split(Parts, ',', -1, false);
        for (llvm::StringRef P : Parts)
          if (!P.trim().empty())
            M.Globs.push_back(P.trim().str());
        M.ListKey = llvm::join(M.Globs, ",");
        Pos = Close + 1;
      }
    }
    Out.push_back(std::move(M));
  }
}

Finding problem(llvm::StringRef File, const Marker &M, llvm::StringRef Message) {
  Finding F;
  F.CheckId = NolintCheckId;
  F.Where.File = File.str();
  F.Where.Line = M.Line;
  F.Where.Column = M.Column;
  F.RangeLength = M.K == Kind::Begin ? 11 : 9;
  F.Message = Message.str();
  return F;
}

} // namespace

const CheckInfo &nolintCheckInfo() {
  static const CheckInfo Info{
      NolintCheckId, "malformed NOLINT suppression comment",
      "A NOLINTBEGIN without a later NOLINTEND with the same check list, or a NOLINTEND without an "
      "earlier NOLINTBEGIN. Such a comment suppresses nothing, so findings it was meant to hide are "
      "reported, and a region meant to end may not.",
      "Pair every '// NOLINTBEGIN(checks)' with a '// NOLINTEND(checks)' naming the same checks, or use "
      "'// NOLINT' / '// NOLINTNEXTLINE' for single lines.",
      true};
  return Info;
}

NolintMap::NolintMap(llvm::StringRef Text, llvm::StringRef File) {
  std::vector<Marker> Markers;
  unsigned LineNo = 0;
  for (llvm::StringRef Line : llvm::split(Text, '\n'))
    scanLine(Line.rtrim('\r'), ++LineNo, Markers);

  std::vector<const Marker *> Open; // BEGINs waiting for their END
  for (const Marker &M : Markers) {
    switch (M.K) {
    case Kind::SameLine:
    case Kind::NextLine: {
      unsigned L = M.K == Kind::SameLine ? M.Line : M.Line + 1;
      Ranges.push_back({L, L, M.AllChecks, M.Globs});
      break;
    }
    case Kind::Begin:
      Open.push_back(&M);
      break;
    case Kind::End: {
      // The innermost open BEGIN with the same list closes; others stay open (clang-tidy pairs
      // regions by their check list, not by nesting alone).
      auto It = std::find_if(Open.rbegin(), Open.rend(), [&](const Marker *B) { return B->ListKey == M.ListKey; });
      if (It == Open.rend()) {
        Problems.push_back(problem(File, M, "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment"));
        break;
      }
      const Marker *B = *It;
      Ranges.push_back({B->Line, M.Line, B->AllChecks, B->Globs});
      Open.erase(std::next(It).base());
      break;
    }
    }
  }
  for (const Marker *B : Open)
    Problems.push_back(problem(File, *B, "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment"));
  std::sort(Problems.begin(), Problems.end(), [](const Finding &A, const Finding &B) {
    return std::tie(A.Where.Line, A.Where.Column) < std::tie(B.Where.Line, B.Where.Column);
  });
}

bool NolintMap::suppresses(unsigned Line, llvm::StringRef CheckId) const {
  for (const Range &R : Ranges) {
    if (Line < R.First || Line > R.Last)
      continue;
    if (R.AllChecks)
      return true;
    for (const std::string &Glob : R.Globs)
      if (matchesGlob(Glob, CheckId))
        return true;
  }
  return false;
}

} // namespace graphify
