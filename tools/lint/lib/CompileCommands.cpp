// The Clang driver plumbing. Invariant: every parse goes through parseTranslationUnit, which
// always passes -resource-dir (so <cstddef> and intrinsics resolve from any install prefix),
// never writes an output file, and hands the AST on only when the compiler reported no error, so
// no finding is ever printed for a file that does not compile.
#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/CudaCommand.h"
#include "graphify/lint/ReportedPaths.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace graphify {
namespace {

llvm::Error error(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message.str());
}

// Prints errors (and the notes that follow them) as clang does, and drops warnings and remarks:
// the compiler's own warnings are not graphify findings, and a clean compile stays silent.
class ErrorPrinter : public clang::TextDiagnosticPrinter {
public:
  using TextDiagnosticPrinter::TextDiagnosticPrinter;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    if (Level == clang::DiagnosticsEngine::Note) {
      if (ShowingError)
        TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
      return;
    }
    ShowingError = Level >= clang::DiagnosticsEngine::Error;
    if (ShowingError)
      TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
    else
      DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }

private:
  bool ShowingError = false;
};

class CallbackConsumer : public clang::ASTConsumer {
public:
  CallbackConsumer(llvm::function_ref<void(clang::ASTContext &)> OnAST, bool &Ran) : OnAST(OnAST), Ran(Ran) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    // Sema recovers from errors and still builds an AST; analysing it would report findings on
    // code the user cannot compile, so we stop here.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    OnAST(Ctx);
    Ran = true;
  }

private:
  llvm::function_ref<void(clang::ASTContext &)> OnAST;
  bool &Ran;
};

class CallbackAction : public clang::ASTFrontendAction {
public:
  CallbackAction(llvm::function_ref<void(clang::ASTContext &)> OnAST, bool &Ran) : OnAST(OnAST), Ran(Ran) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<CallbackConsumer>(OnAST, Ran);
  }

private:
  llvm::function_ref<void(clang::ASTContext &)> OnAST;
  bool &Ran;
};

// A physical file system whose working directory is the compile command's, without touching the
// process's (several translation units are parsed at once).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemFor(llvm::StringRef WorkingDir, llvm::StringRef File,
                                                                const std::optional<std::string> &Content) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical = llvm::vfs::createPhysicalFileSystem();
  if (!WorkingDir.empty())
    Physical->setCurrentWorkingDirectory(WorkingDir);
  if (!Content)
    return Physical;
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  llvm::SmallString<256> Abs(File);
  Physical->makeAbsolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  Memory->addFile(Abs, 0, llvm::MemoryBuffer::getMemBufferCopy(*Content, Abs));
  Overlay->pushOverlay(Memory);
  if (!WorkingDir.empty())
    Overlay->setCurrentWorkingDirectory(WorkingDir);
  return Overlay;
}

bool runInvocation(const std::vector<std::string> &CommandLine, llvm::StringRef WorkingDir,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS, std::unique_ptr<clang::FrontendAction> Action,
                   clang::DiagnosticConsumer &Diags, std::vector<FileRead> *FilesRead = nullptr) {
  clang::FileSystemOptions FSOpts;
  FSOpts.WorkingDir = WorkingDir.str();
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(new clang::FileManager(FSOpts, std::move(FS)));
  clang::tooling::ToolInvocation Invocation(CommandLine, std::move(Action), Files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Diags);
  bool Ok = Invocation.run();
  if (FilesRead) {
    // Every file the file manager resolved: what the preprocessor included and what a PCH's
    // validation looked at, so a header reached only through the PCH counts too.
    llvm::SmallVector<clang::OptionalFileEntryRef, 0> Seen;
    Files->GetUniqueIDMapping(Seen);
    for (clang::OptionalFileEntryRef F : Seen)
      if (F)
        FilesRead->push_back({F->getName().str(), F->getUniqueID()});
  }
  return Ok;
}

} // namespace

