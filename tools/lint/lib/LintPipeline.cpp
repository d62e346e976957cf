// The lint pipeline for one translation unit. Invariants: nothing is reported for a unit that did
// not compile; the filters (checks, profile, reported files, NOLINT) are applied here whatever the
// analysis already honoured, so the contract lives in one place; and the result depends only on
// the unit, never on the order or the thread it ran on.
#include "graphify/lint/LintPipeline.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/Check.h"
#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/Nolint.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/lint/SummaryFile.h"
#include "graphify/rewriter/Rewriter.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Serialization/ASTReader.h>
#include <clang/Serialization/ModuleFile.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/Timer.h>
#include <llvm/Support/thread.h>

#include <map>
#include <memory>
#include <set>

namespace graphify {
namespace {

/// The text of `File` as the parse read it (the source manager's buffer: an unsaved Content for
/// the main file), or nullopt when the parse did not read it.
std::optional<llvm::StringRef> parsedText(const clang::SourceManager &SM, llvm::StringRef File) {
  clang::FileID Id;
  if (auto Ref = SM.getFileManager().getOptionalFileRef(File, /*OpenFile=*/false))
    Id = SM.translateFile(*Ref);
  if (Id.isInvalid())
    return std::nullopt;
  return SM.getBufferDataOrNone(Id);
}

/// Calls `Visit` with the file of the finding, of each note and of each replacement of its fix.
void forEachFileOf(const Finding &F, llvm::function_ref<void(const std::string &)> Visit) {
  Visit(F.Where.File);
  for (const FindingNote &N : F.Notes)
    Visit(N.Where.File);
  if (F.Fix)
    for (const Replacement &Rep : F.Fix->Replacements)
      Visit(Rep.File);
}

/// The texts of every file a finding, note or fix of `Findings` points into, taken while the
/// source manager is alive: NOLINT and the renderers read these, so no file is read again and
/// what is shown is what was analysed.
std::map<std::string, std::string> textsOf(const clang::SourceManager &SM, const std::vector<Finding> &Findings) {
  std::map<std::string, std::string> Texts;
  auto Take = [&](const std::string &File) {
    if (Texts.count(File))
      return;
    if (auto Text = parsedText(SM, File))
      Texts[File] = Text->str();
  };
  for (const Finding &F : Findings)
    forEachFileOf(F, Take);
  return Texts;
}

/// NOLINT comments per file, read once from the parsed texts.
class NolintCache {
public:
  explicit NolintCache(const std::map<std::string, std::string> &Texts) : Texts(Texts) {}

