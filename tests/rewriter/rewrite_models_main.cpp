// Build-time helper for the model equivalence test: fixes every model under testdata/models/
// (through the same analyse/attachFixes/applyFixes path as graphify-lint --fix) and writes
//   <out>/fixed/<model>.cpp     the fixed source (identical to the original when nothing was fixed)
//   <out>/e2e_main.cpp          one program that includes each original and fixed model in its own
//                               namespace and runs both on inputs built from `// graphify-entry:`
// Usage: graphify_rewrite_models <out-dir> <model.cpp>...
#include "RewriteHarness.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace {

struct Input {
  std::string Name, Dtype;
  std::vector<std::string> Dims;
  std::string Lo, Hi;
};

struct Entry {
  std::string Name;
  bool IsModule = false;
  std::vector<Input> Inputs;
};

std::vector<std::string> splitTopLevel(llvm::StringRef S) {
  std::vector<std::string> Out;
  int Depth = 0;
  std::string Cur;
  for (char C : S) {
    if (C == '[')
      ++Depth;
    if (C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      Out.push_back(llvm::StringRef(Cur).trim().str());
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!llvm::StringRef(Cur).trim().empty())
    Out.push_back(llvm::StringRef(Cur).trim().str());
  return Out;
}

std::vector<Entry> parseEntries(llvm::StringRef Code, int &Malformed) {
  std::vector<Entry> Entries;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Code.split(Lines, '\n');
  // The value range as graphify-validate spells it: `in [lo, hi]` or `@lo:hi`.
  llvm::Regex InputRe("^([A-Za-z_][A-Za-z0-9_]*): *(f32|f64|i32|i64|bool)\\[([0-9, ]*)\\]"
                      "( *in *\\[ *(-?[0-9.]+) *, *(-?[0-9.]+) *\\]| *@(-?[0-9.]+):(-?[0-9.]+))?$");
  llvm::Regex StructRe("^ *struct +([A-Za-z_][A-Za-z0-9_]*)");
  llvm::Regex FuncRe("([A-Za-z_][A-Za-z0-9_]*) *\\($");
  for (size_t I = 0; I < Lines.size(); ++I) {
    size_t P = Lines[I].find("// graphify-entry:");
    if (P == llvm::StringRef::npos || I + 1 >= Lines.size())
      continue;
    Entry E;
    for (const std::string &Part : splitTopLevel(Lines[I].substr(P + strlen("// graphify-entry:")))) {
      llvm::SmallVector<llvm::StringRef, 8> M;
      if (!InputRe.match(Part, &M)) {
        // An input left out would build the call with too few arguments, far from the cause.
        llvm::errs() << "error: graphify-entry input '" << Part << "' is not 'name: dtype[dims]' with an optional "
                     << "'in [lo, hi]' or '@lo:hi'\n";
        ++Malformed;
        continue;
      }
      bool At = !M[7].empty();
      Input In{M[1].str(), M[2].str(), {}, (At ? M[7] : M[5]).str(), (At ? M[8] : M[6]).str()};
      llvm::SmallVector<llvm::StringRef, 4> Dims;
      M[3].split(Dims, ',', -1, false);
      for (llvm::StringRef D : Dims)
        In.Dims.push_back(D.trim().str());
      E.Inputs.push_back(In);
    }
    llvm::SmallVector<llvm::StringRef, 4> M;
    // The declaration may span lines (`std::tuple<...>` on one, `name(` on the next): read up to
    // the first parenthesis.
    // Annotations with arguments (`GRAPHIFY_STATIC_BOUND(len, 6)`) come before it and are not it.
    llvm::Regex AnnotationRe("GRAPHIFY_[A-Z_]+ *\\([^)]*\\)");
    std::string Declaration;
    for (size_t J = I + 1; J < Lines.size() && Declaration.find('(') == std::string::npos; ++J) {
      std::string Line = Lines[J].str();
      while (AnnotationRe.match(Line))
        Line = AnnotationRe.sub("", Line);
      Declaration += Line + " ";
    }
    if (StructRe.match(Lines[I + 1], &M)) {
      E.Name = M[1].str();
      E.IsModule = true;
    } else if (size_t Paren = Declaration.find('('); Paren != std::string::npos &&
                                                   FuncRe.match(llvm::StringRef(Declaration).substr(0, Paren + 1), &M)) {
      E.Name = M[1].str();
    }
    if (E.Name.empty())
      llvm::errs() << "error: a graphify-entry comment is not followed by a function or struct: " << Lines[I + 1]
                   << "\n", ++Malformed;
    else
      Entries.push_back(E);
  }
  return Entries;
}

std::string dtypeOf(const std::string &D) {
  if (D == "f32")
    return "torch::kFloat";
  if (D == "f64")
    return "torch::kDouble";
  if (D == "i32")
    return "torch::kInt";
  if (D == "i64")
    return "torch::kLong";
  return "torch::kBool";
}

std::string ident(llvm::StringRef S) {
  std::string Out = S.str();
  for (char &C : Out)
    if (!llvm::isAlnum(C))
      C = '_';
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: graphify_rewrite_models <out-dir> <model.cpp>...\n";
    return 2;
  }
  std::string Out = argv[1];
  llvm::sys::fs::create_directories(Out + "/fixed");
  std::string Main;
  llvm::raw_string_ostream OS(Main);
  OS << "// Generated by graphify_rewrite_models: original vs fixed seed models on LibTorch.\n"
     << "#include <torch/torch.h>\n#include <graphify/annotations.h>\n#include <cstring>\n#include <iostream>\n"
     << "#include \"" << GRAPHIFY_TEST_SOURCE_DIR << "/e2e_support.h\"\n\n";
  std::string Dispatch;
  int Failed = 0;
  for (int I = 2; I < argc; ++I) {
    std::string Path = argv[I];
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer) {
      llvm::errs() << Path << ": cannot read\n";
      return 2;
    }
    std::string Code = (*Buffer)->getBuffer().str();
    graphify::test::RewriteRun Run = graphify::test::rewriteSource(Path, Code);
    if (!Run.ParseErrors.empty()) {
      llvm::errs() << Path << ": does not parse:\n" << Run.ParseErrors;
      ++Failed;
    }
    std::string Stem = ident(llvm::sys::path::stem(Path));
    std::string FixedPath = Out + "/fixed/" + llvm::sys::path::filename(Path).str();
    {
      std::error_code EC;
      llvm::raw_fd_ostream F(FixedPath, EC);
      F << Run.Fixed;
    }
    bool Changed = Run.Fixed != Code;
    llvm::errs() << Path << ": " << (Changed ? "fixed" : "no fix") << "\n";
    OS << "namespace e2e_orig_" << Stem << " {\n#include \"" << Path << "\"\n}\n";
    OS << "namespace e2e_fixed_" << Stem << " {\n#include \"" << FixedPath << "\"\n}\n";
    OS << "static int run_" << Stem << "() {\n  int Mismatches = 0;\n";
    if (!Changed)
      OS << "  return 77; // nothing was fixed: nothing to compare\n";
    const std::vector<Entry> Entries = parseEntries(Code, Failed);
    if (Changed && Entries.empty()) {
      // A fixed model with nothing to run would pass without comparing anything.
      llvm::errs() << Path << ": fixed, but no graphify-entry names a function to compare\n";
      ++Failed;
    }
    for (const Entry &E : Entries) {
      OS << "  for (int Trial = 0; Trial < e2e::kTrials; ++Trial) {\n";
      std::vector<std::string> Names;
      for (const Input &In : E.Inputs) {
        OS << "    torch::Tensor " << In.Name << " = e2e::makeInput(" << dtypeOf(In.Dtype) << ", {";
        for (size_t K = 0; K < In.Dims.size(); ++K)
          OS << (K ? ", " : "") << In.Dims[K];
        OS << "}, Trial, " << (In.Lo.empty() ? "0" : In.Lo) << ", " << (In.Hi.empty() ? "0" : In.Hi) << ", "
           << (In.Lo.empty() ? "false" : "true") << ");\n";
        Names.push_back(In.Name);
      }
      auto CallWith = [&](const std::string &NS, const std::string &Suffix) {
        std::string Args;
        for (size_t K = 0; K < Names.size(); ++K) {
          OS << "    torch::Tensor " << Names[K] << Suffix << " = " << Names[K] << ".clone();\n";
          Args += (K ? ", " : "") + Names[K] + Suffix;
        }
        if (E.IsModule)
          return "[&] { torch::manual_seed(7); " + NS + "::" + E.Name + " M; return M.forward(" + Args + "); }";
        return "[&] { return " + NS + "::" + E.Name + "(" + Args + "); }";
      };
      std::string A = CallWith("e2e_orig_" + Stem, "_orig"), B = CallWith("e2e_fixed_" + Stem, "_fixed");
      OS << "    Mismatches += !e2e::sameOutcome(\"" << E.Name << "\", Trial, " << A << ", " << B << ");\n";
      for (const std::string &N : Names)
        OS << "    Mismatches += !e2e::sameTensor(\"" << E.Name << " input " << N << " after the call\", Trial, " << N
           << "_orig, " << N << "_fixed);\n";
      OS << "  }\n";
    }
    OS << "  return Mismatches == 0 ? 0 : 1;\n}\n\n";
    Dispatch += "  if (!std::strcmp(argv[1], \"" + Stem + "\")) return run_" + Stem + "();\n";
  }
  OS << "int main(int argc, char **argv) {\n  if (argc < 2) return 2;\n" << Dispatch
     << "  std::cerr << \"unknown model \" << argv[1] << \"\\n\";\n  return 2;\n}\n";
  OS.flush();
  std::error_code EC;
  llvm::raw_fd_ostream F(Out + "/e2e_main.cpp", EC);
  F << Main;
  return Failed ? 1 : 0;
}
