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

/// The Clang command that parses a CUDA translation unit's host side: nvcc's own flags
/// replaced by what Clang understands (include paths, macros, the language standard),
/// `--cuda-host-only`, the toolkit (`--cuda-path`: the command's, else $CUDA_PATH, $CUDA_HOME,
/// else /usr/local/cuda), and the compatibility headers a newer toolkit needs with Clang 19.
/// Commands that are not CUDA come back unchanged.
std::vector<std::string> cudaHostSyntaxCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File);

} // namespace graphify