  const NolintMap *forFile(const std::string &File) {
    auto &Slot = Maps[File];
    if (!Slot) {
      auto Text = Texts.find(File);
      if (Text == Texts.end())
        return nullptr;
      Slot = std::make_unique<NolintMap>(Text->second, File);
    }
    return Slot.get();
  }

private:
  const std::map<std::string, std::string> &Texts;
  std::map<std::string, std::unique_ptr<NolintMap>> Maps;
};

void nameFilesAsReported(std::vector<Finding> &Findings, llvm::StringRef Directory, llvm::StringRef Cwd) {
  for (Finding &F : Findings) {
    F.Where.File = reportedPath(F.Where.File, Directory, Cwd);
    for (FindingNote &N : F.Notes)
      N.Where.File = reportedPath(N.Where.File, Directory, Cwd);
    if (F.Fix)
      for (Replacement &Rep : F.Fix->Replacements)
        Rep.File = reportedPath(Rep.File, Directory, Cwd);
  }
}

std::string parentDirectory(llvm::StringRef Path) { return llvm::sys::path::parent_path(Path).str(); }

/// Whether the PCH the unit was parsed with holds an analysed file (a project header in the
/// shared prefix): its declarations were not parsed here, so they are not among the TU's
/// loaded declarations. The PCH's own source, the cache's generated list of `#include` lines,
/// declares nothing: it is not an analysed file even when the cache lies in the project (a
/// build tree's, as the tests' does), which once turned the narrowing off for every case.
bool pchHoldsAnalysedFile(clang::ASTContext &Ctx, const std::function<bool(llvm::StringRef)> &IsFileAnalysed) {
  auto *Reader = llvm::dyn_cast_or_null<clang::ASTReader>(Ctx.getExternalSource());
  if (!Reader)
    return false;
  bool Holds = false;
  for (clang::serialization::ModuleFile &MF : Reader->getModuleManager())
    Reader->visitInputFileInfos(MF, /*IncludeSystem=*/true,
                                [&](const clang::serialization::InputFileInfo &IFI, bool) {
                                  if (Holds || IFI.Filename == MF.ActualOriginalSourceFileName ||
                                      IFI.Filename == MF.OriginalSourceFileName)
                                    return;
                                  Holds = IsFileAnalysed(IFI.Filename);
                                });
  return Holds;
}

/// The analysis looks at the main file and the analysed headers only, but the checks ask
/// Clang's parent map, which covers the traversal scope, by default the whole translation unit:
/// every declaration of torch/torch.h was walked once more, and with a shared PCH all of them
/// were deserialised for it, which cost more than the parse the PCH saved (an analysis of 9 s
/// instead of 0.5 s on a 17-line file). So the scope is narrowed to the top-level declarations
/// of the analysed files while the analysis runs (as the fix search below does for the reported
/// ones). When the PCH holds an analysed file (a project header among the shared includes), its
/// top-level declarations are loaded from the PCH to be in the scope too: the scope is then the
/// one a parse without the PCH narrows to.
class AnalysedScope {
public:
  AnalysedScope(clang::ASTContext &Ctx, const std::function<bool(llvm::StringRef)> &IsFileAnalysed) : Ctx(Ctx) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    std::vector<clang::Decl *> Scope;
    auto Take = [&](clang::Decl *D) {
      clang::SourceLocation Loc = SM.getFileLoc(D->getLocation());
      if (Loc.isValid() && (SM.isInMainFile(Loc) || IsFileAnalysed(SM.getFilename(Loc))))
        Scope.push_back(D);
    };
    clang::TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
    if (pchHoldsAnalysedFile(Ctx, IsFileAnalysed))
      llvm::for_each(TU->decls(), Take);
    else
      llvm::for_each(TU->noload_decls(), Take);
    Ctx.setTraversalScope(Scope);
    Narrowed = true;
  }
  ~AnalysedScope() {
    if (Narrowed)
      Ctx.setTraversalScope({Ctx.getTranslationUnitDecl()});
  }
  AnalysedScope(const AnalysedScope &) = delete;
  AnalysedScope &operator=(const AnalysedScope &) = delete;

private:
  clang::ASTContext &Ctx;
  bool Narrowed = false;
};

/// One round and the checks, or, in whole-program mode, the rounds the session asks for and then
/// the checks. `Settled`: the program's facts were settled by earlier parses of this unit (the
/// rounds ran without keeping the AST); one analysis with them and the checks remain.
AnalysisResult analyze(clang::ASTContext &Ctx, const AnalysisConfig &Config, const LintUnit &U,
                       const ProgramFacts *Settled, std::optional<UnitFacts> &Exported) {
  if (U.Imported || U.ExportFacts) {
    // An empty program, not none: the first round of the single-process mode imports an empty
    // one too, and a unit analysed with a program treats calls without a body as defined elsewhere.
    static const ProgramFacts NothingYet;
    UnitAnalysis Unit(Ctx, Config);
    UnitFacts Mine = Unit.analyze(U.Imported ? U.Imported : &NothingYet);
    if (U.ExportFacts)
      Exported = std::move(Mine);
    if (!U.ExportOnly)
      return Unit.check();
    AnalysisResult Extracted; // no checks: only what the summary records
    Extracted.MatchedRegionGlobs = Unit.matchedRegionGlobs();
    Extracted.MatchedStaticBounds = Unit.matchedStaticBounds();
    return Extracted;
  }
  if (Settled) {
    UnitAnalysis Unit(Ctx, Config);
    Unit.analyze(Settled);
    return Unit.check();
  }
  if (!U.Program)
    return analyzeTranslationUnit(Ctx, Config);
  UnitAnalysis Unit(Ctx, Config);
  bool Analysed = false;
  const ProgramFacts *Final = U.Program->settle(U.ProgramIndex, [&](const ProgramFacts *Now) {
    Analysed = true;
    return Unit.analyze(Now);
  });
  if (!Analysed)
    Unit.analyze(Final);
  return Unit.check();
}

} // namespace

