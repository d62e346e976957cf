// CUDA translation units. Invariant: a CUDA command is parsed as CUDA host code with the
// include paths and macros its author gave, or it fails with Clang's own error; it is never
// silently parsed as C++ (where `<<<` and `__global__` would not even tokenize).
#include "graphify/lint/CudaCommand.h"
#include "graphify/lint/NvccCommand.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace graphify {

static bool isNvcc(llvm::ArrayRef<std::string> Args) {
  return !Args.empty() && llvm::sys::path::stem(Args[0]) == "nvcc";
}

bool isCudaCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".cu" || Ext == ".cuh" || isNvcc(Args))
    return true;
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x" && Args[I + 1] == "cuda")
      return true;
  return llvm::is_contained(Args, "-xcuda");
}

static std::string toolkitPath(llvm::ArrayRef<std::string> Args) {
  for (llvm::StringRef A : Args)
    if (A.starts_with("--cuda-path="))
      return A.drop_front(strlen("--cuda-path=")).str();
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *V = std::getenv(Var); V && *V)
      return V;
  return "/usr/local/cuda";
}

/// Where the compatibility headers are: installed beside the tool, else in the source tree.
static std::string compatDirectory() {
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&compatDirectory));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "share", "graphify", "cuda-compat");
  if (llvm::sys::fs::is_directory(Dir))
    return std::string(Dir);
  return GRAPHIFY_SOURCE_CUDA_COMPAT_DIR;
}

std::vector<std::string> cudaHostSyntaxCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                                               llvm::StringRef Directory, std::vector<std::string> *Problems) {
  if (Args.empty() || !isCudaCommand(Args, File)) // an empty command (`"arguments": []`) has no compiler
    return Args.vec();
  std::vector<std::string> Out = Args.vec();
  if (isNvcc(Args)) {
    NvccTranslation T = translateNvccCommand(Args, File, Directory);
    Out = std::move(T.Args);
    if (Problems)
      Problems->insert(Problems->end(), T.Problems.begin(), T.Problems.end());
  }
  std::string Toolkit = toolkitPath(Out);
  std::vector<std::string> Extra = {"--cuda-host-only", "-nocudalib", "-Wno-unknown-cuda-version"};
  if (llvm::none_of(Out, [](llvm::StringRef A) { return A.starts_with("--cuda-path="); }))
    Extra.push_back("--cuda-path=" + Toolkit);
  // A header file is not recognised as CUDA by its extension.
  if (llvm::sys::path::extension(File) != ".cu" && !llvm::is_contained(Out, "-xcuda"))
    Extra.insert(Extra.end(), {"-x", "cuda"});
  // CUDA 13 moved libcu++/CUB/Thrust under include/cccl, which nvcc adds itself.
  if (llvm::sys::fs::is_directory(Toolkit + "/include/cccl"))
    Extra.insert(Extra.end(), {"-isystem", Toolkit + "/include/cccl"});
  if (!llvm::sys::fs::exists(Toolkit + "/include/texture_fetch_functions.h"))
    Extra.insert(Extra.end(), {"-isystem", compatDirectory()});
  // Before the file name, so that `-x cuda` applies to it.
  auto FileIt = std::find(Out.begin() + 1, Out.end(), File.str());
  Out.insert(FileIt, Extra.begin(), Extra.end());
  return Out;
}

} // namespace graphify
