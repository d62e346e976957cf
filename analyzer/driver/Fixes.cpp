// Delegation of fix application to the rewriter. Invariant: the driver never edits a file
// itself; when the rewriter is not part of the build, asking for fixes is a usage error rather
// than a silent no-op.
#include "graphify/analyzer/DriverFixes.h"

#if __has_include("graphify/rewriter/FixApplication.h")
#include "graphify/rewriter/FixApplication.h"
#define GRAPHIFY_HAVE_FIX_APPLICATION 1
#else
#define GRAPHIFY_HAVE_FIX_APPLICATION 0
#endif

namespace graphify {

bool fixesAvailable() { return GRAPHIFY_HAVE_FIX_APPLICATION; }

llvm::Error deliverFixes(llvm::ArrayRef<Finding> Findings, const FixRequest &Request, llvm::raw_ostream &Out) {
#if GRAPHIFY_HAVE_FIX_APPLICATION
  FixApplicationOptions Opts;
  Opts.Mode = Request.What == FixRequest::Fix    ? FixApplicationOptions::Mode::Fix
              : Request.What == FixRequest::Diff ? FixApplicationOptions::Mode::Diff
                                                 : FixApplicationOptions::Mode::Export;
  Opts.ExportPath = Request.ExportPath;
  Opts.Compiles = Request.Compiles;
  return applyFixes(Findings, Opts, Out);
#else
  (void)Findings;
  (void)Request;
  (void)Out;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: --fix, --diff and --export-fixes need the rewriter, which is not built");
#endif
}

} // namespace graphify
