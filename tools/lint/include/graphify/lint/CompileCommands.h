#pragma once
/// \file
/// The Clang driver plumbing behind one function: turn a compile command into a syntax-only
/// parse that always names Clang's resource directory, run it (optionally on in-memory content or
/// with a shared PCH), render the compiler's own errors the way clang prints them, and hand the
/// AST to a callback only when the translation unit parsed without errors.
///
/// \code
///   graphify::ParseRequest R;
///   R.CommandLine = graphify::syntaxOnlyCommand(Cmd, ResourceDir);
///   R.WorkingDir = Cmd.Directory;
///   graphify::ParseOutcome Out = graphify::parseTranslationUnit(R, [&](clang::ASTContext &Ctx) {
///     Result = graphify::analyzeTranslationUnit(Ctx, Config);
///   });
///   if (!Out.Parsed) llvm::errs() << Out.Diagnostics;
/// \endcode

#include <clang/AST/ASTContext.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// Loads the compilation database: `-p` (with commands inferred for files it lacks), else `--`
/// arguments, else the nearest compile_commands.json above the first file, else `-std=c++17`.
/// `--` arguments may be flags alone (`-- -std=c++17 -Iinclude`) or a whole compile command, as
/// CMake's CXX_CLANG_TIDY passes it (`-- /usr/bin/c++ -Iinclude -o m.o -c m.cpp`): the compiler
/// and the input files are then dropped, as clang-tidy drops them. `ExtraBefore` and `Extra` go
/// before and after every command's arguments (clang-tidy's --extra-arg-before/--extra-arg).
/// `Notice` receives a one-line explanation when a fallback was taken.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildPath, bool HasCompilerArgs, llvm::ArrayRef<std::string> CompilerArgs,
                        llvm::ArrayRef<std::string> Files, std::string &Notice,
                        llvm::ArrayRef<std::string> ExtraBefore = {}, llvm::ArrayRef<std::string> Extra = {});

/// The command adjusted for linting: syntax-only, no outputs or dependency files,
/// `-resource-dir` set (replacing any given), and color off (we render diagnostics ourselves).
/// What an nvcc command held that could not be translated is appended to `Problems`.
std::vector<std::string> syntaxOnlyCommand(const clang::tooling::CompileCommand &Cmd, llvm::StringRef ResourceDir,
                                           std::vector<std::string> *Problems = nullptr);

struct ParseRequest {
  std::vector<std::string> CommandLine; ///< driver command line, argv[0] first, naming the file
  std::string WorkingDir;               ///< the compile command's directory
  std::string File;                     ///< the main file (as in CommandLine)
  std::optional<std::string> Content;   ///< parse with this text instead of ContentFile's on disk
  std::string ContentFile;              ///< the file Content replaces (empty: File)
  std::string IncludePch;               ///< a PCH to preload (-include-pch), or empty
  bool ColorDiagnostics = false;
  bool RecordFilesRead = false;         ///< fill ParseOutcome::FilesRead
};

/// A file the compiler opened or looked at: the main file, headers (also those a PCH holds).
struct FileRead {
  std::string Path;
  llvm::sys::fs::UniqueID ID;
};

struct ParseOutcome {
  bool Parsed = false;      ///< no errors (the callback ran)
  std::string Diagnostics;  ///< the compiler's errors (and their notes), rendered like clang's
  unsigned Errors = 0;
  std::vector<FileRead> FilesRead; ///< with RecordFilesRead, whether or not the parse succeeded
};

/// Parses one translation unit and runs `OnAST` on it if it has no errors. Thread-safe: each
/// call has its own file manager and a working directory that is not the process's.
ParseOutcome parseTranslationUnit(const ParseRequest &Request,
                                  llvm::function_ref<void(clang::ASTContext &)> OnAST);

/// Builds a PCH of `HeaderFile` into `OutputFile` with the flags of `CommandLine`, a syntax-only
/// command line (argv[0] first) from which the source file has been removed.
llvm::Error buildPch(const std::vector<std::string> &CommandLine, llvm::StringRef WorkingDir,
                     llvm::StringRef HeaderFile, llvm::StringRef OutputFile);

} // namespace graphify
