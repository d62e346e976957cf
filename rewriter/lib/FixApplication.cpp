// Fix application keeps three promises: a file is never left half-written (the new content goes
// to a temporary file in the same directory, which is renamed over the original only after every
// file's new content compiled; SafeFileReplace.cpp), a file edited since the analysis is never
// patched (content hashes, then a last comparison before the rename), and applying the fixes of already-fixed code changes nothing
// (fixed code has no findings with fixes, and identical fixes attached to several findings are
// applied once).
#include "graphify/rewriter/FixApplication.h"

#include "graphify/rewriter/SafeFileReplace.h"
#include "UnifiedDiff.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Diagnostic.h>
#include <clang/Tooling/Core/Replacement.h>
#include <clang/Tooling/DiagnosticsYaml.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/YAMLTraits.h>
#include <llvm/Support/xxhash.h>

#include <map>
#include <set>

namespace graphify {

namespace {

/// A fix chosen for application, with the finding it came from (for messages).
struct ChosenFix {
  const Finding *From;
  const FixIt *Fix;
};

std::string describe(const Finding &F) {
  return llvm::formatv("{0}:{1}:{2}", F.Where.File, F.Where.Line, F.Where.Column).str();
}

bool sameFix(const FixIt &A, const FixIt &B) {
  if (A.Replacements.size() != B.Replacements.size())
    return false;
  for (size_t I = 0; I < A.Replacements.size(); ++I) {
    const Replacement &X = A.Replacements[I], &Y = B.Replacements[I];
    if (X.File != Y.File || X.Offset != Y.Offset || X.Length != Y.Length || X.Text != Y.Text)
      return false;
  }
  return true;
}

bool overlaps(const Replacement &A, const Replacement &B) {
  if (A.File != B.File)
    return false;
  unsigned AE = A.Offset + A.Length, BE = B.Offset + B.Length;
  if (A.Length == 0 && B.Length == 0) // two insertions at one point: their order is ambiguous,
    return A.Offset == B.Offset && A.Text != B.Text; // unless they are one (an #include two fixes need)
  if (A.Length == 0)
    return A.Offset > B.Offset && A.Offset < BE;
  if (B.Length == 0)
    return B.Offset > A.Offset && B.Offset < AE;
  return A.Offset < BE && B.Offset < AE;
}

/// Every fix, in finding order, minus duplicates and fixes overlapping an earlier one.
std::vector<ChosenFix> chooseFixes(llvm::ArrayRef<Finding> Findings, std::vector<std::string> &Skipped) {
  std::vector<ChosenFix> Chosen;
  for (const Finding &F : Findings) {
    if (!F.Fix || F.Fix->Replacements.empty())
      continue;
    bool Duplicate = false, Conflict = false;
    for (const ChosenFix &C : Chosen) {
      if (sameFix(*C.Fix, *F.Fix)) {
        Duplicate = true;
        break;
      }
      for (const Replacement &A : C.Fix->Replacements)
        for (const Replacement &B : F.Fix->Replacements)
          Conflict |= overlaps(A, B);
    }
    if (Duplicate)
      continue;
    if (Conflict) {
      Skipped.push_back(describe(F) + ": skipped fix '" + F.Fix->RuleName +
                        "': it overlaps a fix applied earlier; run --fix again to apply it");
      continue;
    }
    Chosen.push_back({&F, &*F.Fix});
  }
  return Chosen;
}

/// Files in order of first appearance among the chosen fixes.
std::vector<std::string> filesOf(const std::vector<ChosenFix> &Chosen) {
  std::vector<std::string> Files;
  for (const ChosenFix &C : Chosen)
    for (const Replacement &R : C.Fix->Replacements)
      if (std::find(Files.begin(), Files.end(), R.File) == Files.end())
        Files.push_back(R.File);
  return Files;
}

llvm::Expected<std::string> applyChosen(const std::vector<ChosenFix> &Chosen, llvm::StringRef Path,
                                        llvm::StringRef Original, const std::string &FallbackStyle) {
  clang::tooling::Replacements Reps;
  std::set<std::tuple<unsigned, unsigned, std::string>> Applied;
  for (const ChosenFix &C : Chosen)
    for (const Replacement &R : C.Fix->Replacements) {
      if (R.File != Path || !Applied.insert({R.Offset, R.Length, R.Text}).second)
        continue; // another file's, or an edit another fix makes too
      if (R.Offset + R.Length > Original.size())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "%s: fix '%s' is out of range (the file changed since it was analysed)",
                                       Path.str().c_str(), C.Fix->RuleName.c_str());
      if (auto Err = Reps.add(clang::tooling::Replacement(Path, R.Offset, R.Length, R.Text)))
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: fix '%s' cannot be applied: %s",
                                       Path.str().c_str(), C.Fix->RuleName.c_str(),
                                       llvm::toString(std::move(Err)).c_str());
    }
  if (Reps.empty())
    return Original.str();
  // Only the changed ranges are formatted; the style comes from the .clang-format above the file.
  auto Style = clang::format::getStyle("file", Path, FallbackStyle, Original);
  if (!Style)
    return Style.takeError();
  auto Formatted = clang::format::formatReplacements(Original, Reps, *Style);
  if (!Formatted)
    return Formatted.takeError();
  return clang::tooling::applyAllReplacements(Original, *Formatted);
}

