#pragma once
/// \file
/// Compiling harnesses into executables: where the runtime (or LibTorch) is, how to compile and
/// link against it, and a content-addressed cache so that a rerun on unchanged sources starts
/// running at once.
///
/// The runtime is looked for, in order: `$GRAPHIFY_RUNTIME_PREFIX`; an install prefix around the
/// executable (`<prefix>/bin/graphify-validate`, `<prefix>/include/graphify/compat/torch/torch.h`,
/// `<prefix>/lib/libgraphify_runtime.{a,so}`); the build tree this tool was built in (paths
/// baked at configure time).
///
/// \code
///   auto TC = graphify::validate::findToolchain(RuntimeKind::Gfy, Argv0);
///   auto B = graphify::validate::buildHarness(*TC, {"h.cpp", Source, ModelText, {}}, CacheDir, 600);
///   if (!B.Ok) llvm::errs() << B.Diagnostics;
/// \endcode

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace graphify::validate {

/// Which tensor library the harness is built against.
enum class RuntimeKind {
  Gfy,     ///< the bundled runtime through the compat headers (capture and trace available)
  LibTorch ///< real LibTorch (eager only)
};

/// How to compile and link a harness for one runtime.
struct Toolchain {
  RuntimeKind Runtime = RuntimeKind::Gfy;
  std::string Compiler;                  ///< the C++ compiler graphify was built with
  std::vector<std::string> IncludeDirs;  ///< also used to parse the model with Clang
  std::vector<std::string> CompileFlags; ///< -std=c++20 and the runtime's required flags
  std::vector<std::string> LinkArgs;     ///< libraries and rpaths, after the source
  std::string Origin;                    ///< where the runtime was found, for messages
  bool HasCudaBackend = false;           ///< the runtime was built with its CUDA backend
  std::string Fingerprint;               ///< changes whenever the runtime's library or headers do
};

/// Locates the runtime (see file comment) and describes how to build against it.
llvm::Expected<Toolchain> findToolchain(RuntimeKind Runtime, const char *Argv0);

/// One harness to build.
struct BuildRequest {
  std::string SourcePath;             ///< where the harness source was written
  std::string SourceText;             ///< its text (hashed)
  std::string ModelText;              ///< the model file it includes (hashed)
  std::vector<std::string> ExtraArgs; ///< user compiler arguments (after `--`), include dirs
};

/// The executable, or the compiler's messages.
struct BuildOutcome {
  bool Ok = false;
  bool CacheHit = false;
  std::string Executable;
  std::string Diagnostics; ///< compiler output when !Ok
  std::string Command;     ///< the compile command, for --keep-temps and messages
};

/// `$GRAPHIFY_VALIDATE_CACHE`, else `$XDG_CACHE_HOME/graphify/validate`, else
/// `$HOME/.cache/graphify/validate`, else a directory under the system temp dir.
std::string defaultCacheDir();

/// Compiles `Req` unless an executable with the same key (compiler, flags, runtime fingerprint,
/// harness and model text) is already cached; the cache entry is written by rename, so
/// concurrent validators never see half-written executables.
BuildOutcome buildHarness(const Toolchain &TC, const BuildRequest &Req, const std::string &CacheDir,
                          unsigned TimeoutSeconds);

} // namespace graphify::validate
