// graphify-lint: see graphify/lint/Driver.h. Everything lives in the graphify_lint library
// so that tests can run the same code in-process.
#include "graphify/lint/Driver.h"
#include "graphify/lint/StdoutCheck.h"

#include <llvm/Support/InitLLVM.h>

int main(int Argc, const char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  return graphify::exitAfterFlushingStdout(graphify::runLint(llvm::ArrayRef<const char *>(Argv, Argc)),
                                           "graphify-lint");
}
