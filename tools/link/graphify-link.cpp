// graphify-link: see graphify/link/Link.h. Everything lives in the graphify_link library so that
// tests can run the same code in-process.
#include "graphify/link/Link.h"
#include "graphify/lint/StdoutCheck.h"

#include <llvm/Support/InitLLVM.h>

int main(int Argc, const char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  return graphify::exitAfterFlushingStdout(graphify::runLink(llvm::ArrayRef<const char *>(Argv, Argc)),
                                           "graphify-link");
}
