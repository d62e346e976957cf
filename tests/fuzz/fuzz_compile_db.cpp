// libFuzzer target: compilation-database loading (compile_commands.json through clang's reader
// and graphify's fallbacks) and the command adjustments graphify makes to each entry (syntax
// only, resource dir, CUDA host-side commands).
#include "FuzzSupport.h"

#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/CudaCommand.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Support/FileSystem.h>

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Dir = [] {
    std::string D = "/tmp/graphify-fuzz-db-" + std::to_string(::getpid());
    llvm::sys::fs::create_directories(D);
    return D;
  }();
  const std::string Db = Dir + "/compile_commands.json";
  if (std::FILE *F = std::fopen(Db.c_str(), "wb")) {
    std::fwrite(Data, 1, Size, F);
    std::fclose(F);
  }
  std::string Notice;
  auto Loaded = graphify::loadCompilationDatabase(Dir, false, {}, {Dir + "/model.cpp", Dir + "/k.cu"}, Notice);
  if (!Loaded) {
    llvm::consumeError(Loaded.takeError());
    return 0;
  }
  for (const clang::tooling::CompileCommand &Cmd : (*Loaded)->getAllCompileCommands()) {
    std::vector<std::string> Adjusted = graphify::syntaxOnlyCommand(Cmd, "/usr/lib/llvm-19/lib/clang/19");
    if (graphify::isCudaCommand(Cmd.CommandLine, Cmd.Filename))
      (void)graphify::cudaHostSyntaxCommand(Cmd.CommandLine, Cmd.Filename);
    (void)Adjusted;
  }
  for (const char *File : {"model.cpp", "k.cu"})
    (void)(*Loaded)->getCompileCommands(Dir + "/" + File);
  return 0;
}