/// The database of `--` arguments. A whole compile command (its first argument is not a flag: the
/// compiler) loses its compiler and its inputs, as clang-tidy's loadFromCommandLine strips them.
static llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
fixedDatabase(llvm::ArrayRef<std::string> CompilerArgs) {
  using clang::tooling::FixedCompilationDatabase;
  if (CompilerArgs.empty() || llvm::StringRef(CompilerArgs.front()).starts_with("-"))
    return std::unique_ptr<clang::tooling::CompilationDatabase>(
        std::make_unique<FixedCompilationDatabase>(currentDirectory(), CompilerArgs));
  std::vector<const char *> Argv = {"graphify-lint", "--"};
  for (const std::string &A : CompilerArgs)
    Argv.push_back(A.c_str());
  int Argc = int(Argv.size());
  std::string Message;
  auto DB = FixedCompilationDatabase::loadFromCommandLine(Argc, Argv.data(), Message, currentDirectory());
  if (!DB)
    return error("error: cannot read the compile command after '--': " + Message);
  return std::unique_ptr<clang::tooling::CompilationDatabase>(std::move(DB));
}

static llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadDatabase(llvm::StringRef BuildPath, bool HasCompilerArgs, llvm::ArrayRef<std::string> CompilerArgs,
             llvm::ArrayRef<std::string> Files, std::string &Notice) {
  using clang::tooling::CompilationDatabase;
  using clang::tooling::FixedCompilationDatabase;
  std::string Message;
  if (!BuildPath.empty()) {
    auto DB = CompilationDatabase::loadFromDirectory(BuildPath, Message);
    if (!DB)
      return error("error: cannot load a compilation database from '" + BuildPath + "': " + Message);
    // Headers and new files are missing from compile_commands.json; borrow the closest entry's
    // flags rather than parsing them with none.
    return clang::tooling::inferMissingCompileCommands(std::move(DB));
  }
  if (HasCompilerArgs)
    return fixedDatabase(CompilerArgs);
  if (!Files.empty()) {
    if (auto DB = CompilationDatabase::autoDetectFromSource(Files.front(), Message)) {
      Notice = "using the compilation database found above '" + Files.front() + "'";
      return clang::tooling::inferMissingCompileCommands(std::move(DB));
    }
  }
  Notice = "no compilation database (-p) or compiler arguments (--) given; assuming -std=c++17";
  return std::unique_ptr<CompilationDatabase>(
      std::make_unique<FixedCompilationDatabase>(currentDirectory(), std::vector<std::string>{"-std=c++17"}));
}

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildPath, bool HasCompilerArgs, llvm::ArrayRef<std::string> CompilerArgs,
                        llvm::ArrayRef<std::string> Files, std::string &Notice, llvm::ArrayRef<std::string> ExtraBefore,
                        llvm::ArrayRef<std::string> Extra) {
  using namespace clang::tooling;
  auto DB = loadDatabase(BuildPath, HasCompilerArgs, CompilerArgs, Files, Notice);
  if (!DB || (ExtraBefore.empty() && Extra.empty()))
    return DB;
  auto Adjusted = std::make_unique<ArgumentsAdjustingCompilations>(std::move(*DB));
  Adjusted->appendArgumentsAdjuster(getInsertArgumentAdjuster(ExtraBefore, ArgumentInsertPosition::BEGIN));
  Adjusted->appendArgumentsAdjuster(getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::END));
  return std::unique_ptr<CompilationDatabase>(std::move(Adjusted));
}

std::vector<std::string> syntaxOnlyCommand(const clang::tooling::CompileCommand &Cmd, llvm::StringRef ResourceDir,
                                           std::vector<std::string> *Problems) {
  using namespace clang::tooling;
  std::vector<std::string> Args = cudaHostSyntaxCommand(Cmd.CommandLine, Cmd.Filename, Cmd.Directory, Problems);
  Args = getClangStripOutputAdjuster()(Args, Cmd.Filename);
  Args = getClangStripDependencyFileAdjuster()(Args, Cmd.Filename);
  Args = getClangSyntaxOnlyAdjuster()(Args, Cmd.Filename);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-resource-dir") {
      ++I;
      continue;
    }
    if (A.starts_with("-resource-dir="))
      continue;
    Out.push_back(Args[I]);
    if (I == 0) {
      if (!ResourceDir.empty())
        Out.push_back(("-resource-dir=" + ResourceDir).str());
      // CompilerInstance prints "N errors generated." straight to stderr unless carets are off;
      // we render diagnostics with our own options and print that line ourselves, in order.
      Out.push_back("-fno-caret-diagnostics");
    }
  }
  return Out;
}

