// nvcc's command line as Clang's. Invariant: every option of an nvcc command is either translated
// into the Clang flag with the same effect on the host parse, known to have none (compilation
// phases, code generation, device-only and linker options, output files), or reported back in
// Problems so that the driver warns: nothing that could change which code the host compiler sees
// disappears silently (a macro dropped that way hides the code under its #ifdef from every check).
#include "graphify/lint/NvccCommand.h"

#include <clang/Driver/Options.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

namespace graphify {
namespace {

/// What an nvcc option means for the host parse.
enum class Action {
  Ignore,        ///< none: phases, code generation, device and linker options, outputs
  Define,        ///< -D (a comma list, as nvcc splits it)
  Undefine,      ///< -U
  IncludePath,   ///< -I
  SystemInclude, ///< -isystem
  PreInclude,    ///< -include
  Std,           ///< --std c++17
  HostOptions,   ///< -Xcompiler a,b: flags for the host compiler
  OptionsFile,   ///< --options-file f,...: more nvcc options
  DefineMacro,   ///< a switch for which nvcc defines `Macro` for the host compiler
  DefaultStream, ///< per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM=1
  Rdc,           ///< true defines __CUDACC_RDC__
  NoExceptions,  ///< -noeh: the host compiler gets -fno-exceptions
  TemplateDepth, ///< -ftemplate-depth N
  ForwardUnknown ///< unknown options are host compiler options
};

struct NvccOption {
  const char *Long;  ///< without "--"
  const char *Short; ///< without "-"
  bool TakesValue;
  Action What;
  const char *Macro = nullptr; ///< for DefineMacro
};

// nvcc 13's options (`nvcc --help`), long and short spellings. Macros are those `nvcc --dryrun`
// shows on the host compiler's command line for each switch.
const NvccOption Options[] = {
    {"define-macro", "D", true, Action::Define},
    {"undefine-macro", "U", true, Action::Undefine},
    {"include-path", "I", true, Action::IncludePath},
    {"system-include", "isystem", true, Action::SystemInclude},
    {"pre-include", "include", true, Action::PreInclude},
    {"std", "std", true, Action::Std},
    {"compiler-options", "Xcompiler", true, Action::HostOptions},
    {"options-file", "optf", true, Action::OptionsFile},
    {"extended-lambda", "extended-lambda", false, Action::DefineMacro, "__CUDACC_EXTENDED_LAMBDA__"},
    {"expt-extended-lambda", "expt-extended-lambda", false, Action::DefineMacro, "__CUDACC_EXTENDED_LAMBDA__"},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, Action::DefineMacro, "__CUDACC_RELAXED_CONSTEXPR__"},
    {"device-debug", "G", false, Action::DefineMacro, "__CUDACC_DEBUG__"},
    {"device-c", "dc", false, Action::DefineMacro, "__CUDACC_RDC__"},
    {"extensible-whole-program", "ewp", false, Action::DefineMacro, "__CUDACC_EWP__"},
    {"default-stream", "default-stream", true, Action::DefaultStream},
    {"relocatable-device-code", "rdc", true, Action::Rdc},
    {"no-exceptions", "noeh", false, Action::NoExceptions},
    {"ftemplate-depth", "ftemplate-depth", true, Action::TemplateDepth},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", false, Action::ForwardUnknown},
    {"forward-unknown-opts", "forward-unknown-opts", false, Action::ForwardUnknown},
    // Options with a value that does not reach the host parse.
    {"output-file", "o", true, Action::Ignore},
    {"library", "l", true, Action::Ignore},
    {"library-path", "L", true, Action::Ignore},
    {"output-directory", "odir", true, Action::Ignore},
    {"dependency-output", "MF", true, Action::Ignore},
    {"dependency-target-name", "MT", true, Action::Ignore},
    {"compiler-bindir", "ccbin", true, Action::Ignore},
    {"archiver-binary", "arbin", true, Action::Ignore},
    {"cudart", "cudart", true, Action::Ignore},
    {"cudadevrt", "cudadevrt", true, Action::Ignore},
    {"libdevice-directory", "ldir", true, Action::Ignore},
    {"target-directory", "target-dir", true, Action::Ignore},
    {"optimization-info", "opt-info", true, Action::Ignore},
    {"optimize", "O", true, Action::Ignore},
    {"Ofast-compile", "Ofc", true, Action::Ignore},
    {"dopt", "dopt", true, Action::Ignore},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", true, Action::Ignore},
    {"x", "x", true, Action::Ignore}, // the language: the file is parsed as CUDA either way
    {"machine", "m", true, Action::Ignore},
    {"linker-options", "Xlinker", true, Action::Ignore},
    {"archive-options", "Xarchive", true, Action::Ignore},
    {"ptxas-options", "Xptxas", true, Action::Ignore},
    {"nvlink-options", "Xnvlink", true, Action::Ignore},
    {"static-global-template-stub", "static-global-template-stub", true, Action::Ignore},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", true, Action::Ignore},
    {"threads", "t", true, Action::Ignore},
    {"split-compile", "split-compile", true, Action::Ignore},
    {"split-compile-extended", "split-compile-extended", true, Action::Ignore},
    {"fdevice-time-trace", "fdevice-time-trace", true, Action::Ignore},
    {"keep-dir", "keep-dir", true, Action::Ignore},
    {"time", "time", true, Action::Ignore},
    {"run-args", "run-args", true, Action::Ignore},
    {"input-drive-prefix", "idp", true, Action::Ignore},
    {"dependency-drive-prefix", "ddp", true, Action::Ignore},
    {"drive-prefix", "dp", true, Action::Ignore},
    {"gpu-architecture", "arch", true, Action::Ignore},
    {"gpu-code", "code", true, Action::Ignore},
    {"generate-code", "gencode", true, Action::Ignore},
    {"entries", "e", true, Action::Ignore},
    {"maxrregcount", "maxrregcount", true, Action::Ignore},
    {"ftz", "ftz", true, Action::Ignore},
    {"prec-div", "prec-div", true, Action::Ignore},
    {"prec-sqrt", "prec-sqrt", true, Action::Ignore},
    {"fmad", "fmad", true, Action::Ignore},
    {"Werror", "Werror", true, Action::Ignore},
    {"diag-error", "diag-error", true, Action::Ignore},
    {"diag-suppress", "diag-suppress", true, Action::Ignore},
    {"diag-warn", "diag-warn", true, Action::Ignore},
    {"host-linker-script", "hls", true, Action::Ignore},
    {"brief-diagnostics", "brief-diag", true, Action::Ignore},
    {"jump-table-density", "jtd", true, Action::Ignore},
    {"device-stack-protector", "device-stack-protector", true, Action::Ignore},
    {"compress-mode", "compress-mode", true, Action::Ignore},
    {"frandom-seed", "frandom-seed", true, Action::Ignore},
    {"sanitize", "sanitize", true, Action::Ignore},
    // Switches that do not reach the host parse.
    {"cuda", "cuda", false, Action::Ignore},
    {"cubin", "cubin", false, Action::Ignore},
    {"fatbin", "fatbin", false, Action::Ignore},
    {"ptx", "ptx", false, Action::Ignore},
    {"optix-ir", "optix-ir", false, Action::Ignore},
    {"ltoir", "ltoir", false, Action::Ignore},
    {"preprocess", "E", false, Action::Ignore},
    {"generate-dependencies", "M", false, Action::Ignore},
    {"generate-nonsystem-dependencies", "MM", false, Action::Ignore},
    {"generate-dependencies-with-compile", "MD", false, Action::Ignore},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, Action::Ignore},
    {"generate-dependency-targets", "MP", false, Action::Ignore},
    {"compile", "c", false, Action::Ignore},
    {"device-w", "dw", false, Action::Ignore},
    {"device-link", "dlink", false, Action::Ignore},
    {"link", "link", false, Action::Ignore},
    {"lib", "lib", false, Action::Ignore},
    {"run", "run", false, Action::Ignore},
    {"objdir-as-tempdir", "objtemp", false, Action::Ignore},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false, Action::Ignore},
    {"use-local-env", "use-local-env", false, Action::Ignore},
    {"force-cl-env-setup", "force-cl-env-setup", false, Action::Ignore},
    {"profile", "pg", false, Action::Ignore},
    {"debug", "g", false, Action::Ignore},
    {"generate-line-info", "lineinfo", false, Action::Ignore},
    {"dlink-time-opt", "dlto", false, Action::Ignore},
    {"lto", "lto", false, Action::Ignore},
    {"gen-opt-lto", "gen-opt-lto", false, Action::Ignore},
    {"shared", "shared", false, Action::Ignore},
    {"no-host-device-initializer-list", "nohdinitlist", false, Action::Ignore},
    {"no-host-device-move-forward", "nohdmoveforward", false, Action::Ignore},
    {"m64", "m64", false, Action::Ignore},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false, Action::Ignore},
    {"dont-use-profile", "noprof", false, Action::Ignore},
    {"dryrun", "dryrun", false, Action::Ignore},
    {"verbose", "v", false, Action::Ignore},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, Action::Ignore},
    {"keep", "keep", false, Action::Ignore},
    {"save-temps", "save-temps", false, Action::Ignore},
    {"clean-targets", "clean", false, Action::Ignore},
    {"no-align-double", "no-align-double", false, Action::Ignore},
    {"no-device-link", "nodlink", false, Action::Ignore},
    {"use_fast_math", "use_fast_math", false, Action::Ignore},
    {"extra-device-vectorization", "extra-device-vectorization", false, Action::Ignore},
    {"disable-warnings", "w", false, Action::Ignore},
    {"keep-device-functions", "keep-device-functions", false, Action::Ignore},
    {"source-in-ptx", "src-in-ptx", false, Action::Ignore},
    {"restrict", "restrict", false, Action::Ignore},
    {"Wreorder", "Wreorder", false, Action::Ignore},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, Action::Ignore},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, Action::Ignore},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false, Action::Ignore},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false, Action::Ignore},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false, Action::Ignore},
    {"resource-usage", "res-usage", false, Action::Ignore},
    {"no-compress", "no-compress", false, Action::Ignore},
    {"qpp-config", "qpp-config", false, Action::Ignore},
    {"compile-as-tools-patch", "astoolspatch", false, Action::Ignore},
    {"display-error-number", "err-no", false, Action::Ignore},
    {"no-display-error-number", "no-err-no", false, Action::Ignore},
    {"augment-host-linker-script", "aug-hls", false, Action::Ignore},
    {"relocatable-link", "r", false, Action::Ignore},
    {"relocatable-ptx", "reloc-ptx", false, Action::Ignore},
    {"jobserver", "jobserver", false, Action::Ignore},
};

