// graphify-validate's command line. Invariant: every flag is declared once, in the table below,
// next to the field it fills; parsing and --help both come from it (graphify/lint/FlagTable.h).
#include "graphify/validate/Options.h"
#include "graphify/lint/FlagTable.h"

#include <cmath>
#include <cstdlib>

namespace graphify::validate {
namespace {

using ValidateFlag = Flag<ValidateCommandLine>;

llvm::Error usage(const llvm::Twine &Message) {
  return flagUsageError(Message + "\n(run graphify-validate --help for usage)");
}

llvm::Error ok() { return llvm::Error::success(); }

/// An unsigned decimal number, or nullopt on anything else (signs, spaces, garbage).
std::optional<uint64_t> unsignedValue(llvm::StringRef Text) {
  uint64_t N = 0;
  if (Text.empty() || Text.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

llvm::Error tolerance(llvm::StringRef Flag, llvm::StringRef V, double &Out) {
  std::string Text = V.str();
  char *End = nullptr;
  double D = std::strtod(Text.c_str(), &End);
  if (Text.empty() || *End || !(D >= 0) || !std::isfinite(D))
    return usage("--" + Flag + " expects a finite non-negative number, got '" + V + "'");
  Out = D;
  return ok();
}

llvm::Error jobs(ValidateCommandLine &C, llvm::StringRef V) {
  auto N = unsignedValue(V);
  if (!N || *N < 1)
    return usage("--jobs expects a positive number, got '" + V + "'");
  C.Run.Jobs = unsigned(*N);
  return ok();
}

const std::vector<ValidateFlag> &flagTable() {
  static const std::vector<ValidateFlag> Table = {
      {"entry", "name", "validate this entry (a function, an nn::Module class or a TORCH_MODULE holder); "
                        "without --entry, every entry under a '// graphify-entry:' comment",
       [](ValidateCommandLine &C, llvm::StringRef V) { C.Run.Entries.push_back({V.str(), {}}); return ok(); }},
      {"input", "arg=dtype[shape][@lo:hi]", "an input of the preceding --entry, in forward's parameter order "
                                            "(dtype f32 f64 i32 i64 bool), e.g. --input ids=i64[4,5]@0:99",
       [](ValidateCommandLine &C, llvm::StringRef V) -> llvm::Error {
         if (C.Run.Entries.empty())
           return usage("--input " + V + " must follow an --entry NAME (inputs belong to an entry)");
         auto Spec = parseInputFlag(V.str());
         if (!Spec)
           return Spec.takeError();
         C.Run.Entries.back().Inputs.push_back(std::move(*Spec));
         return ok();
       }},
      {"trials", "K", "trials per entry (default 8)",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         auto N = unsignedValue(V);
         if (!N || *N < 1 || *N > 10000)
           return usage("--trials expects a number from 1 to 10000, got '" + V + "'");
         C.Run.Trials = unsigned(*N);
         return ok();
       }},
      {"seed", "S", "seed for inputs and module parameters (default 0)",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         auto N = unsignedValue(V);
         if (!N)
           return usage("--seed expects a non-negative integer, got '" + V + "'");
         C.Run.Seed = *N;
         return ok();
       }},
      {"runtime", "gfy|libtorch", "build against the bundled runtime (default) or LibTorch (no capture)",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         if (V != "gfy" && V != "libtorch")
           return usage("--runtime expects gfy or libtorch, got '" + V + "'");
         C.Run.Runtime = V == "gfy" ? RuntimeKind::Gfy : RuntimeKind::LibTorch;
         return ok();
       }},
      {"device", "cpu|cuda", "run on the CPU (default) or the GPU backend",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         if (V != "cpu" && V != "cuda")
           return usage("--device expects cpu or cuda, got '" + V + "'");
         C.Run.Cuda = V == "cuda";
         return ok();
       }},
      {"format", "text|json", "report format (default text)",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         if (V != "text" && V != "json")
           return usage("--format expects text or json, got '" + V + "'");
         C.Json = V == "json";
         return ok();
       }},
      {"timeout", "sec", "time limit per harness run (default 60)",
       [](ValidateCommandLine &C, llvm::StringRef V) {
         auto N = unsignedValue(V);
         if (!N || *N < 1)
           return usage("--timeout expects a number of seconds (at least 1), got '" + V + "'");
         C.Run.TimeoutSeconds = unsigned(*N);
         return ok();
       }},
      {"grad", nullptr, "compare gradients w.r.t. floating inputs and parameters for every entry, and fail one "
                        "whose backward cannot run (default: entries with parameters, where it is a note)",
       [](ValidateCommandLine &C, llvm::StringRef) { C.Run.Gradients = GradientCheck::Always; return ok(); }},
      {"no-grad", nullptr, "compare outputs only, not gradients",
       [](ValidateCommandLine &C, llvm::StringRef) { C.Run.Gradients = GradientCheck::Never; return ok(); }},
      {"rtol", "R", "relative tolerance for outputs and gradients (default 1e-5; NaN equals NaN)",
       [](ValidateCommandLine &C, llvm::StringRef V) { return tolerance("rtol", V, C.Run.Tol.RelTol); }},
      {"atol", "A", "absolute tolerance for outputs and gradients (default 1e-6)",
       [](ValidateCommandLine &C, llvm::StringRef V) { return tolerance("atol", V, C.Run.Tol.AbsTol); }},
      {"j", "N", "parallel compiles and runs (default: number of cores)", jobs},
      {"jobs", "N", "the same as -j", jobs},
      {"cache-dir", "dir", "compiled harness cache (default ~/.cache/graphify/validate)",
       [](ValidateCommandLine &C, llvm::StringRef V) { C.Run.CacheDir = V.str(); return ok(); }},
      {"rules-dir", "dir", "rule packs for the analyzer (default: the shipped ones)",
       [](ValidateCommandLine &C, llvm::StringRef V) { C.Run.RulesDir = V.str(); return ok(); }},
      {"harness-bundle", "dir", "build the harnesses, then write them, their inputs, the shared runtime and a script "
                                "that runs them (DIR/run RESULTS) into the new folder DIR instead of running them: "
                                "for a machine without LLVM, such as a GPU machine",
       [](ValidateCommandLine &C, llvm::StringRef V) { C.Run.HarnessBundle = V.str(); return ok(); }},
      {"harness-results", "dir", "compare the runs that a --harness-bundle's script left in DIR instead of running "
                                 "the harnesses here (the same files and options as the bundle's command)",
       [](ValidateCommandLine &C, llvm::StringRef V) { C.Run.HarnessResults = V.str(); return ok(); }},
      {"keep-temps", nullptr, "keep the generated sources, inputs and results",
       [](ValidateCommandLine &C, llvm::StringRef) { C.Run.KeepTemps = true; return ok(); }},
      {"quiet", nullptr, "no progress lines on stderr",
       [](ValidateCommandLine &C, llvm::StringRef) { C.Quiet = true; return ok(); }},
      {"help", nullptr, "print this help",
       [](ValidateCommandLine &C, llvm::StringRef) { C.Help = true; return ok(); }},
  };
  return Table;
}

} // namespace

