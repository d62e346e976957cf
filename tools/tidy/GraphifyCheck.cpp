// The clang-tidy face of a graphify check. Invariant: what a check reports is exactly what
// graphify-lint's text output says for its id, line for line (the warning, its notes, then "fix:",
// "no fix offered:" or "by hand:"), and a fix-it is attached whole or not at all.
#include "GraphifyCheck.h"

#include "UnitFindings.h"

#include "graphify/analyzer/Advice.h"

#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Basic/SourceManager.h>

#include <mutex>
#include <set>

namespace graphify::tidy {
namespace {

using clang::DiagnosticIDs;
using clang::SourceLocation;
using clang::SourceManager;

/// A diagnostic's text is a format string: '%' starts an argument.
std::string escaped(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

clang::FileID fileOf(const SourceManager &SM, llvm::StringRef File) {
  auto Ref = SM.getFileManager().getOptionalFileRef(File);
  return Ref ? SM.translateFile(*Ref) : clang::FileID();
}

/// Where a finding or a note points, or invalid when the unit did not read its file.
SourceLocation locationOf(const SourceManager &SM, const SourcePoint &P) {
  clang::FileID FID = fileOf(SM, P.File);
  if (FID.isInvalid() || P.Line == 0)
    return {};
  return SM.translateLineCol(FID, P.Line, std::max(P.Column, 1u));
}

/// A fix as fix-it hints, or nothing when one of its edits lies in a file the unit did not read:
/// half a rewrite would break the code.
std::optional<std::vector<clang::FixItHint>> hintsOf(const SourceManager &SM, const FixIt &Fix) {
  std::vector<clang::FixItHint> Hints;
  for (const Replacement &Rep : Fix.Replacements) {
    clang::FileID FID = fileOf(SM, Rep.File);
    if (FID.isInvalid())
      return std::nullopt;
    SourceLocation Begin = SM.getComposedLoc(FID, Rep.Offset);
    Hints.push_back(clang::FixItHint::CreateReplacement(
        clang::CharSourceRange::getCharRange(Begin, Begin.getLocWithOffset(Rep.Length)), Rep.Text));
  }
  return Hints;
}

/// Reports a configuration problem once per run, not once per check and unit.
bool firstReport(const std::string &Message) {
  static std::mutex Lock;
  static std::set<std::string> Seen;
  std::lock_guard<std::mutex> Guard(Lock);
  return Seen.insert(Message).second;
}

} // namespace

GraphifyCheck::GraphifyCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Tidy(Context) {
  auto Read = readSettings(Name, [this](llvm::StringRef Option) -> std::optional<std::string> {
    if (auto V = Options.getLocalOrGlobal(Option))
      return V->str();
    return std::nullopt;
  });
  if (Read) {
    Settings = std::move(*Read);
    return;
  }
  std::string Problem = llvm::toString(Read.takeError());
  if (firstReport(Problem))
    configurationDiag("%0; the graphify checks report nothing", DiagnosticIDs::Error) << Problem;
}

void GraphifyCheck::registerMatchers(clang::ast_matchers::MatchFinder *Finder) {
  // The analysis is of the whole unit: one match, on the translation unit itself.
  Finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("unit"), this);
}

void GraphifyCheck::check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  if (!Settings)
    return;
  UnitResult &R = UnitFindings::of(*Result.Context, *Settings, *Tidy);
  if (!R.Error.empty()) {
    if (firstReport(R.Error))
      configurationDiag("cannot load graphify's rule packs: %0; the graphify checks report nothing",
                        DiagnosticIDs::Error)
          << R.Error;
    return;
  }
  if (!R.UncheckedReported)
    for (const std::string &Note : R.Unchecked)
      llvm::errs() << "graphify-tidy: note: " << Note << "\n";
  R.UncheckedReported = true;
  const SourceManager &SM = *Result.SourceManager;
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (R.Findings[I].CheckId == getID())
      report(SM, R.Findings[I], R.CarriesFix[I]);
}

void GraphifyCheck::report(const SourceManager &SM, const Finding &F, bool CarriesFix) {
  SourceLocation Loc = locationOf(SM, F.Where);
  {
    clang::DiagnosticBuilder D = Loc.isValid() ? diag(Loc, escaped(F.Message)) : diag(escaped(F.Message));
    if (Loc.isValid() && F.RangeLength)
      D << clang::CharSourceRange::getCharRange(Loc, Loc.getLocWithOffset(F.RangeLength));
    if (F.Fix && CarriesFix)
      if (auto Hints = hintsOf(SM, *F.Fix))
        for (const clang::FixItHint &H : *Hints)
          D << H;
  }
  auto Note = [&](const SourcePoint &Where, const std::string &Text) {
    SourceLocation At = locationOf(SM, Where);
    if (At.isValid())
      diag(At, escaped(Text), DiagnosticIDs::Note);
    else
      diag(escaped(Text), DiagnosticIDs::Note);
  };
  for (const FindingNote &N : F.Notes)
    Note(N.Where, N.Message);
  if (F.Fix && !F.Fix->Explanation.empty())
    Note(F.Where, "fix: " + F.Fix->Explanation);
  if (std::string Advice = adviceLine(F); !Advice.empty())
    Note(F.Where, Advice);
}

void GraphifyCheck::onEndOfTranslationUnit() { UnitFindings::forget(); }

void GraphifyCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  for (const auto &[Name, Value] : Settings.value_or(TidySettings()).asOptions())
    Options.store(Opts, Name, Value);
}

} // namespace graphify::tidy
