#pragma once
/// \file
/// An nvcc command line as the Clang command line that parses the same host code: the macros,
/// include paths, forced includes and language standard nvcc would hand its host compiler, in
/// every spelling nvcc accepts (`-DX`, `-D X`, `--define-macro X`, `--define-macro=X,Y`,
/// `-Xcompiler -DX,-DY`, `--options-file f`, ...), plus the macros nvcc defines for its own
/// switches (`--extended-lambda` defines `__CUDACC_EXTENDED_LAMBDA__`, `--default-stream
/// per-thread` defines `CUDA_API_PER_THREAD_DEFAULT_STREAM=1`).
///
/// \code
///   graphify::NvccTranslation T = graphify::translateNvccCommand(Cmd.CommandLine, Cmd.Filename, Cmd.Directory);
///   for (const std::string &Problem : T.Problems)
///     llvm::errs() << "graphify-lint: warning: " << Problem << "\n";
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace graphify {

struct NvccTranslation {
  /// `clang++`, the translated flags, and the source file, in the order nvcc had them.
  std::vector<std::string> Args;
  /// What could change the parse but has no Clang equivalent here (an option nvcc or Clang does
  /// not know, an options file that cannot be read): one phrase each, naming the option.
  std::vector<std::string> Problems;
};

/// Translates `Args` (argv[0] is nvcc) compiling `File`; relative options files are read from
/// `Directory`, the command's directory.
NvccTranslation translateNvccCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                                     llvm::StringRef Directory);

} // namespace graphify