// Fixes are only sought for findings, which lie in the main file, in headers the filter
// reports, or in the project's headers that hold region code; matching the rewrite rules over
// every declaration of torch/torch.h as well cost more than the analysis (about 15% of a parse).
// So the traversal is narrowed to the top-level declarations of those files (as clangd does)
// while the rules run: the parent map, which finds a finding's function, covers no more. The
// predicates are null when they select nothing, which spares a file comparison per declaration
// of the headers.
void attachFixesInReportedFiles(clang::ASTContext &Ctx, AnalysisResult &A, const RuleSet &Rules,
                                const std::function<bool(llvm::StringRef)> *IsHeaderReported,
                                const std::function<bool(llvm::StringRef)> *IsHeaderShown) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Selects = [](const std::function<bool(llvm::StringRef)> *P, llvm::StringRef File) { return P && (*P)(File); };
  std::vector<clang::Decl *> Scope;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->noload_decls()) {
    clang::SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (Loc.isValid() && (SM.isInMainFile(Loc) || Selects(IsHeaderReported, SM.getFilename(Loc)) ||
                          Selects(IsHeaderShown, SM.getFilename(Loc))))
      Scope.push_back(D);
  }
  Ctx.setTraversalScope(Scope);
  attachFixes(Ctx, A, Rules);
  Ctx.setTraversalScope({Ctx.getTranslationUnitDecl()});
  if (!IsHeaderShown)
    return;
  // A header shown for its region code but not selected by the filter is not --fix's to edit.
  const std::string MainFile =
      SM.getFileEntryRefForID(SM.getMainFileID()) ? SM.getFileEntryRefForID(SM.getMainFileID())->getName().str() : "";
  for (Finding &F : A.Findings) {
    if (!F.Fix)
      continue;
    auto Outside = llvm::find_if(F.Fix->Replacements, [&](const Replacement &R) {
      return R.File != MainFile && !Selects(IsHeaderReported, R.File);
    });
    if (Outside == F.Fix->Replacements.end())
      continue;
    F.NoFixReason = "the rewrite '" + F.Fix->RuleName + "' (" + F.Fix->Explanation + ") would edit '" +
                    llvm::sys::path::filename(Outside->File).str() +
                    "', which --header-filter does not select: select it to have --fix apply the rewrite";
    F.Fix.reset();
  }
}

/// Hands the memory of a freed AST back to the system. glibc keeps freed blocks in the arena of
/// the thread that used them, and every parse runs on a thread of its own: without a trim, the
/// resident size would grow with the number of units parsed, not with the largest one.
static void returnFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

// A large stack because Clang accepts expressions thousands of operators deep (`x + x + ... +
// x`) and the analysis walks them recursively; the default 8 MiB of a thread would overflow where
// the compiler did not. The reservation is virtual: only the pages a deep expression touches are
// used.
void runOnLargeStack(llvm::function_ref<void()> Work) {
  constexpr unsigned StackBytes = 1024u << 20; // 1 GiB
  llvm::thread Worker(std::optional<unsigned>(StackBytes), [&] { Work(); });
  Worker.join();
}

