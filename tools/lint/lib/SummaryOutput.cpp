// The closing summary of a run: proof of what was checked, so that a clean result is never
// silent about how much it covered.
#include "graphify/lint/Output.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>

#include <cmath>

namespace graphify {

static std::string plural(unsigned N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

static unsigned totalFindings(const RunSummary &S) {
  unsigned N = 0;
  for (const auto &[Check, Count] : S.FindingsPerCheck)
    N += Count;
  return N;
}

/// Whether some file was linted with several compile commands, so that units are not files.
static bool unitsAreNotFiles(const RunSummary &S) { return S.Sources && S.Sources != S.Files; }

void writeSummaryText(llvm::raw_ostream &OS, const RunSummary &S) {
  if (unitsAreNotFiles(S)) {
    OS << "graphify-lint: " << plural(S.Files - S.NotParsed, "translation unit", "translation units") << " of "
       << plural(S.Sources, "file", "files") << " checked";
    if (S.NotParsed)
      OS << ", " << plural(S.NotParsed, "translation unit did not compile", "translation units did not compile");
  } else {
    OS << "graphify-lint: " << plural(S.Files - S.NotParsed, "file", "files") << " checked";
    if (S.NotParsed)
      OS << ", " << plural(S.NotParsed, "file did not compile", "files did not compile");
  }
  OS << ", " << plural(totalFindings(S), "finding", "findings");
  if (!S.FindingsPerCheck.empty()) {
    OS << " (";
    bool First = true;
    for (const auto &[Check, Count] : S.FindingsPerCheck) {
      OS << (First ? "" : ", ") << Check << ": " << Count;
      First = false;
    }
    OS << ")";
  }
  if (S.Suppressed)
    OS << ", " << S.Suppressed << " suppressed by NOLINT";
  OS << llvm::formatv(", {0:f1} s\n", S.Seconds);
}

void writeSummaryJson(llvm::raw_ostream &OS, const RunSummary &S) {
  llvm::json::Object PerCheck;
  for (const auto &[Check, Count] : S.FindingsPerCheck)
    PerCheck[Check] = Count;
  llvm::json::Object Summary{{"files", S.Sources ? S.Sources : S.Files},
                             {"translation_units", S.Files},
                             {"not_parsed", S.NotParsed},
                             {"findings", totalFindings(S)},
                             {"findings_per_check", std::move(PerCheck)},
                             {"suppressed", S.Suppressed},
                             {"hidden_in_headers", S.HiddenInHeaders},
                             {"unmatched_region_globs", llvm::json::Array(S.UnmatchedRegionGlobs)},
                             {"static_bound_problems", llvm::json::Array(S.StaticBoundProblems)},
                             {"unchecked_code", llvm::json::Array(S.UncheckedCode)},
                             {"seconds", std::round(S.Seconds * 1000) / 1000}};
  OS << llvm::json::Value(llvm::json::Object{{"summary", std::move(Summary)}}) << "\n";
}

} // namespace graphify
