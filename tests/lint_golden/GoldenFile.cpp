// Parsing of golden-file annotations. Kept strict: an annotation that does not parse fails the
// test instead of silently expecting nothing.
#include "GoldenFile.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>

namespace graphify::golden {

std::string toPattern(const std::string &Text) {
  std::string Out = "^";
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t Open = Text.find("{{", Pos);
    if (Open == std::string::npos) {
      Out += llvm::Regex::escape(Text.substr(Pos));
      break;
    }
    size_t Close = Text.find("}}", Open + 2);
    if (Close == std::string::npos) {
      Out += llvm::Regex::escape(Text.substr(Pos));
      break;
    }
    Out += llvm::Regex::escape(Text.substr(Pos, Open - Pos));
    Out += "(" + Text.substr(Open + 2, Close - Open - 2) + ")";
    Pos = Close + 2;
  }
  return Out + "$";
}

static llvm::Error bad(unsigned Line, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "line " + llvm::Twine(Line) + ": " + Why);
}

llvm::Expected<GoldenFile> parseGoldenFile(const std::string &Source) {
  GoldenFile G;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Source).split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = I + 1;
    llvm::StringRef L = Lines[I].trim();
    if (L.consume_front("// RUN-ARGS:")) {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      L.split(Parts, ' ', -1, false);
      for (llvm::StringRef P : Parts)
        G.RunArgs.push_back(P.trim().str());
      continue;
    }
    size_t At = Lines[I].find("// CHECK-");
    if (At == llvm::StringRef::npos)
      continue;
    llvm::StringRef C = Lines[I].substr(At + 3);
    if (C.consume_front("CHECK-STDERR:")) {
      G.StderrLines.push_back(toPattern(C.trim().str()));
      continue;
    }
    Expectation E;
    E.CommentLine = LineNo;
    E.Written = C.str();
    if (C.consume_front("CHECK-MESSAGES:"))
      E.IsNote = false;
    else if (C.consume_front("CHECK-NOTES:"))
      E.IsNote = true;
    else
      return bad(LineNo, "unknown annotation '" + C + "'");
    C = C.trim();
    if (!C.consume_front(":"))
      return bad(LineNo, "expected ':' before the line");
    if (C.consume_front("[[@LINE")) {
      int Offset = 0;
      if (C.starts_with("+") || C.starts_with("-")) {
        bool Neg = C.front() == '-';
        C = C.drop_front();
        unsigned N;
        if (C.consumeInteger(10, N))
          return bad(LineNo, "bad @LINE offset");
        Offset = Neg ? -int(N) : int(N);
      }
      if (!C.consume_front("]]"))
        return bad(LineNo, "expected ']]'");
      E.Line = unsigned(int(LineNo) + Offset);
    } else if (C.consumeInteger(10, E.Line)) {
      return bad(LineNo, "expected a line number or [[@LINE-N]]");
    }
    if (!C.consume_front(":") || C.consumeInteger(10, E.Column) || !C.consume_front(":"))
      return bad(LineNo, "expected ':COL:'");
    E.Pattern = toPattern(C.trim().str());
    if (!E.IsNote && !C.trim().starts_with("warning:") && !C.trim().starts_with("error:"))
      return bad(LineNo, "CHECK-MESSAGES expects 'warning: ...'");
    if (E.IsNote && !C.trim().starts_with("note:"))
      return bad(LineNo, "CHECK-NOTES expects 'note: ...'");
    G.Expected.push_back(std::move(E));
  }
  return G;
}

} // namespace graphify::golden