static ParseOutcome parseOnLargeStack(const ParseRequest &Req,
                                      llvm::function_ref<void(clang::ASTContext &)> OnAST) {
  ParseOutcome Out;
  runOnLargeStack([&] { Out = parseTranslationUnit(Req, OnAST); });
  return Out;
}

/// The project's files a parse read, with their content digests: the main file (its in-memory
/// content when it has one) and every file under the project root. Files under the shared PCH's
/// directory are left out, so the list is the same whether a PCH was used or not (the PCH's
/// validation reads the project headers it holds, a plain parse includes them).
static std::map<std::string, std::string> projectSourceFiles(const LintUnit &U, const std::vector<FileRead> &Read,
                                                             ProjectFiles &Project) {
  const std::string Main = absoluteIn(U.File, U.WorkingDir);
  const std::string PchDir = U.Pch.empty() ? std::string() : absoluteIn(llvm::sys::path::parent_path(U.Pch), "");
  std::set<std::string> Paths = {Main};
  for (const FileRead &F : Read) {
    std::string Abs = absoluteIn(F.Path, U.WorkingDir);
    if (!PchDir.empty() && llvm::StringRef(Abs).starts_with(PchDir + "/"))
      continue;
    if (Project.contains(Abs))
      Paths.insert(std::move(Abs));
  }
  std::map<std::string, std::string> Files;
  for (const std::string &P : Paths) {
    if (P == Main && U.Content) {
      Files[P] = contentDigest(*U.Content);
      continue;
    }
    auto B = llvm::MemoryBuffer::getFile(P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    Files[P] = B ? contentDigest((*B)->getBuffer()) : std::string("unreadable");
  }
  return Files;
}

LintUnitResult lintTranslationUnit(const LintUnit &U) {
  const std::string Cwd = currentDirectory();
  const std::string MainFile = reportedPath(U.File, U.WorkingDir, Cwd);
  LintUnitResult R;
  std::vector<std::string> GraphRegions;
  const LintConfig &Config = U.Config;
  GlobList Enabled(Config.Checks);
  GlobList AsErrors(Config.WarningsAsErrors);
  std::optional<llvm::Regex> HeaderFilter;
  if (!Config.HeaderFilterRegex.empty())
    HeaderFilter.emplace(Config.HeaderFilterRegex);
  // Asked for every located node and finding; the answer (a file-system query in sameFile) is
  // remembered per spelling of the path.
  llvm::StringMap<bool> ReportedFiles;
  std::function<bool(llvm::StringRef)> IsFileReported = [&](llvm::StringRef File) {
    auto [It, New] = ReportedFiles.try_emplace(File, false);
    if (New) {
      std::string Reported = reportedPath(File, U.WorkingDir, Cwd);
      It->second = sameFile(Reported, MainFile) || (HeaderFilter && HeaderFilter->match(Reported));
    }
    return It->second;
  };
  ProjectFiles Project(U.ProjectRoot.empty() ? repositoryRoot(parentDirectory(absoluteIn(U.File, U.WorkingDir))) : U.ProjectRoot,
                       U.WorkingDir);
  std::function<bool(llvm::StringRef)> IsFileAnalysed = [&](llvm::StringRef File) {
    return Project.contains(File) || IsFileReported(File);
  };

  // Under --scope=graph every finding is region code: in a project header, it is a blocker of a
  // region the user named (a helper the region calls), so it is shown, with its advice, whatever
  // --header-filter says; the filter still decides which headers --fix may edit.
  const bool RegionCodeShown = Config.ScopeKind == Scope::Graph;
  std::function<bool(llvm::StringRef)> IsRegionHeader = [&](llvm::StringRef File) { return Project.contains(File); };

  std::vector<Finding> Raw;
  std::map<std::string, std::string> Texts; // of the files Raw points into, by analysed path
  std::string MainText;                     // the main file's, for its NOLINT regions
  // GRAPHIFY_LINT_TIMING=1 prints the CPU time of the analysis and of the fix search per file,
  // to tell apart what the tool adds to the parse (see bench/lint_speed).
  static const bool Timing = llvm::sys::Process::GetEnv("GRAPHIFY_LINT_TIMING").has_value();
  auto ConfigFor = [&](clang::ASTContext &Ctx) {
    GraphRegions = Config.GraphRegions;
    if (U.BeforeAnalysis)
      U.BeforeAnalysis(Ctx, GraphRegions);
    AnalysisConfig AC;
    AC.Rules = U.Rules;
    AC.ProfileKind = Config.ProfileKind;
    AC.ScopeKind = Config.ScopeKind;
    AC.GraphRegionGlobs = GraphRegions;
    AC.StaticBounds = Config.StaticBounds;
    AC.IsCheckEnabled = [&Enabled](llvm::StringRef Id) { return Enabled.contains(Id); };
    AC.IsFileReported = IsFileReported;
    AC.IsFileAnalysed = IsFileAnalysed;
    return AC;
  };

  ParseRequest Req;
  Req.CommandLine = U.CommandLine;
  Req.WorkingDir = U.WorkingDir;
  Req.File = U.File;
  Req.Content = U.Content;
  Req.IncludePch = U.Pch;
  Req.ColorDiagnostics = U.ColorDiagnostics;
  const bool BySummaries = U.ExportFacts || U.Imported;
  Req.RecordFilesRead = U.RecordFilesRead || BySummaries;

  // Whole-program rounds without keeping the AST: each round parses, analyses, exports and frees
  // it; the checks below parse once more. A unit that does not parse exports nothing (the final
  // parse reports its errors).
  const ProgramFacts *Settled = nullptr;
  if (U.Program && U.ReparseEachRound)
    Settled = U.Program->settle(U.ProgramIndex, [&](const ProgramFacts *Now) {
      UnitFacts Mine;
      ParseRequest Round = Req;
      Round.RecordFilesRead = false;
      auto OnRoundAST = [&](clang::ASTContext &Ctx) {
        AnalysisConfig AC = ConfigFor(Ctx);
        AnalysedScope Narrow(Ctx, IsFileAnalysed);
        Mine = UnitAnalysis(Ctx, AC).analyze(Now);
      };
      if (!parseOnLargeStack(Round, OnRoundAST).Parsed && !Round.IncludePch.empty()) {
        Round.IncludePch.clear();
        parseOnLargeStack(Round, OnRoundAST);
      }
      returnFreedMemory();
      return Mine;
    });

  auto OnAST = [&](clang::ASTContext &Ctx) {
    AnalysisConfig AC = ConfigFor(Ctx);
    llvm::TimeRecord Start = Timing ? llvm::TimeRecord::getCurrentTime(true) : llvm::TimeRecord();
    AnalysisResult A = [&] {
      AnalysedScope Narrow(Ctx, IsFileAnalysed);
      return analyze(Ctx, AC, U, Settled, R.Exported);
    }();
    llvm::TimeRecord Analysed = Timing ? llvm::TimeRecord::getCurrentTime(true) : llvm::TimeRecord();
    if (U.Rules && !A.Findings.empty())
      attachFixesInReportedFiles(Ctx, A, *U.Rules, HeaderFilter ? &IsFileReported : nullptr,
                                 RegionCodeShown ? &IsRegionHeader : nullptr);
    if (Timing) {
      llvm::TimeRecord Fixed = llvm::TimeRecord::getCurrentTime(false);
      llvm::errs() << llvm::formatv("graphify-lint: timing: {0}: analysis {1:f2} s, fixes {2:f2} s (CPU)\n",
                                    U.File, Analysed.getProcessTime() - Start.getProcessTime(),
                                    Fixed.getProcessTime() - Analysed.getProcessTime());
    }
    Raw = std::move(A.Findings);
    Texts = textsOf(Ctx.getSourceManager(), Raw);
    MainText = Ctx.getSourceManager().getBufferData(Ctx.getSourceManager().getMainFileID()).str();
    R.MatchedRegionGlobs = std::move(A.MatchedRegionGlobs);
    R.RegionGlobs = GraphRegions;
    R.MatchedStaticBounds = std::move(A.MatchedStaticBounds);
    R.AnnotationProblems = std::move(A.AnnotationProblems);
    R.UncheckedCode = std::move(A.UncheckedCode);
    R.StaticBoundKeys.clear();
    for (const StaticBound &B : Config.StaticBounds)
      R.StaticBoundKeys.push_back(B.Function + "::" + B.Name);
  };

  ParseOutcome Out = parseOnLargeStack(Req, OnAST);
  if (!Out.Parsed && !U.Pch.empty()) {
    // Whatever went wrong, the user must see the compiler's verdict on their file as written,
    // not on file + PCH: parse again without it.
    Raw.clear();
    Req.IncludePch.clear();
    std::vector<FileRead> ReadWithPch = std::move(Out.FilesRead);
    Out = parseOnLargeStack(Req, OnAST);
    Out.FilesRead.insert(Out.FilesRead.end(), ReadWithPch.begin(), ReadWithPch.end());
    R.PchRejected = Out.Parsed;
  }
  if (U.ReparseEachRound)
    returnFreedMemory(); // the checks' AST is gone too; other units' parses come next
  if (BySummaries && Out.Parsed)
    R.SourceFiles = projectSourceFiles(U, Out.FilesRead, Project);
  R.FilesRead = std::move(Out.FilesRead);
  R.Parsed = Out.Parsed;
  R.ErrorCount = Out.Errors;
  if (!Out.Parsed) {
    R.CompilerErrors = std::move(Out.Diagnostics);
    return R;
  }

  nameFilesAsReported(Raw, U.WorkingDir, Cwd);
  std::map<std::string, std::string> Reported;
  for (auto &[File, Text] : Texts)
    Reported.emplace(reportedPath(File, U.WorkingDir, Cwd), std::move(Text));
  Reported[MainFile] = std::move(MainText);
  NolintCache Nolint(Reported);
  std::vector<Finding> Kept;
  for (Finding &F : Raw) { // in source order, of enabled checks only (the analysis's)
    const NolintMap *N = Nolint.forFile(F.Where.File);
    bool Silenced = N && N->suppresses(F.Where.Line, F.CheckId);
    if (!IsFileReported(F.Where.File) && !(RegionCodeShown && Project.contains(F.Where.File))) {
      if (!Silenced)
        R.HiddenInHeaders.push_back(std::move(F));
      continue;
    }
    if (Silenced) {
      ++R.Suppressed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  // Malformed NOLINT regions in the main file are reported whatever the check filter says, as
  // clang-tidy does: they silently change what every other check reports. Each goes in at its
  // place in the main file's findings, which stay in the analysis's order.
  auto Key = [](const Finding &F) {
    return std::tie(F.Where.File, F.Where.Line, F.Where.Column, F.CheckId, F.Message);
  };
  if (const NolintMap *N = Nolint.forFile(MainFile))
    for (const Finding &Problem : N->problems()) {
      auto At = std::find_if(Kept.begin(), Kept.end(), [&](const Finding &F) { return Key(F) > Key(Problem); });
      Kept.insert(At, Problem);
    }
  auto Keep = [&](const std::string &File) {
    if (auto Text = Reported.find(File); Text != Reported.end() && !R.SourceTexts.count(File))
      R.SourceTexts.emplace(File, Text->second);
  };
  for (Finding &F : Kept) {
    forEachFileOf(F, Keep);
    Severity Level = AsErrors.contains(F.CheckId) ? Severity::Error : Severity::Warning;
    R.Findings.push_back({std::move(F), Level});
  }
  return R;
}

} // namespace graphify