/// Offsets are only meaningful in the text that was analysed: a file edited since then is
/// refused rather than patched at positions that now mean something else.
llvm::Error checkAnalysedContent(const std::vector<ChosenFix> &Chosen, llvm::StringRef Path,
                                 llvm::StringRef Current) {
  const uint64_t Now = llvm::xxh3_64bits(Current);
  for (const ChosenFix &C : Chosen)
    for (const Replacement &R : C.Fix->Replacements)
      if (R.File == Path && R.FileHash != 0 && R.FileHash != Now)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "%s: the file changed since it was analysed; not fixed (run again)",
                                       Path.str().c_str());
  return llvm::Error::success();
}

llvm::Error exportYaml(const std::vector<ChosenFix> &Chosen, const FixApplicationOptions &Opts) {
  clang::tooling::TranslationUnitDiagnostics TUD;
  if (!Chosen.empty())
    TUD.MainSourceFile = Chosen.front().From->Where.File;
  for (const ChosenFix &C : Chosen) {
    llvm::StringMap<clang::tooling::Replacements> Fix;
    for (const Replacement &R : C.Fix->Replacements)
      if (auto Err = Fix[R.File].add(clang::tooling::Replacement(R.File, R.Offset, R.Length, R.Text)))
        return Err;
    clang::tooling::DiagnosticMessage Msg;
    Msg.Message = C.From->Message;
    Msg.FilePath = C.From->Where.File;
    Msg.FileOffset = C.From->Where.Offset;
    Msg.Fix = std::move(Fix);
    clang::tooling::Diagnostic D(C.From->CheckId, Msg, {}, clang::tooling::Diagnostic::Warning, "");
    TUD.Diagnostics.push_back(std::move(D));
  }
  std::string Text;
  {
    llvm::raw_string_ostream OS(Text);
    llvm::yaml::Output YAML(OS);
    YAML << TUD;
  }
  return rewriter::writeOutputFile(Opts.ExportPath, Text);
}

} // namespace

llvm::Expected<std::string> applyFixesToText(llvm::ArrayRef<Finding> Findings, llvm::StringRef Path,
                                             llvm::StringRef Original, const std::string &FormatStyleFallback,
                                             std::vector<std::string> *Skipped) {
  std::vector<std::string> LocalSkipped;
  std::vector<ChosenFix> Chosen = chooseFixes(Findings, Skipped ? *Skipped : LocalSkipped);
  return applyChosen(Chosen, Path, Original, FormatStyleFallback);
}

llvm::Error applyFixes(llvm::ArrayRef<Finding> Findings, const FixApplicationOptions &Opts, llvm::raw_ostream &Out) {
  std::vector<std::string> Skipped;
  std::vector<ChosenFix> Chosen = chooseFixes(Findings, Skipped);
  for (const std::string &S : Skipped)
    Out << S << "\n";
  if (Opts.Mode == FixApplicationOptions::Mode::Export) {
    if (Opts.ExportPath.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "--export-fixes needs a file name");
    return exportYaml(Chosen, Opts);
  }
  // Compute every file's new content first: nothing is written unless all of them succeed.
  std::vector<std::pair<std::string, std::string>> NewContents;
  std::map<std::string, std::string> Originals;
  for (const std::string &File : filesOf(Chosen)) {
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "%s: cannot read: %s", File.c_str(),
                                     Buffer.getError().message().c_str());
    std::string Original = (*Buffer)->getBuffer().str();
    if (auto Err = checkAnalysedContent(Chosen, File, Original))
      return Err;
    auto New = applyChosen(Chosen, File, Original, Opts.FormatStyleFallback);
    if (!New)
      return New.takeError();
    if (*New == Original)
      continue;
    Originals[File] = Original;
    NewContents.push_back({File, std::move(*New)});
  }
  if (Opts.Mode == FixApplicationOptions::Mode::Diff) {
    for (const auto &[File, New] : NewContents)
      rewriter::writeUnifiedDiff(File, Originals[File], New, Out);
    return llvm::Error::success();
  }
  for (const auto &[File, New] : NewContents)
    if (auto Err = rewriter::checkFileReplaceable(File))
      return Err;
  for (const auto &[File, New] : NewContents) {
    std::string Errors;
    if (Opts.Compiles && !Opts.Compiles(File, New, Errors))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: the fixed file does not compile, so nothing was written:\n%s",
                                     File.c_str(), Errors.c_str());
  }
  for (const auto &[File, New] : NewContents) {
    if (auto Err = rewriter::replaceFileContent(File, Originals[File], New))
      return Err;
    Out << File << ": applied fixes\n";
  }
  return llvm::Error::success();
}

} // namespace graphify
