// GitHub Actions workflow commands. Invariant: whatever a message contains, it stays one command
// on one line: data is escaped for `%`, CR and LF, property values also for `:` and `,`, as the
// runner's parser requires.
#include "graphify/analyzer/Advice.h"
#include "graphify/lint/Output.h"

namespace graphify {

std::string escapeGithub(llvm::StringRef Text, bool Property) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '%': Out += "%25"; break;
    case '\r': Out += "%0D"; break;
    case '\n': Out += "%0A"; break;
    case ':': Out += Property ? "%3A" : ":"; break;
    case ',': Out += Property ? "%2C" : ","; break;
    default: Out += C;
    }
  }
  return Out;
}

void writeGithub(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx) {
  for (const ReportedFinding &R : Findings) {
    const Finding &F = R.F;
    // GitHub resolves file= against the repository root, which is the usual working directory.
    std::string File = relativeToWorkingDir(F.Where.File, Ctx.WorkingDir);
    if (File.empty())
      File = F.Where.File;
    std::string Message = F.Message;
    for (const FindingNote &N : F.Notes)
      Message += "\n" + N.Where.File + ":" + std::to_string(N.Where.Line) + ":" + std::to_string(N.Where.Column) +
                 ": note: " + N.Message;
    if (std::string Advice = adviceLine(F); !Advice.empty())
      Message += "\n" + Advice;
    OS << "::" << (R.Level == Severity::Error ? "error" : "warning") << " file=" << escapeGithub(File, true)
       << ",line=" << F.Where.Line << ",col=" << F.Where.Column
       << ",endColumn=" << F.Where.Column + std::max(F.RangeLength, 1u) << ",title=" << escapeGithub(F.CheckId, true)
       << "::" << escapeGithub(Message, false) << "\n";
  }
}

} // namespace graphify
