// Command-line parsing for graphify-lint. Invariant: every flag is declared once, in the table
// below, next to the LintOptions field it fills; parsing and --help both come from that table
// (FlagTable.h), so the two cannot drift.
#include "graphify/lint/Options.h"
#include "graphify/lint/FlagTable.h"
#include "graphify/analyzer/GraphRegions.h"
#include "graphify/lint/Config.h"
#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <functional>

namespace graphify {
namespace {

llvm::Error usageError(const llvm::Twine &Message) { return flagUsageError(Message); }

using LintFlag = Flag<LintOptions>;

template <typename Enum>
llvm::Error parseEnum(llvm::StringRef Flag, llvm::StringRef Value,
                      std::initializer_list<std::pair<const char *, Enum>> Choices, Enum &Out) {
  std::vector<std::string> Names;
  for (const auto &[Name, E] : Choices) {
    if (Value == Name) {
      Out = E;
      return llvm::Error::success();
    }
    Names.push_back(Name);
  }
  return usageError(llvm::formatv("invalid value '{0}' for --{1} (expected {2}){3}", Value, Flag,
                                  llvm::join(Names, "|"), didYouMean(Value, Names)));
}

llvm::Error ok() { return llvm::Error::success(); }

const std::vector<LintFlag> &flagTable() {
  static const std::vector<LintFlag> Table = {
      {"p", "build-dir", "directory containing compile_commands.json",
       [](LintOptions &O, llvm::StringRef V) { O.BuildPath = V.str(); return ok(); }},
      {"j", "N", "translation units to parse in parallel (0: one per core; output order is unchanged)",
       [](LintOptions &O, llvm::StringRef V) {
         if (V.getAsInteger(10, O.Jobs))
           return usageError("-j expects a number, got '" + V + "'");
         // Each job holds a whole translation unit's AST; more jobs than that are a typo.
         if (O.Jobs > LintOptions::kMaxJobs)
           return usageError("-j " + V + " is more than " + std::to_string(LintOptions::kMaxJobs) + " parallel jobs");
         return ok();
       }},
      {"checks", "globs", "comma-separated check globs, '-' negates, last match wins (e.g. -*,graphify-host-sync)",
       [](LintOptions &O, llvm::StringRef V) {
         if (std::string Problem = checkGlobProblem(V); !Problem.empty())
           return usageError(Problem + " in --checks");
         O.Checks = V.str();
         return ok();
       }},
      {"profile", "cuda-graph|trace", "what to report: everything that blocks CUDA-graph capture, or only what changes traced results",
       [](LintOptions &O, llvm::StringRef V) {
         if (V != "cuda-graph" && V != "trace")
           return usageError(llvm::formatv("invalid value '{0}' for --profile (expected cuda-graph|trace){1}", V,
                                           didYouMean(V, {"cuda-graph", "trace"})));
         O.Profile = V.str();
         return ok();
       }},
      {"scope", "graph|all", "check only graph regions (default) or every function",
       [](LintOptions &O, llvm::StringRef V) {
         if (V != "graph" && V != "all")
           return usageError(llvm::formatv("invalid value '{0}' for --scope (expected graph|all){1}", V,
                                           didYouMean(V, {"graph", "all"})));
         O.Scope = V.str();
         return ok();
       }},
      {"graph-region", "glob", "a function (qualified-name glob, e.g. Engine::step*) that is a graph region (repeatable)",
       [](LintOptions &O, llvm::StringRef V) {
         if (std::string Problem = GraphRegionFinder::globProblem(V); !Problem.empty())
           return usageError("invalid --graph-region glob '" + V + "': " + Problem);
         O.GraphRegions.push_back(V.str());
         return ok();
       }},
      {"config", "yaml|file", "configuration as YAML text or a file; disables .graphify.yaml discovery",
       [](LintOptions &O, llvm::StringRef V) { O.Config = V.str(); return ok(); }},
      {"rules", "file", "an extra rule pack (repeatable)",
       [](LintOptions &O, llvm::StringRef V) { O.RuleFiles.push_back(V.str()); return ok(); }},
      {"extra-arg", "arg", "an argument appended to every compiler command line (repeatable, as clang-tidy's)",
       [](LintOptions &O, llvm::StringRef V) { O.ExtraArgs.push_back(V.str()); return ok(); }},
      {"extra-arg-before", "arg", "an argument prepended to every compiler command line (repeatable, as clang-tidy's)",
       [](LintOptions &O, llvm::StringRef V) { O.ExtraArgsBefore.push_back(V.str()); return ok(); }},
      {"rules-dir", "dir", "directory with tags.yaml and the shipped rule packs",
       [](LintOptions &O, llvm::StringRef V) { O.RulesDir = V.str(); return ok(); }},
      {"warnings-as-errors", "globs", "report findings of these checks as errors",
       [](LintOptions &O, llvm::StringRef V) {
         if (std::string Problem = checkGlobProblem(V); !Problem.empty())
           return usageError(Problem + " in --warnings-as-errors");
         O.WarningsAsErrors = V.str();
         return ok();
       }},
      {"header-filter", "regex", "also report findings in headers whose path matches",
       [](LintOptions &O, llvm::StringRef V) { O.HeaderFilter = V.str(); return ok(); }},
      {"format", "text|json|sarif|github", "output format",
       [](LintOptions &O, llvm::StringRef V) {
         return parseEnum<OutputFormat>("format", V,
                                        {{"text", OutputFormat::Text},
                                         {"json", OutputFormat::Json},
                                         {"sarif", OutputFormat::Sarif},
                                         {"github", OutputFormat::Github}},
                                        O.Format);
       }},
      {"color", "auto|always|never", "colored text output (auto: when stdout is a terminal)",
       [](LintOptions &O, llvm::StringRef V) {
         return parseEnum<ColorMode>(
             "color", V, {{"auto", ColorMode::Auto}, {"always", ColorMode::Always}, {"never", ColorMode::Never}},
             O.Color);
       }},
      {"list-checks", nullptr, "list the checks (marking the enabled ones) and the loaded rule packs",
       [](LintOptions &O, llvm::StringRef) { O.ListChecks = true; return ok(); }},
      {"explain", "check-id", "explain what a check finds and how to fix it",
       [](LintOptions &O, llvm::StringRef V) { O.Explain = V.str(); return ok(); }},
      {"dump-config", nullptr, "print the effective configuration as YAML",
       [](LintOptions &O, llvm::StringRef) { O.DumpConfig = true; return ok(); }},
      {"fix", nullptr, "apply the fixes in place (only if the result still compiles)",
       [](LintOptions &O, llvm::StringRef) { O.Fix = true; return ok(); }},
      {"diff", nullptr, "print the fixes as a unified diff on stdout (the findings go to stderr)",
       [](LintOptions &O, llvm::StringRef) { O.Diff = true; return ok(); }},
      {"export-fixes", "file", "write the fixes as clang-apply-replacements YAML",
       [](LintOptions &O, llvm::StringRef V) { O.ExportFixes = V.str(); return ok(); }},
      {"resource-dir", "dir", "Clang's resource directory (default: $GRAPHIFY_RESOURCE_DIR, else the one baked at build time)",
       [](LintOptions &O, llvm::StringRef V) { O.ResourceDir = V.str(); return ok(); }},
      {"pch", "auto|off", "share one precompiled header between files with the same leading #includes",
       [](LintOptions &O, llvm::StringRef V) {
         return parseEnum<PchMode>("pch", V, {{"auto", PchMode::Auto}, {"off", PchMode::Off}}, O.Pch);
       }},
      {"whole-program", "auto|off",
       "auto: with several translation units, summaries and graph regions cross files (by USR); off: each file alone",
       [](LintOptions &O, llvm::StringRef V) {
         return parseEnum<WholeProgramMode>("whole-program", V,
                                            {{"auto", WholeProgramMode::Auto}, {"off", WholeProgramMode::Off}},
                                            O.WholeProgram);
       }},
      {"emit-summary", "file",
       "whole-program mode by summaries (docs/ci.md): write the translation unit's summary to <file> "
       "(one unit); extraction checks nothing and reports no finding",
       [](LintOptions &O, llvm::StringRef V) { O.EmitSummary = V.str(); return ok(); }},
      {"emit-summaries", "dir",
       "as --emit-summary, for every unit, into a memo of analyses kept between runs: a unit that has a "
       "summary there still of its sources and analysed with the facts at hand (none, or --program-summary's) "
       "is not parsed; a run over the whole build (no files named) removes the summaries of other units",
       [](LintOptions &O, llvm::StringRef V) { O.EmitSummaries = V.str(); return ok(); }},
      {"program-summary", "file",
       "import the facts of a program summary (graphify-link's output) instead of analysing the other units; "
       "with a settled one, the findings are those of whole-program mode",
       [](LintOptions &O, llvm::StringRef V) { O.ProgramSummary = V.str(); return ok(); }},
      {"project-root", "dir",
       "the directory whose headers are analysed as the project's (default: the deepest directory holding "
       "every input file; a file's own directory for one file)",
       [](LintOptions &O, llvm::StringRef V) { O.ProjectRoot = V.str(); return ok(); }},
      {"depfile", "file",
       "with summaries (--emit-summary, --emit-summaries, --program-summary): write what the run's result "
       "depends on as a Make rule, for a build system (Ninja's depfile): the configuration files, rule packs "
       "and program summary it used and, for an extraction, each unit's main file and the project files it "
       "read (a check's program summary records their digests)",
       [](LintOptions &O, llvm::StringRef V) { O.Depfile = V.str(); return ok(); }},
      {"depfile-target", "path",
       "the target of --depfile's rule (default: --emit-summary's file); the build system's output",
       [](LintOptions &O, llvm::StringRef V) { O.DepfileTarget = V.str(); return ok(); }},
      {"pch-cache-dir", "dir", "where shared PCHs are kept (default: $XDG_CACHE_HOME/graphify/pch)",
       [](LintOptions &O, llvm::StringRef V) { O.PchCacheDir = V.str(); return ok(); }},
      {"exit-zero-on-warnings", nullptr,
       "exit 0 when every finding is a warning, as clang-tidy does (CMake's CXX_CLANG_TIDY fails the build "
       "on any other status); findings reported as errors still exit 1",
       [](LintOptions &O, llvm::StringRef) { O.ExitZeroOnWarnings = true; return ok(); }},
      {"quiet", nullptr, "no summary lines on stderr",
       [](LintOptions &O, llvm::StringRef) { O.Quiet = true; return ok(); }},
      {"version", nullptr, "print versions, the resource directory and the rules directory",
       [](LintOptions &O, llvm::StringRef) { O.Version = true; return ok(); }},
      {"help", nullptr, "print this help",
       [](LintOptions &O, llvm::StringRef) { O.Help = true; return ok(); }},
  };
  return Table;
}

} // namespace

llvm::Expected<LintOptions> parseLintOptions(llvm::ArrayRef<const char *> Argv) {
  LintOptions O;
  llvm::Error E = parseFlags<LintOptions>(
      Argv, flagTable(), O, [](LintOptions &O, llvm::StringRef File) { O.Files.push_back(File.str()); },
      [](LintOptions &O, llvm::ArrayRef<const char *> Args) {
        O.HasCompilerArgs = true;
        O.CompilerArgs.assign(Args.begin(), Args.end());
      });
  if (E)
    return std::move(E);
  return O;
}

std::string lintHelpText() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "OVERVIEW: graphify-lint finds what stops eager LibTorch-style C++ from being traced into a\n"
        "static graph or captured into a CUDA graph.\n\n"
        "USAGE: graphify-lint [options] <file>... [-- <compiler args>]\n\n"
        "Compile commands come from -p <build-dir> (compile_commands.json), else from the arguments\n"
        "after --, else from the nearest compile_commands.json above the first file, else -std=c++17.\n"
        "With -p and no files, every file of the database is linted. Relative files are relative to\n"
        "the current directory. .cu files (and nvcc commands) are parsed as CUDA host code.\n\n"
        "OPTIONS:\n"
     << flagHelp<LintOptions>(flagTable());
  OS << "\nCONFIGURATION: the nearest .graphify.yaml above each file (or --config), keys Checks, Profile,\n"
        "Scope, GraphRegions, RulePacks, WarningsAsErrors, HeaderFilterRegex; flags override it.\n"
        "SUPPRESSION: // NOLINT, // NOLINT(check-glob,...), // NOLINTNEXTLINE(...), // NOLINTBEGIN(...) ... // NOLINTEND(...)\n"
        "ENVIRONMENT: GRAPHIFY_RESOURCE_DIR (Clang resource dir), GRAPHIFY_RULES_DIR (rule packs),\n"
        "XDG_CACHE_HOME (shared PCH cache), GRAPHIFY_LINT_TIMING=1 (CPU time of analysis and fixes per file).\n"
        "EXIT STATUS: 0 no findings, 1 findings (with --exit-zero-on-warnings: findings reported as errors),\n"
        "2 usage, configuration, rules or compile errors.\n";
  return S;
}

} // namespace graphify
