#pragma once
/// \file
/// CUDA sources (`.cu`, `-x cuda`, or an nvcc compile command) are linted host-side with Clang:
/// the kernels' bodies are not analysed, the host code that launches and captures them is.
///
/// \code
///   std::vector<std::string> Args = graphify::cudaHostSyntaxCommand(Args, File);
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace graphify {

/// Whether the command compiles `File` as CUDA: a `.cu`/`.cuh` file, `-x cuda`, or nvcc.
bool isCudaCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File);

/// The Clang command that parses a CUDA translation unit's host side: an nvcc command
/// translated (translateNvccCommand; what it cannot translate is appended to `Problems`),
/// `--cuda-host-only`, the toolkit (`--cuda-path`: the command's, else $CUDA_PATH, $CUDA_HOME,
/// else /usr/local/cuda), and the compatibility headers a newer toolkit needs with Clang 19.
/// Commands that are not CUDA come back unchanged.
/// `Directory` is the command's, for relative nvcc options files.
std::vector<std::string> cudaHostSyntaxCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                                               llvm::StringRef Directory = "",
                                               std::vector<std::string> *Problems = nullptr);

} // namespace graphify
