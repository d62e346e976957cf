// Delegation of fix application to the rewriter. Invariant: the driver never edits a file
// itself; the rewriter decides which edits apply and writes each file atomically.
#include "graphify/lint/Fixes.h"
#include "graphify/rewriter/FixApplication.h"

namespace graphify {

llvm::Error deliverFixes(llvm::ArrayRef<Finding> Findings, const FixRequest &Request, llvm::raw_ostream &Out) {
  FixApplicationOptions Opts;
  Opts.Mode = Request.What == FixRequest::Fix    ? FixApplicationOptions::Mode::Fix
              : Request.What == FixRequest::Diff ? FixApplicationOptions::Mode::Diff
                                                 : FixApplicationOptions::Mode::Export;
  Opts.ExportPath = Request.ExportPath;
  Opts.Compiles = Request.Compiles;
  return applyFixes(Findings, Opts, Out);
}

} // namespace graphify
