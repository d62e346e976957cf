// graphify-validate: proves each rewrite by running the original and the rewritten model side by
// side, and checks capture and replay. The command line is parsed by hand because --input binds
// to the --entry before it, an ordering that option libraries do not model.
#include "graphify/validate/EntrySpec.h"
#include "graphify/validate/Report.h"
#include "graphify/validate/Validator.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <string>

using namespace graphify::validate;

static const char *const Usage = R"(usage: graphify-validate FILE... [options] [-- compiler args]

Runs each entry of each model FILE before and after graphify's rewrites, compares the outputs on
generated inputs, and checks that the rewritten entry can be captured and replayed.

entries and inputs:
  --entry NAME            validate NAME (a function, an nn::Module class or a TORCH_MODULE holder);
                          without --entry, every entry with a '// graphify-entry:' comment
  --input ARG=DTYPE[SHAPE][@LO:HI]
                          an input of the preceding --entry, in forward's parameter order;
                          DTYPE is f32 f64 i32 i64 bool, e.g. --input ids=i64[4,5]@0:99
options:
  --trials=K              trials per entry (default 8)
  --seed=S                seed for inputs and module parameters (default 0)
  --runtime=gfy|libtorch  build against the bundled runtime (default) or LibTorch (no capture)
  --device=cpu|cuda       run on the CPU (default) or the GPU backend
  --format=text|json      report format (default text)
  --timeout=SEC           time limit per harness run (default 60)
  --rtol=R --atol=A       comparison tolerance (default 1e-5, 1e-6; NaN equals NaN)
  -j N, --jobs=N          parallel compiles and runs (default: number of cores)
  --cache-dir=DIR         compiled harness cache (default ~/.cache/graphify/validate)
  --rules-dir=DIR         rule packs for the analyzer
  --keep-temps            keep the generated sources, inputs and results
  --quiet                 no progress lines on stderr
exit status: 0 every entry equivalent, its rewrite capturable and its replay matching;
             1 otherwise; 2 usage errors, bad input specs, unknown entries, compile errors.
)";

static int usageError(const std::string &Msg) {
  llvm::errs() << "graphify-validate: error: " << Msg << "\n(run graphify-validate --help for usage)\n";
  return 2;
}

/// Parses an unsigned number; false on garbage.
static bool parseUnsigned(const std::string &Text, uint64_t &Out) {
  if (Text.empty())
    return false;
  char *End = nullptr;
  Out = std::strtoull(Text.c_str(), &End, 10);
  return *End == 0 && Text[0] != '-';
}

int main(int Argc, char **Argv) {
  ValidateOptions Opts;
  Opts.Argv0 = Argv[0];
  bool Json = false, Quiet = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    // `--flag=value` or `--flag value` for the flags that take a value.
    auto Value = [&](const std::string &Flag, std::string &Out) -> bool {
      if (A.rfind(Flag + "=", 0) == 0) {
        Out = A.substr(Flag.size() + 1);
        return true;
      }
      if (A == Flag && I + 1 < Argc) {
        Out = Argv[++I];
        return true;
      }
      return false;
    };
    std::string V;
    uint64_t N = 0;
    if (A == "--") {
      for (++I; I < Argc; ++I)
        Opts.CompilerArgs.push_back(Argv[I]);
      break;
    } else if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return 0;
    } else if (A == "--keep-temps") {
      Opts.KeepTemps = true;
    } else if (A == "--quiet") {
      Quiet = true;
    } else if (Value("--entry", V)) {
      Opts.Entries.push_back({V, {}});
    } else if (Value("--input", V)) {
      if (Opts.Entries.empty())
        return usageError("--input " + V + " must follow an --entry NAME (inputs belong to an entry)");
      auto Spec = parseInputFlag(V);
      if (!Spec) {
        llvm::errs() << "graphify-validate: " << llvm::toString(Spec.takeError()) << "\n";
        return 2;
      }
      Opts.Entries.back().Inputs.push_back(std::move(*Spec));
    } else if (Value("--trials", V)) {
      if (!parseUnsigned(V, N) || N < 1 || N > 10000)
        return usageError("--trials expects a number from 1 to 10000, got '" + V + "'");
      Opts.Trials = unsigned(N);
    } else if (Value("--seed", V)) {
      if (!parseUnsigned(V, N))
        return usageError("--seed expects a non-negative integer, got '" + V + "'");
      Opts.Seed = N;
    } else if (Value("--runtime", V)) {
      if (V == "gfy")
        Opts.Runtime = RuntimeKind::Gfy;
      else if (V == "libtorch")
        Opts.Runtime = RuntimeKind::LibTorch;
      else
        return usageError("--runtime expects gfy or libtorch, got '" + V + "'");
    } else if (Value("--device", V)) {
      if (V != "cpu" && V != "cuda")
        return usageError("--device expects cpu or cuda, got '" + V + "'");
      Opts.Cuda = V == "cuda";
    } else if (Value("--format", V)) {
      if (V != "text" && V != "json")
        return usageError("--format expects text or json, got '" + V + "'");
      Json = V == "json";
    } else if (Value("--timeout", V)) {
      if (!parseUnsigned(V, N) || N < 1)
        return usageError("--timeout expects a number of seconds (at least 1), got '" + V + "'");
      Opts.TimeoutSeconds = unsigned(N);
    } else if (Value("--jobs", V) || (A.rfind("-j", 0) == 0 && A.size() > 2 && (V = A.substr(2), true)) ||
               Value("-j", V)) {
      if (!parseUnsigned(V, N) || N < 1)
        return usageError("--jobs expects a positive number, got '" + V + "'");
      Opts.Jobs = unsigned(N);
    } else if (Value("--rtol", V) || Value("--atol", V)) {
      char *End = nullptr;
      double D = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || D < 0)
        return usageError(A.substr(0, 6) + " expects a non-negative number, got '" + V + "'");
      (A.rfind("--rtol", 0) == 0 ? Opts.Tol.RelTol : Opts.Tol.AbsTol) = D;
    } else if (Value("--cache-dir", V)) {
      Opts.CacheDir = V;
    } else if (Value("--rules-dir", V)) {
      Opts.RulesDir = V;
    } else if (A.size() > 1 && A[0] == '-') {
      return usageError("unknown option '" + A + "'");
    } else {
      Opts.Files.push_back(A);
    }
  }
  if (Opts.Files.empty())
    return usageError("no model file given");

  std::string Discard;
  llvm::raw_string_ostream Silent(Discard);
  auto Summary = runValidation(Opts, Quiet ? static_cast<llvm::raw_ostream &>(Silent) : llvm::errs());
  if (!Summary) {
    llvm::errs() << "graphify-validate: " << llvm::toString(Summary.takeError()) << "\n";
    return 2;
  }
  if (Json)
    writeJsonReport(llvm::outs(), *Summary);
  else
    writeTextReport(llvm::outs(), *Summary);
  return Summary->passed() ? 0 : 1;
}