/// One-letter options whose value nvcc also accepts glued on (`-DX`, `-I/inc`, `-O3`, `-lm`).
bool gluesValue(const NvccOption &O) {
  return O.TakesValue && llvm::StringRef(O.Short).size() == 1 && llvm::StringRef("DUILlO").contains(O.Short[0]);
}

const NvccOption *findOption(llvm::StringRef Name, bool Long) {
  for (const NvccOption &O : Options)
    if (Name == (Long ? O.Long : O.Short))
      return &O;
  return nullptr;
}

class Translator {
public:
  Translator(llvm::StringRef File, llvm::StringRef Directory) : File(File), Directory(Directory) {}

  NvccTranslation Result;

  void translate(llvm::ArrayRef<std::string> Args, unsigned Depth) {
    ForwardUnknown |= llvm::any_of(Args, [](llvm::StringRef A) {
      const NvccOption *O = A.starts_with("--") ? findOption(A.drop_front(2), true) : findOption(A.drop_front(), false);
      return A.starts_with("-") && O && O->What == Action::ForwardUnknown;
    });
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      if (!A.starts_with("-") || A == "-") {
        // The source file; any other operand (an object to link, a stray value) is not parsed.
        if (A == File || llvm::sys::path::filename(A) == llvm::sys::path::filename(File))
          Result.Args.push_back(A.str());
        continue;
      }
      std::string Value;
      const NvccOption *O = match(A, Value);
      if (!O) {
        unknown(A);
        continue;
      }
      if (O->TakesValue && Value.empty() && !A.contains('=') && !gluesValueIn(A, *O)) {
        if (I + 1 >= Args.size()) {
          Result.Problems.push_back("nvcc option '" + A.str() + "' has no value; it was dropped");
          continue;
        }
        Value = Args[++I];
      }
      apply(*O, A, Value, Depth);
    }
  }

