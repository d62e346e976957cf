#pragma once
/// \file
/// The command line of graphify-lint, as one struct with one comment per flag, and the parser
/// that fills it. Parsing never exits the process: errors come back as llvm::Error so that only
/// `main` turns them into exit code 2.
///
/// \code
///   auto Opts = graphify::parseLintOptions({"graphify-lint", "-p", "build", "model.cpp"});
///   if (!Opts) { llvm::errs() << llvm::toString(Opts.takeError()); return 2; }
///   for (const std::string &File : Opts->Files) ...
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify {

enum class OutputFormat { Text, Json, Sarif, Github };
enum class ColorMode { Auto, Always, Never };
enum class PchMode { Auto, Off };
enum class WholeProgramMode { Auto, Off };

/// Every flag of graphify-lint. Optional fields are unset when the flag was not given, so that
/// a `.graphify.yaml` value is only overridden by a flag the user actually wrote.
struct LintOptions {
  std::vector<std::string> Files;        ///< <file>...: sources to lint (all of -p's when empty)
  bool HasCompilerArgs = false;          ///< `--` was given: use ExtraArgs for every file
  std::vector<std::string> CompilerArgs; ///< -- <args>: compiler arguments after `--`
  std::vector<std::string> ExtraArgsBefore; ///< --extra-arg-before=<arg>: prepended to every command (repeatable)
  std::vector<std::string> ExtraArgs;    ///< --extra-arg=<arg>: appended to every command (repeatable)
  std::string BuildPath;                 ///< -p <dir>: directory holding compile_commands.json
  unsigned Jobs = 1;                     ///< -j <N>: translation units parsed in parallel (0: all cores)
  static constexpr unsigned kMaxJobs = 256; ///< beyond this, -j is refused
  std::optional<std::string> Checks;     ///< --checks=<globs>: comma list, `-` negates, last match wins
  std::optional<std::string> Profile;    ///< --profile=cuda-graph|trace
  std::optional<std::string> Scope;      ///< --scope=graph|all
  std::vector<std::string> GraphRegions; ///< --graph-region=<glob>: more graph regions (repeatable)
  std::optional<std::string> Config;     ///< --config=<yaml or file>: replaces .graphify.yaml discovery
  std::vector<std::string> RuleFiles;    ///< --rules=<file>: extra rule packs (repeatable)
  std::string RulesDir;                  ///< --rules-dir=<dir>: where tags.yaml and the shipped packs are
  std::optional<std::string> WarningsAsErrors; ///< --warnings-as-errors=<globs>: report these as errors
  std::optional<std::string> HeaderFilter;     ///< --header-filter=<regex>: also report in these headers
  OutputFormat Format = OutputFormat::Text;    ///< --format=text|json|sarif|github
  ColorMode Color = ColorMode::Auto;     ///< --color=auto|always|never: auto means "stdout is a terminal"
  bool ListChecks = false;               ///< --list-checks: print the checks and the loaded rule packs
  std::string Explain;                   ///< --explain=<check-id>: print what a check finds and how to fix it
  bool DumpConfig = false;               ///< --dump-config: print the effective configuration as YAML
  bool Version = false;                  ///< --version: versions, resource and rules directories
  bool Help = false;                     ///< --help
  bool Fix = false;                      ///< --fix: apply non-conflicting fixes in place
  bool Diff = false;                     ///< --diff: print the fixes as a unified diff
  std::string ExportFixes;               ///< --export-fixes=<file>: clang-apply-replacements YAML
  std::string ResourceDir;               ///< --resource-dir=<dir>: Clang builtin headers (else $GRAPHIFY_RESOURCE_DIR, else baked)
  bool Quiet = false;                    ///< --quiet: no summary lines on stderr
  bool ExitZeroOnWarnings = false;       ///< --exit-zero-on-warnings: exit 1 only for findings reported as errors
  PchMode Pch = PchMode::Auto;           ///< --pch=auto|off: share a precompiled prefix between files
  WholeProgramMode WholeProgram = WholeProgramMode::Auto; ///< --whole-program=auto|off: facts cross translation units
  std::string EmitSummary;               ///< --emit-summary=<file>: write the unit's summary (one unit)
  std::string EmitSummaries;             ///< --emit-summaries=<dir>: write every unit's summary there
  std::string ProgramSummary;            ///< --program-summary=<file>: import a linked program's facts
  std::string ProjectRoot;               ///< --project-root=<dir>: whose headers are the project's
  std::string Depfile;                   ///< --depfile=<file>: what the run read, as a Make rule
  std::string DepfileTarget;             ///< --depfile-target=<path>: the rule's target
  std::string PchCacheDir;               ///< --pch-cache-dir=<dir>: where shared PCHs live (else $XDG_CACHE_HOME/graphify)
};

/// Parses `Argv` (Argv[0] is the program name). Unknown flags, missing values and bad enum
/// values are errors with a "did you mean" where one flag is close.
llvm::Expected<LintOptions> parseLintOptions(llvm::ArrayRef<const char *> Argv);

/// The --help text.
std::string lintHelpText();

} // namespace graphify
