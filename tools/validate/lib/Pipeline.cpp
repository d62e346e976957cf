// What the phases of the pipeline (Pipeline.h) share: errors, the thread pool, files, and how a
// harness run that did not finish is told in words.
#include "Pipeline.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/MemoryBuffer.h>

#include <atomic>
#include <fstream>
#include <thread>

namespace graphify::validate::pipeline {

llvm::Error error(const llvm::Twine &Msg) { return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg); }

void parallelFor(size_t N, unsigned Jobs, const std::function<void(size_t)> &Fn) {
  std::atomic<size_t> Next{0};
  unsigned Threads = std::max<unsigned>(1, std::min<size_t>(Jobs, N));
  std::vector<std::thread> Pool;
  for (unsigned I = 0; I < Threads; ++I)
    Pool.emplace_back([&] {
      for (size_t K; (K = Next++) < N;)
        Fn(K);
    });
  for (std::thread &T : Pool)
    T.join();
}

bool writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  return bool(Out);
}

std::string readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}


const char *versionName(Version V) { return V == Original ? "original" : "rewritten"; }

const char *modeName(Mode M) {
  return M == Eager ? "eager" : M == Capture ? "capture" : M == Trace ? "trace" : M == Grad ? "grad" : "eager-on-cpu";
}

namespace {

/// The last `N` lines of a process's stderr, indented, for problem reports.
std::string tail(const std::string &Text, unsigned N = 6) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, false);
  std::string Out;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size(); ++I)
    Out += "\n      " + Lines[I].str();
  return Out;
}

} // namespace

std::string HarnessRun::failure(const std::string &What) const {
  if (!ParseError.empty())
    return What + ": unreadable results (" + ParseError + ")";
  if (!Results.Fatal.empty())
    return What + " raised outside any trial: " + Results.Fatal;
  if (Process.succeeded() && Results.Finished)
    return "";
  std::string Msg = What + " " + Process.describe();
  if (Process.Status == RunResult::State::Exited && Process.ExitCode == 0)
    Msg = What + " stopped before finishing";
  if (!Process.Stderr.empty())
    Msg += "; its last output:" + tail(Process.Stderr);
  return Msg;
}

} // namespace graphify::validate::pipeline
