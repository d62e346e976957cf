// Plan: parse every model file (the entries and the rewrite, through the lint pipeline), then
// decide which entries run and with which inputs. Nothing is written yet, so a mistake in the
// command line or an entry comment costs no build.
#include "Pipeline.h"

#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace graphify::validate::pipeline {

namespace {

/// Checks the inputs against the entry's parameters; `Where` names the source of the specs.
llvm::Error checkInputs(const EntryDecl &D, const std::vector<InputSpec> &Specs, const std::string &Where) {
  std::string Params = llvm::join(D.Params, ", ");
  if (!D.UnsupportedReturn.empty())
    return error(Where + ": error: entry '" + D.Name + "' returns '" + D.UnsupportedReturn +
                 "'; graphify-validate compares tensors: return a tensor, a number, or a tuple, pair or vector "
                 "of those");
  if (Specs.size() > D.Params.size())
    return error(Where + ": error: entry '" + D.Name + "' takes " + llvm::Twine(D.Params.size()) + " parameter" +
                 (D.Params.size() == 1 ? "" : "s") + " (" + Params + ") but " + llvm::Twine(Specs.size()) +
                 " inputs were given");
  if (Specs.size() < D.RequiredParams)
    return error(Where + ": error: entry '" + D.Name + "' needs " + llvm::Twine(D.RequiredParams) + " input" +
                 (D.RequiredParams == 1 ? "" : "s") + " (" + Params + ") but " + llvm::Twine(Specs.size()) +
                 (Specs.size() == 1 ? " was" : " were") + " given");
  for (size_t I = 0; I < Specs.size(); ++I) {
    if (Specs[I].Name != D.Params[I])
      return error(Where + ": error: input '" + Specs[I].Name + "' does not match parameter " + llvm::Twine(I + 1) +
                   " of '" + D.Name + "', which is '" + D.Params[I] + "' (inputs follow the parameter order: " +
                   Params + ")");
    if (!D.ParamIsTensor[I])
      return error(Where + ": error: parameter '" + D.Params[I] + "' of '" + D.Name +
                   "' is not a tensor; graphify-validate only passes tensors");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<ModelInfo>> parseModels(const ValidateOptions &Opts, const Setup &S,
                                                   llvm::raw_ostream &Log) {
  std::vector<std::string> Requested;
  for (const EntryRequest &R : Opts.Entries)
    Requested.push_back(R.Name);
  // In parallel: parsing through the tensor headers is the slowest step left once the harnesses
  // are cached.
  std::vector<std::string> AbsPaths;
  for (const std::string &File : Opts.Files) {
    // Before anything is read or parsed: a FIFO, a device or a directory is an error now.
    if (llvm::Error E = checkModelFile(File))
      return std::move(E);
    llvm::SmallString<256> Abs(File);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    AbsPaths.push_back(std::string(Abs));
  }
  Log << "graphify-validate: parsing " << Opts.Files.size() << " file" << (Opts.Files.size() == 1 ? "" : "s") << "\n";
  Log.flush();
  std::vector<ModelInfo> Models(Opts.Files.size());
  std::vector<std::string> ParseErrors(Opts.Files.size());
  parallelFor(Opts.Files.size(), S.Jobs, [&](size_t F) {
    auto M = loadModel({AbsPaths[F], S.ParseArgs, S.RulesDir, Requested});
    if (M)
      Models[F] = std::move(*M);
    else
      ParseErrors[F] = llvm::toString(M.takeError());
  });
  for (const std::string &E : ParseErrors)
    if (!E.empty())
      return error(E);
  return Models;
}

llvm::Expected<std::vector<Planned>> planEntries(const ValidateOptions &Opts, const std::vector<ModelInfo> &Models,
                                                 llvm::raw_ostream &Log) {
  std::vector<Planned> Plan;
  auto AddEntry = [&](size_t FileIndex, const EntryDecl &D, const std::vector<InputSpec> &Given) -> llvm::Error {
    Planned P;
    P.FileIndex = FileIndex;
    P.Model = &Models[FileIndex];
    P.Decl = &D;
    P.DisplayFile = Opts.Files[FileIndex];
    if (!Given.empty()) {
      P.Inputs = Given;
      if (auto E = checkInputs(D, Given, "--entry " + D.Name))
        return E;
    } else if (D.SpecText) {
      std::string Where = P.DisplayFile + ":" + std::to_string(D.SpecLine);
      auto Specs = parseEntryComment(*D.SpecText, Where, D.SpecColumn);
      if (!Specs)
        return Specs.takeError();
      P.Inputs = std::move(*Specs);
      if (auto E = checkInputs(D, P.Inputs, Where))
        return E;
    } else if (D.RequiredParams > 0) {
      return error("--entry " + D.Name + ": error: '" + D.Name + "' has no '// graphify-entry:' comment; give its " +
                   "inputs with --input after --entry (parameters: " + llvm::join(D.Params, ", ") + ")");
    }
    Plan.push_back(std::move(P));
    return llvm::Error::success();
  };
  if (Opts.Entries.empty()) {
    for (size_t F = 0; F < Models.size(); ++F) {
      auto Annotated = Models[F].annotated();
      if (Annotated.empty())
        Log << "graphify-validate: " << Opts.Files[F] << ": no '// graphify-entry:' comment; nothing to validate\n";
      for (const EntryDecl *D : Annotated)
        if (auto E = AddEntry(F, *D, {}))
          return std::move(E);
    }
    if (Plan.empty())
      return error("no entries to validate: annotate one with '// graphify-entry: x: f32[3]' or name it with "
                   "--entry NAME --input x=f32[3]");
  } else {
    for (const EntryRequest &R : Opts.Entries) {
      bool Found = false;
      for (size_t F = 0; F < Models.size() && !Found; ++F)
        if (const EntryDecl *D = Models[F].find(R.Name)) {
          if (auto E = AddEntry(F, *D, R.Inputs))
            return std::move(E);
          Found = true;
        }
      if (!Found) {
        std::vector<std::string> Names;
        for (const ModelInfo &M : Models)
          for (const EntryDecl &D : M.Decls)
            Names.push_back(D.Name);
        return error("unknown entry '" + R.Name + "'" + didYouMean(R.Name, Names) + "; " +
                     (Names.empty() ? std::string("the file declares no function or module with a forward")
                                    : "candidates: " + llvm::join(Names, ", ")));
      }
    }
  }
  return Plan;
}

} // namespace graphify::validate::pipeline
