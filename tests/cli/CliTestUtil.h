#pragma once
// Helpers for the end-to-end tests: run a program with arguments, capture stdout, stderr and the
// exit code; make scratch directories with files in them.
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace graphify::test {

struct RunResult {
  int Code = -1;
  std::string Out, Err;
};

inline std::string readFile(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

inline void writeFile(llvm::StringRef Path, llvm::StringRef Text) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC) << Path.str();
  OS << Text;
}

/// Runs `Program Args...` in `Dir` (through `cd`-free means: the child gets Dir as cwd via a shell
/// wrapper), with extra environment assignments.
inline RunResult run(const std::string &Program, const std::vector<std::string> &Args, const std::string &Dir = "",
                     const std::vector<std::string> &Env = {}) {
  llvm::SmallString<128> OutFile, ErrFile;
  llvm::sys::fs::createTemporaryFile("cli-out", "txt", OutFile);
  llvm::sys::fs::createTemporaryFile("cli-err", "txt", ErrFile);
  // llvm::sys::ExecuteAndWait has no working-directory parameter; /bin/sh does the cd.
  std::string Script = Dir.empty() ? "exec \"$0\" \"$@\"" : "cd \"" + Dir + "\" && exec \"$0\" \"$@\"";
  std::vector<llvm::StringRef> Argv = {"/bin/sh", "-c", Script, Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::ArrayRef<llvm::StringRef>> EnvRef;
  std::vector<std::string> EnvStore;
  std::vector<llvm::StringRef> EnvRefs;
  if (!Env.empty()) {
    for (char **E = environ; *E; ++E)
      EnvStore.push_back(*E);
    EnvStore.insert(EnvStore.end(), Env.begin(), Env.end());
    for (const std::string &E : EnvStore)
      EnvRefs.push_back(E);
    EnvRef = EnvRefs;
  }
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutFile), llvm::StringRef(ErrFile)};
  RunResult R;
  R.Code = llvm::sys::ExecuteAndWait("/bin/sh", Argv, EnvRef, Redirects);
  R.Out = readFile(OutFile);
  R.Err = readFile(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  return R;
}

inline RunResult lint(const std::vector<std::string> &Args, const std::string &Dir = "",
                      const std::vector<std::string> &Env = {}) {
  return run(GRAPHIFY_LINT_EXE, Args, Dir, Env);
}

/// The CUDA runtime prototypes a capture window needs, declared by hand (six lines, no toolkit):
/// tests append a function that captures.
inline constexpr const char *CudaCapturePrototypes =
    "typedef struct CUstream_st *cudaStream_t;\n"
    "typedef struct CUgraph_st *cudaGraph_t;\n"
    "enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };\n"
    "extern \"C\" int cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);\n"
    "extern \"C\" int cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);\n"
    "extern \"C\" int cudaDeviceSynchronize(void);\n";

/// A capture window with a device-wide synchronisation on line 9 (column 3) of the text.
inline std::string captureWithSync() {
  return std::string(CudaCapturePrototypes) + "void record(cudaStream_t s, cudaGraph_t *g) {\n"
                                              "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                                              "  cudaDeviceSynchronize();\n"
                                              "  cudaStreamEndCapture(s, g);\n"
                                              "}\n";
}

/// The files of `Dir` whose names end with `Suffix`, sorted (none when it does not exist).
inline std::vector<std::string> filesEndingWith(const std::string &Dir, llvm::StringRef Suffix) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(Suffix))
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// A fresh directory, removed at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    llvm::SmallString<128> P;
    llvm::sys::fs::createUniqueDirectory("graphify-cli", P);
    llvm::SmallString<256> Real;
    llvm::sys::fs::real_path(P, Real);
    Path = std::string(Real);
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(llvm::StringRef Name, llvm::StringRef Text) {
    std::string P = Path + "/" + Name.str();
    writeFile(P, Text);
    return P;
  }
  std::string Path;
};

} // namespace graphify::test