llvm::Expected<ValidateCommandLine> parseValidateCommandLine(llvm::ArrayRef<const char *> Argv) {
  ValidateCommandLine C;
  if (!Argv.empty())
    C.Run.Argv0 = Argv[0];
  llvm::Error E = parseFlags<ValidateCommandLine>(
      Argv, flagTable(), C, [](ValidateCommandLine &C, llvm::StringRef File) { C.Run.Files.push_back(File.str()); },
      [](ValidateCommandLine &C, llvm::ArrayRef<const char *> Args) {
        C.Run.CompilerArgs.assign(Args.begin(), Args.end());
      });
  if (E)
    return std::move(E);
  if (!C.Help && C.Run.Files.empty())
    return usage("no model file given");
  if (!C.Run.HarnessBundle.empty() && !C.Run.HarnessResults.empty())
    return usage("--harness-bundle writes the harnesses and --harness-results reads their runs: give one");
  return C;
}

std::string validateHelpText() {
  return "OVERVIEW: graphify-validate runs each entry of each model FILE before and after graphify's\n"
         "rewrites, compares the outputs (and the gradients of entries with parameters) on generated\n"
         "inputs, and checks that the rewritten entry can be captured and replayed.\n\n"
         "USAGE: graphify-validate [options] FILE... [-- <compiler args>]\n\n"
         "OPTIONS:\n" +
         flagHelp<ValidateCommandLine>(flagTable()) +
         "\nEXIT STATUS: 0 every entry equivalent (outputs, and gradients where checked), its rewrite\n"
         "capturable and its replay matching;\n"
         "1 otherwise; 2 usage errors, bad input specs, unknown entries, compile errors.\n";
}

int runValidateTool(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto CL = parseValidateCommandLine(Argv);
  if (!CL) {
    Err << "graphify-validate: " << llvm::toString(CL.takeError()) << "\n";
    return 2;
  }
  if (CL->Help) {
    Out << validateHelpText();
    return 0;
  }
  std::string Discard;
  llvm::raw_string_ostream Silent(Discard);
  auto Summary = runValidation(CL->Run, CL->Quiet ? static_cast<llvm::raw_ostream &>(Silent) : Err);
  if (!Summary) {
    Err << "graphify-validate: " << llvm::toString(Summary.takeError()) << "\n";
    return 2;
  }
  if (!Summary->Bundled.empty()) {
    Out << "graphify-validate: harnesses written to " << Summary->Bundled << "; run '" << Summary->Bundled
        << "/run RESULTS' where they should run, then this command with --harness-results=RESULTS in place of "
           "--harness-bundle\n";
    return 0;
  }
  if (CL->Json)
    writeJsonReport(Out, *Summary);
  else
    writeTextReport(Out, *Summary);
  return Summary->passed() ? 0 : 1;
}

} // namespace graphify::validate