private:
  llvm::StringRef File, Directory;
  bool ForwardUnknown = false;

  /// The option `A` spells, and its value when written in the same argument.
  static const NvccOption *match(llvm::StringRef A, std::string &Value) {
    bool Long = A.starts_with("--");
    llvm::StringRef Body = A.drop_front(Long ? 2 : 1);
    auto [Name, Joined] = Body.split('=');
    if (const NvccOption *O = findOption(Name, Long)) {
      Value = Joined.str();
      return O;
    }
    if (Long || Body.size() < 2)
      return nullptr;
    const NvccOption *O = findOption(Body.take_front(1), false);
    if (!O || !gluesValue(*O))
      return nullptr;
    Value = Body.drop_front(1).str();
    return O;
  }

  static bool gluesValueIn(llvm::StringRef A, const NvccOption &O) {
    return !A.starts_with("--") && gluesValue(O) && A.size() > 2;
  }

  void apply(const NvccOption &O, llvm::StringRef Spelling, llvm::StringRef Value, unsigned Depth) {
    llvm::SmallVector<llvm::StringRef, 4> Items;
    Value.split(Items, ',', -1, /*KeepEmpty=*/false);
    auto eachAs = [&](llvm::StringRef Flag, bool Separate) {
      for (llvm::StringRef V : Items) {
        if (Separate)
          Result.Args.insert(Result.Args.end(), {Flag.str(), V.str()});
        else
          Result.Args.push_back((Flag + V).str());
      }
    };
    switch (O.What) {
    case Action::Ignore:
    case Action::ForwardUnknown:
      return;
    case Action::Define: return eachAs("-D", false);
    case Action::Undefine: return eachAs("-U", false);
    case Action::IncludePath: return eachAs("-I", false);
    // Separate values: Clang would read `-isystem=DIR` as a sysroot-relative path.
    case Action::SystemInclude: return eachAs("-isystem", true);
    case Action::PreInclude: return eachAs("-include", true);
    case Action::Std:
      Result.Args.push_back(("-std=" + Value).str());
      return;
    case Action::DefineMacro:
      Result.Args.push_back(std::string("-D") + O.Macro);
      return;
    case Action::DefaultStream:
      if (Value == "per-thread")
        Result.Args.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      return;
    case Action::Rdc:
      if (Value == "true")
        Result.Args.push_back("-D__CUDACC_RDC__");
      return;
    case Action::NoExceptions:
      Result.Args.push_back("-fno-exceptions");
      return;
    case Action::TemplateDepth:
      Result.Args.push_back(("-ftemplate-depth=" + Value).str());
      return;
    case Action::HostOptions:
      hostOptions(Items);
      return;
    case Action::OptionsFile:
      for (llvm::StringRef F : Items)
        optionsFile(Spelling, F, Depth);
      return;
    }
  }

  void unknown(llvm::StringRef A) {
    if (ForwardUnknown) {
      hostOptions({A});
      return;
    }
    Result.Problems.push_back("nvcc option '" + A.str() + "' is not known to graphify; it was dropped");
  }

  /// Host compiler flags that Clang's driver knows are kept as they are (gcc's preprocessor and
  /// language flags are Clang's too); warnings are not findings, and -Werror would fail a parse
  /// that the host compiler accepts, so they go; anything else is a problem.
  void hostOptions(llvm::ArrayRef<llvm::StringRef> Flags) {
    std::vector<std::string> Kept;
    for (llvm::StringRef F : Flags)
      if (!F.starts_with("-W") && F != "-w" && F != "-pedantic-errors")
        Kept.push_back(F.str());
    if (Kept.empty())
      return;
    std::vector<const char *> Argv;
    for (const std::string &F : Kept)
      Argv.push_back(F.c_str());
    const llvm::opt::OptTable &Table = clang::driver::getDriverOptTable();
    unsigned MissingIndex = 0, MissingCount = 0;
    llvm::opt::InputArgList Parsed = Table.ParseArgs(Argv, MissingIndex, MissingCount,
                                                     llvm::opt::Visibility(clang::driver::options::ClangOption));
    // Each parsed argument spans the strings from its index to the next one's; those are kept
    // as written.
    std::vector<const llvm::opt::Arg *> InOrder(Parsed.begin(), Parsed.end());
    for (size_t A = 0; A < InOrder.size(); ++A) {
      const llvm::opt::Option &Opt = InOrder[A]->getOption();
      if (Opt.getKind() == llvm::opt::Option::InputClass)
        continue; // a file for the host compiler's link
      if (Opt.getKind() == llvm::opt::Option::UnknownClass) {
        Result.Problems.push_back("host compiler option '" + InOrder[A]->getAsString(Parsed) +
                                  "' (passed through nvcc) is not known to Clang; it was dropped");
        continue;
      }
      size_t End = A + 1 < InOrder.size() ? InOrder[A + 1]->getIndex() : Kept.size();
      for (size_t I = InOrder[A]->getIndex(); I < End; ++I)
        Result.Args.push_back(Kept[I]);
    }
    if (MissingCount)
      Result.Problems.push_back("host compiler option '" + Kept[MissingIndex] +
                                "' (passed through nvcc) has no value; it was dropped");
  }

  void optionsFile(llvm::StringRef Spelling, llvm::StringRef Name, unsigned Depth) {
    llvm::SmallString<256> Path(Name);
    if (!llvm::sys::path::is_absolute(Path) && !Directory.empty())
      Path = (Directory + "/" + Name).str();
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer || Depth > 8) {
      std::string Why = Buffer ? std::string("is nested too deeply") : "cannot be read: " + Buffer.getError().message();
      Result.Problems.push_back("nvcc options file '" + Path.str().str() + "' (" + Spelling.str() + ") " + Why +
                                "; its options were dropped");
      return;
    }
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 16> Tokens;
    llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
    std::vector<std::string> More(Tokens.begin(), Tokens.end());
    translate(More, Depth + 1);
  }
};

} // namespace

NvccTranslation translateNvccCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                                     llvm::StringRef Directory) {
  Translator T(File, Directory);
  T.Result.Args.push_back("clang++");
  if (!Args.empty())
    T.translate(Args.drop_front(), 0);
  return std::move(T.Result);
}

} // namespace graphify
