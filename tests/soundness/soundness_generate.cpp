// soundness-generate: writes one generated translation unit (tests/soundness/ProgramGenerator.h).
//   soundness-generate --seed 42 [--modules 6] [--module 0,2,5] [--without ifdef,f64] -o case.cpp
#include "ProgramGenerator.h"

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include <set>

namespace cl = llvm::cl;

static cl::opt<uint64_t> Seed("seed", cl::desc("the program's seed"), cl::init(1));
static cl::opt<unsigned> Modules("modules", cl::desc("modules per translation unit"), cl::init(6));
static cl::list<unsigned> Picked("module", cl::desc("emit only these modules Case<N>, e.g. 3 or 0,2,5"),
                                 cl::CommaSeparated);
static cl::list<std::string> Without("without",
                                    cl::desc("features to leave out: guarded-raise, macro-condition, ifdef, "
                                             "shadow-field, nonzero-put, f64, two-rows, ids-leaf, int-read, host-read"),
                                    cl::CommaSeparated);
static cl::opt<std::string> Output("o", cl::desc("output file (default: stdout)"), cl::init("-"));

int main(int argc, char **argv) {
  // Usage errors exit 2, as the project's tools do (cl exits 1 by default).
  if (!cl::ParseCommandLineOptions(argc, argv, "rewrite-soundness program generator\n", &llvm::errs()))
    return 2;
  graphify::soundness::GeneratorOptions Options;
  Options.Seed = Seed;
  Options.Modules = Modules;
  Options.Picked.assign(Picked.begin(), Picked.end());
  static const std::set<std::string> Features = {"guarded-raise", "macro-condition", "ifdef", "shadow-field",
                                                 "nonzero-put",   "f64",             "two-rows", "ids-leaf",
                                                 "int-read",      "host-read"};
  for (const std::string &F : Without) {
    if (!Features.count(F)) {
      llvm::errs() << "soundness-generate: unknown feature '" << F << "' for --without\n";
      return 2;
    }
    Options.Without.insert(F);
  }
  std::error_code EC;
  llvm::raw_fd_ostream Out(Output, EC);
  if (EC) {
    llvm::errs() << "soundness-generate: cannot write '" << Output << "': " << EC.message() << "\n";
    return 2;
  }
  Out << graphify::soundness::generateProgram(Options);
  Out.close();
  if (Out.has_error()) {
    llvm::errs() << "soundness-generate: cannot write '" << Output << "': " << Out.error().message() << "\n";
    Out.clear_error();
    return 2;
  }
  return 0;
}
