// JSON output. Invariant: the schema below is a contract (documented in docs and tested); fields
// are only ever added, never renamed, so that scripts written against it keep working.
//
//   [                                   one object per finding, in report order
//     { "file": "/abs/model.cpp",       as the compiler named it (absolute for -p databases)
//       "line": 12, "column": 9,        1-based; columns count bytes, as clang's do
//       "endColumn": 15,                1-based, exclusive end of the underlined range
//       "check": "graphify-host-sync",
//       "severity": "warning",          or "error" (WarningsAsErrors)
//       "message": "...",               lowercase, no final period, no [check-id]
//       "notes": [ { "file", "line", "column", "message" } ],
//       "fix": null | { "rule", "explanation",
//                       "replacements": [ { "file", "offset", "length", "line", "column", "text" } ] },
//       "noFixReason": "..."            omitted when empty
//       "recipe": "..."                 what to do by hand, when no rewrite is about the finding
//     } ]
#include "graphify/lint/Output.h"

#include <llvm/Support/JSON.h>

namespace graphify {

void writeJson(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx) {
  llvm::json::Array All;
  for (const ReportedFinding &R : Findings) {
    const Finding &F = R.F;
    llvm::json::Array Notes;
    for (const FindingNote &N : F.Notes)
      Notes.push_back(llvm::json::Object{
          {"file", N.Where.File}, {"line", N.Where.Line}, {"column", N.Where.Column}, {"message", N.Message}});
    llvm::json::Value Fix = nullptr;
    if (F.Fix) {
      llvm::json::Array Reps;
      for (const Replacement &Rep : F.Fix->Replacements) {
        llvm::json::Object O{{"file", Rep.File}, {"offset", Rep.Offset}, {"length", Rep.Length}, {"text", Rep.Text}};
        if (auto Pos = Ctx.Sources.position(Rep.File, Rep.Offset)) {
          O["line"] = Pos->first;
          O["column"] = Pos->second;
        }
        Reps.push_back(std::move(O));
      }
      Fix = llvm::json::Object{
          {"rule", F.Fix->RuleName}, {"explanation", F.Fix->Explanation}, {"replacements", std::move(Reps)}};
    }
    llvm::json::Object O{{"file", F.Where.File},
                         {"line", F.Where.Line},
                         {"column", F.Where.Column},
                         {"endColumn", F.Where.Column + std::max(F.RangeLength, 1u)},
                         {"check", F.CheckId},
                         {"severity", R.Level == Severity::Error ? "error" : "warning"},
                         {"message", F.Message},
                         {"notes", std::move(Notes)},
                         {"fix", std::move(Fix)}};
    if (!F.NoFixReason.empty())
      O["noFixReason"] = F.NoFixReason;
    else if (!F.Recipe.empty())
      O["recipe"] = F.Recipe;
    All.push_back(std::move(O));
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(All))) << "\n";
}

} // namespace graphify
