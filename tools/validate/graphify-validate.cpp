// graphify-validate: see graphify/validate/Options.h. Everything lives in the graphify_validate
// library so that tests can call it in-process.
#include "graphify/lint/StdoutCheck.h"
#include "graphify/validate/Interrupts.h"
#include "graphify/validate/Options.h"

#include <llvm/Support/raw_ostream.h>

int main(int Argc, char **Argv) {
  graphify::validate::installInterruptHandler();
  return graphify::exitAfterFlushingStdout(
      graphify::validate::runValidateTool(llvm::ArrayRef<const char *>(Argv, Argc), llvm::outs(), llvm::errs()),
      "graphify-validate");
}
