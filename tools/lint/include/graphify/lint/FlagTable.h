#pragma once
/// \file
/// The command-line machinery of graphify's tools: each flag is declared once, in a table, next
/// to the options field it fills, and both parsing and --help come from that table, so they
/// cannot drift. Parsing has no global state (unlike llvm::cl) and never exits: errors come back
/// as llvm::Error, and only a tool's main turns them into exit code 2.
///
/// Syntax, as clang-tidy's: `--flag=value`, `--flag value`, `-flag` for `--flag`, one-letter
/// flags glued to their value (`-j4`, `-pbuild`), `-h` for `--help`, `@<file>` for the arguments
/// in <file> (GNU quoting, as GCC's and Clang's response files: for the long file lists a build
/// system passes), and everything after `--` handed over as compiler arguments (a compiler reads
/// its own response files).
///
/// \code
///   static const std::vector<graphify::Flag<MyOptions>> Table = {
///       {"jobs", "N", "parallel jobs", [](MyOptions &O, llvm::StringRef V) { ... }},
///   };
///   MyOptions O;
///   if (llvm::Error E = graphify::parseFlags<MyOptions>(Argv, Table, O, OnFile, OnCompilerArgs)) ...
///   llvm::outs() << graphify::flagHelp<MyOptions>(Table);
/// \endcode

#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <string>
#include <vector>

namespace graphify {

/// One flag of a tool.
template <typename Options> struct Flag {
  const char *Name;      ///< without dashes; one letter for a short flag (`-j`)
  const char *ValueName; ///< shown in --help; null for a switch that takes no value
  const char *Help;      ///< one line
  std::function<llvm::Error(Options &, llvm::StringRef Value)> Apply;
};

/// A command-line usage error, worded `error: <message>`.
inline llvm::Error flagUsageError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "error: " + Message.str());
}

/// Parses `Argv` (Argv[0] is the program) into `O` with `Table`; arguments that are not flags go
/// to `OnPositional`, those after `--` to `OnCompilerArgs`. The callbacks copy what they keep.
template <typename Options>
llvm::Error parseFlags(llvm::ArrayRef<const char *> Given, llvm::ArrayRef<Flag<Options>> Table, Options &O,
                       llvm::function_ref<void(Options &, llvm::StringRef)> OnPositional,
                       llvm::function_ref<void(Options &, llvm::ArrayRef<const char *>)> OnCompilerArgs) {
  // Response files before `--` are expanded in place.
  const auto DashDash = llvm::find_if(Given, [](const char *A) { return llvm::StringRef(A) == "--"; });
  llvm::SmallVector<const char *, 32> Args(Given.begin(), DashDash);
  llvm::BumpPtrAllocator Strings;
  if (llvm::any_of(Args, [](const char *A) { return A[0] == '@'; })) {
    llvm::cl::ExpansionContext Expand(Strings, llvm::cl::TokenizeGNUCommandLine);
    if (llvm::Error E = Expand.expandResponseFiles(Args))
      return flagUsageError(llvm::toString(std::move(E)));
  }
  Args.append(DashDash, Given.end());
  llvm::ArrayRef<const char *> Argv = Args;
  auto Find = [&](llvm::StringRef Name) -> const Flag<Options> * {
    for (const Flag<Options> &F : Table)
      if (Name == F.Name)
        return &F;
    return nullptr;
  };
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--") {
      OnCompilerArgs(O, Argv.drop_front(I + 1));
      break;
    }
    if (!Arg.starts_with("-") || Arg == "-") {
      OnPositional(O, Arg);
      continue;
    }
    if (Arg == "-h")
      Arg = "--help";
    llvm::StringRef Body = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Name, Value] = Body.split('=');
    bool HasValue = Body.contains('=');
    const Flag<Options> *F = Find(Name);
    if (!F && !Arg.starts_with("--") && Body.size() > 1 && !HasValue) {
      // A one-letter flag glued to its value: -j4, -pbuild.
      if (const Flag<Options> *Short = Find(Body.take_front(1)); Short && Short->ValueName) {
        F = Short;
        Value = Body.drop_front(1);
        HasValue = true;
      }
    }
    if (!F) {
      std::vector<std::string> Names;
      for (const Flag<Options> &Known : Table)
        Names.push_back(Known.Name);
      std::string Suggestion = closestMatch(Name, Names);
      return flagUsageError(llvm::formatv("unknown option '{0}'{1}; see --help", Arg,
                                          Suggestion.empty() ? std::string()
                                                             : "; did you mean '--" + Suggestion + "'?"));
    }
    if (!F->ValueName) {
      if (HasValue)
        return flagUsageError(llvm::formatv("option '--{0}' takes no value", F->Name));
      if (llvm::Error E = F->Apply(O, ""))
        return E;
      continue;
    }
    if (!HasValue) {
      if (I + 1 >= Argv.size())
        return flagUsageError(llvm::formatv("option '{0}' expects a value ({1})", Arg, F->ValueName));
      Value = Argv[++I];
    }
    if (llvm::Error E = F->Apply(O, Value))
      return E;
  }
  return llvm::Error::success();
}

/// The OPTIONS block of --help: one line per flag, in table order.
template <typename Options> std::string flagHelp(llvm::ArrayRef<Flag<Options>> Table) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const Flag<Options> &F : Table) {
    bool Short = llvm::StringRef(F.Name).size() == 1;
    std::string Spelling = std::string(Short ? "-" : "--") + F.Name;
    if (F.ValueName)
      Spelling += (Short ? " <" : "=<") + std::string(F.ValueName) + ">";
    OS << "  " << llvm::left_justify(Spelling, 34) << " " << F.Help << "\n";
  }
  return S;
}

} // namespace graphify
