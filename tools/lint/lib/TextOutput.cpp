// clang-tidy's text format. Invariant: the layout is exactly clang's (`file:line:col: warning:`,
// a `  N | source` line, a `    | ^~~~` caret line, the fix-it text under it), so editors and CI
// log parsers that understand clang-tidy understand us; colors only change escape codes around
// the same characters.
#include "graphify/analyzer/Advice.h"
#include "graphify/lint/Output.h"

#include <llvm/Support/Format.h>

namespace graphify {
namespace {

const char *Reset = "\033[0m";
const char *Bold = "\033[1m";
const char *BoldMagenta = "\033[1;35m";
const char *BoldRed = "\033[1;31m";
const char *BoldBlack = "\033[1;30m";
const char *BoldGreen = "\033[1;32m";
const char *Green = "\033[0;32m";

class TextWriter {
public:
  TextWriter(llvm::raw_ostream &OS, OutputContext &Ctx) : OS(OS), Ctx(Ctx) {}

  void finding(const ReportedFinding &R) {
    const Finding &F = R.F;
    bool IsError = R.Level == Severity::Error;
    header(F.Where, IsError ? "error" : "warning", IsError ? BoldRed : BoldMagenta,
           F.Message + " [" + F.CheckId + (IsError ? ",-warnings-as-errors]" : "]"));
    const Replacement *FixOnLine = nullptr;
    if (F.Fix)
      for (const Replacement &Rep : F.Fix->Replacements) {
        // Like clang, show a fix-it inline only when it replaces text within the caret's line.
        auto Pos = Ctx.Sources.position(Rep.File, Rep.Offset);
        auto End = Ctx.Sources.position(Rep.File, Rep.Offset + Rep.Length);
        if (Rep.File == F.Where.File && Pos && End && Pos->first == F.Where.Line && End->first == F.Where.Line &&
            !Rep.Text.empty() && llvm::StringRef(Rep.Text).find('\n') == llvm::StringRef::npos) {
          FixOnLine = &Rep;
          break;
        }
      }
    snippet(F.Where, F.RangeLength, FixOnLine);
    for (const FindingNote &N : F.Notes) {
      header(N.Where, "note", BoldBlack, N.Message);
      snippet(N.Where, 0, nullptr);
    }
    if (F.Fix && !F.Fix->Explanation.empty())
      header(F.Where, "note", BoldBlack, "fix: " + F.Fix->Explanation);
    if (std::string Advice = adviceLine(F); !Advice.empty())
      header(F.Where, "note", BoldBlack, Advice);
  }

private:
  llvm::raw_ostream &OS;
  OutputContext &Ctx;

  void color(const char *Code) {
    if (Ctx.Color)
      OS << Code;
  }

  void header(const SourcePoint &P, llvm::StringRef Level, const char *LevelColor, const std::string &Message) {
    color(Bold);
    OS << P.File << ":" << P.Line << ":" << P.Column << ": ";
    color(LevelColor);
    OS << Level << ": ";
    color(Reset);
    color(Bold);
    OS << Message;
    color(Reset);
    OS << "\n";
  }

  // Display column (0-based) of byte `Byte` of `Line`, with tabs expanded to 8 as clang does.
  static unsigned displayColumn(llvm::StringRef Line, unsigned Byte) {
    unsigned Col = 0;
    for (unsigned I = 0; I < Byte && I < Line.size(); ++I)
      Col = Line[I] == '\t' ? (Col / 8 + 1) * 8 : Col + 1;
    return Col + (Byte > Line.size() ? Byte - unsigned(Line.size()) : 0);
  }

  static std::string expandTabs(llvm::StringRef Line) {
    std::string Out;
    for (char C : Line) {
      if (C == '\t')
        Out.append(8 - Out.size() % 8, ' ');
      else
        Out += C;
    }
    return Out;
  }

  void snippet(const SourcePoint &P, unsigned RangeLength, const Replacement *Fix) {
    auto Line = Ctx.Sources.line(P.File, P.Line);
    if (!Line || P.Column == 0)
      return;
    // clang's gutter: the line number right-aligned in at least four columns, then " | ".
    unsigned Digits = std::to_string(P.Line).size();
    unsigned Width = std::max(4u, Digits);
    OS.indent(Width - Digits + 1) << P.Line << " | " << expandTabs(*Line) << "\n";

    unsigned Start = displayColumn(*Line, P.Column - 1);
    unsigned EndByte = std::min<unsigned>(P.Column - 1 + std::max(RangeLength, 1u), std::max<size_t>(Line->size(), P.Column));
    unsigned End = std::max(displayColumn(*Line, EndByte), Start + 1);
    OS.indent(Width + 2) << "| ";
    OS.indent(Start);
    color(BoldGreen);
    OS << '^';
    for (unsigned I = Start + 1; I < End; ++I)
      OS << '~';
    color(Reset);
    OS << "\n";
    if (Fix) {
      auto Pos = Ctx.Sources.position(Fix->File, Fix->Offset);
      OS.indent(Width + 2) << "| ";
      OS.indent(displayColumn(*Line, Pos->second - 1));
      color(Green);
      OS << Fix->Text;
      color(Reset);
      OS << "\n";
    }
  }
};

} // namespace

void writeText(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx) {
  TextWriter W(OS, Ctx);
  for (const ReportedFinding &R : Findings)
    W.finding(R);
}

} // namespace graphify
