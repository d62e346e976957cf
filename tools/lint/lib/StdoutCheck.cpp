// clear_error() is what keeps raw_fd_ostream's destructor from calling report_fatal_error: the
// error has been reported here, in the tool's words.
#include "graphify/lint/StdoutCheck.h"

#include <llvm/Support/raw_ostream.h>

namespace graphify {

int exitAfterFlushingStdout(int Exit, const char *Tool) {
  llvm::raw_fd_ostream &Out = llvm::outs();
  Out.flush();
  if (!Out.has_error())
    return Exit;
  llvm::errs() << Tool << ": error: cannot write the output: " << Out.error().message()
               << "; the results are incomplete\n";
  Out.clear_error();
  return 2;
}

} // namespace graphify
