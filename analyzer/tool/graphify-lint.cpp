// graphify-lint: see graphify/analyzer/Driver.h. Everything lives in the graphify_driver library
// so that tests can run the same code in-process.
#include "graphify/analyzer/Driver.h"

#include <llvm/Support/InitLLVM.h>

int main(int Argc, const char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  return graphify::runLint(llvm::ArrayRef<const char *>(Argv, Argc));
}