ParseOutcome parseTranslationUnit(const ParseRequest &Request, llvm::function_ref<void(clang::ASTContext &)> OnAST) {
  ParseOutcome Outcome;
  std::vector<std::string> CommandLine = Request.CommandLine;
  // With the content check, a header whose modification time changed but whose text did not
  // (a checkout, a touch) does not invalidate the PCH.
  if (!Request.IncludePch.empty() && !CommandLine.empty())
    CommandLine.insert(CommandLine.begin() + 1,
                       {"-include-pch", Request.IncludePch, "-Xclang", "-fvalidate-ast-input-files-content"});

  std::string Rendered;
  llvm::raw_string_ostream OS(Rendered);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = Request.ColorDiagnostics;
  ErrorPrinter Printer(OS, DiagOpts.get());

  bool Ran = false;
  bool Ok = runInvocation(CommandLine, Request.WorkingDir, fileSystemFor(Request.WorkingDir,
                                        Request.ContentFile.empty() ? Request.File : Request.ContentFile,
                                        Request.Content),
                          std::make_unique<CallbackAction>(OnAST, Ran), Printer,
                          Request.RecordFilesRead ? &Outcome.FilesRead : nullptr);
  OS.flush();
  Outcome.Errors = Printer.getNumErrors();
  Outcome.Parsed = Ok && Ran && Outcome.Errors == 0;
  Outcome.Diagnostics = std::move(Rendered);
  if (!Outcome.Parsed && Outcome.Diagnostics.empty())
    Outcome.Diagnostics = "error: cannot parse '" + Request.File + "'\n";
  return Outcome;
}

llvm::Error buildPch(const std::vector<std::string> &CommandLine, llvm::StringRef WorkingDir, llvm::StringRef HeaderFile,
                     llvm::StringRef OutputFile) {
  // Same flags as the translation units, minus their input and action, so that Clang accepts the
  // PCH for them (it checks language options, target and macros on load).
  std::vector<std::string> Args;
  for (size_t I = 0; I < CommandLine.size(); ++I) {
    llvm::StringRef A = CommandLine[I];
    if (A == "-fsyntax-only" || A == "-c")
      continue;
    Args.push_back(CommandLine[I]);
  }
  // Instantiating the header's pending templates once, into the PCH, is what makes it pay off:
  // otherwise every translation unit that loads it redoes them at its end (half of a
  // torch/torch.h parse). The instantiations are those the header needs anyway, so the main
  // file's AST is unchanged.
  // Content hashes of the inputs are stored so that a touched but unchanged header still passes
  // (a cc1 option: Clang 19's driver accepts the spelling without -Xclang but drops it).
  Args.insert(Args.end(), {"-fpch-instantiate-templates", "-Xclang", "-fvalidate-ast-input-files-content", "-x",
                           "c++-header", HeaderFile.str(), "-o", OutputFile.str()});

  std::string Rendered;
  llvm::raw_string_ostream OS(Rendered);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  ErrorPrinter Printer(OS, DiagOpts.get());
  bool Ok = runInvocation(Args, WorkingDir, fileSystemFor(WorkingDir, HeaderFile, std::nullopt),
                          std::make_unique<clang::GeneratePCHAction>(), Printer);
  OS.flush();
  if (!Ok || Printer.getNumErrors() != 0)
    return error("error: building a shared PCH failed:\n" + Rendered);
  return llvm::Error::success();
}

} // namespace graphify
