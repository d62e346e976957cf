#pragma once
/// \file
/// The command line of graphify-validate: one flag table (the same machinery as graphify-lint's,
/// graphify/lint/FlagTable.h), one comment per flag, --help generated from it. An `--input`
/// belongs to the `--entry` before it, which the table's `--input` action checks.
///
/// \code
///   auto CL = graphify::validate::parseValidateCommandLine({"graphify-validate", "m.cpp", "-j2"});
///   if (!CL) { llvm::errs() << "graphify-validate: " << llvm::toString(CL.takeError()) << "\n"; return 2; }
///   auto Summary = graphify::validate::runValidation(CL->Run, llvm::errs());
/// \endcode

#include "graphify/validate/Validator.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace graphify::validate {

/// Every flag of graphify-validate: what the validation needs, plus how the tool reports.
struct ValidateCommandLine {
  ValidateOptions Run;  ///< files, entries and inputs, trials, runtime, device, tolerances, jobs...
  bool Json = false;    ///< --format=json
  bool Quiet = false;   ///< --quiet: no progress lines on stderr
  bool Help = false;    ///< --help
};

/// Parses `Argv` (Argv[0] is the program name). Usage errors read `error: ...` and end with a
/// pointer to --help; a bad `--input` spec comes back as the spec parser's located error.
llvm::Expected<ValidateCommandLine> parseValidateCommandLine(llvm::ArrayRef<const char *> Argv);

/// The --help text.
std::string validateHelpText();

/// graphify-validate's main: parse, validate, report. Returns the exit status (0 every entry
/// passed, 1 otherwise, 2 usage errors, bad specs, unknown entries, compile errors).
int runValidateTool(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace graphify::validate
