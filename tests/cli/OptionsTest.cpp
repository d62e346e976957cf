// Command-line parsing, check globs, configuration parsing and the shared-PCH prefix logic, in
// process.
#include "CliTestUtil.h"

#include "graphify/lint/Config.h"
#include "graphify/lint/CudaCommand.h"
#include "graphify/lint/NvccCommand.h"
#include "graphify/lint/Options.h"
#include "graphify/lint/Preamble.h"

#include <llvm/ADT/StringExtras.h>

using namespace graphify;

namespace {

TEST(Options, FlagsAndCompilerArgs) {
  auto O = parseLintOptions({"graphify-lint", "-p", "build", "-j4", "--checks=-*,graphify-host-sync", "--format",
                             "sarif", "a.cpp", "b.cpp", "--rules=x.yaml", "--rules", "y.yaml", "--", "-DX", "-std=c++20"});
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->BuildPath, "build");
  EXPECT_EQ(O->Jobs, 4u);
  EXPECT_EQ(*O->Checks, "-*,graphify-host-sync");
  EXPECT_EQ(O->Format, OutputFormat::Sarif);
  EXPECT_EQ(O->Files, (std::vector<std::string>{"a.cpp", "b.cpp"}));
  EXPECT_EQ(O->RuleFiles, (std::vector<std::string>{"x.yaml", "y.yaml"}));
  EXPECT_TRUE(O->HasCompilerArgs);
  EXPECT_EQ(O->CompilerArgs, (std::vector<std::string>{"-DX", "-std=c++20"}));
}

TEST(Options, Errors) {
  auto Unknown = parseLintOptions({"graphify-lint", "--lst-checks"});
  ASSERT_FALSE(bool(Unknown));
  EXPECT_NE(llvm::toString(Unknown.takeError()).find("did you mean '--list-checks'"), std::string::npos);
  auto Missing = parseLintOptions({"graphify-lint", "-p"});
  ASSERT_FALSE(bool(Missing));
  llvm::consumeError(Missing.takeError());
  auto BadEnum = parseLintOptions({"graphify-lint", "--profile=trcae"});
  ASSERT_FALSE(bool(BadEnum));
  EXPECT_NE(llvm::toString(BadEnum.takeError()).find("did you mean 'trace'"), std::string::npos);
  auto BoolWithValue = parseLintOptions({"graphify-lint", "--quiet=yes"});
  ASSERT_FALSE(bool(BoolWithValue));
  llvm::consumeError(BoolWithValue.takeError());
}

TEST(Globs, ClangTidySemantics) {
  GlobList L("-*,graphify-host-sync, graphify-data-*,-graphify-data-dependent-loop");
  EXPECT_TRUE(L.contains("graphify-host-sync"));
  EXPECT_TRUE(L.contains("graphify-data-dependent-branch"));
  EXPECT_FALSE(L.contains("graphify-data-dependent-loop"));
  EXPECT_FALSE(L.contains("graphify-dynamic-shape"));
  EXPECT_FALSE(GlobList("").contains("graphify-host-sync"));
  EXPECT_TRUE(matchesGlob("*::forward", "Model::forward"));
  EXPECT_TRUE(matchesGlob("a*b*c", "aXbYbc"));
  EXPECT_FALSE(matchesGlob("a*b", "ab-"));
}

TEST(ConfigParse, AllKeys) {
  auto C = parseConfig("Checks: '-*,graphify-host-sync'\nProfile: trace\nScope: all\nGraphRegions: ['*::step', f]\n"
                       "RulePacks: [packs/x.yaml]\nWarningsAsErrors: 'graphify-*'\nHeaderFilterRegex: 'model/.*'\n"
                       "StaticBounds: {'decode::len': 64, '*::Beam::step::max_steps': 128}\n",
                       "/p/.graphify.yaml", "/p");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Checks, "-*,graphify-host-sync");
  EXPECT_EQ(C->ProfileKind, Profile::Trace);
  EXPECT_EQ(C->ScopeKind, Scope::All);
  EXPECT_EQ(C->GraphRegions, (std::vector<std::string>{"*::step", "f"}));
  EXPECT_EQ(C->RulePacks, (std::vector<std::string>{"/p/packs/x.yaml"}));
  EXPECT_EQ(C->WarningsAsErrors, "graphify-*");
  EXPECT_EQ(C->HeaderFilterRegex, "model/.*");
  ASSERT_EQ(C->StaticBounds.size(), 2u);
  EXPECT_EQ(C->StaticBounds[0].Function, "decode");
  EXPECT_EQ(C->StaticBounds[0].Name, "len");
  EXPECT_EQ(C->StaticBounds[0].Bound, 64);
  EXPECT_EQ(C->StaticBounds[1].Function, "*::Beam::step");
  EXPECT_EQ(C->StaticBounds[1].Name, "max_steps");
  EXPECT_EQ(C->StaticBounds[1].Bound, 128);
  // What --dump-config prints reads back as the same configuration.
  auto Again = parseConfig(dumpConfig(*C), "dump", "/");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(dumpConfig(*Again).substr(dumpConfig(*Again).find('\n')), dumpConfig(*C).substr(dumpConfig(*C).find('\n')));
}

// Found by fuzz_config: --dump-config output must read back. The default's empty
// HeaderFilterRegex was rejected as an invalid regex, and control characters were written raw.
TEST(ConfigParse, DumpedConfigurationReadsBack) {
  auto Default = parseConfig("", "empty", "/");
  ASSERT_TRUE(bool(Default)) << llvm::toString(Default.takeError());
  auto Again = parseConfig(dumpConfig(*Default), "dump", "/");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(Again->HeaderFilterRegex, "");
  auto Tabs = parseConfig("GraphRegions: [\"a\\tb\"]\nWarningsAsErrors: \"x\\ny\"\n", "tabs", "/");
  ASSERT_TRUE(bool(Tabs)) << llvm::toString(Tabs.takeError());
  auto Back = parseConfig(dumpConfig(*Tabs), "dump", "/");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << dumpConfig(*Tabs);
  EXPECT_EQ(Back->GraphRegions, Tabs->GraphRegions);
  EXPECT_EQ(Back->WarningsAsErrors, "x\ny");
}

TEST(ConfigParse, StrictErrors) {
  auto Unknown = parseConfig("Checks: x\nScpoe: all\n", "c.yaml", "/");
  ASSERT_FALSE(bool(Unknown));
  std::string U = llvm::toString(Unknown.takeError());
  EXPECT_NE(U.find("c.yaml:2:1: error:"), std::string::npos) << U;
  EXPECT_NE(U.find("did you mean 'Scope'"), std::string::npos) << U;
  auto Type = parseConfig("GraphRegions: {a: b}\n", "c.yaml", "/");
  ASSERT_FALSE(bool(Type));
  EXPECT_NE(llvm::toString(Type.takeError()).find("c.yaml:1:"), std::string::npos);
  auto Regex = parseConfig("HeaderFilterRegex: '('\n", "c.yaml", "/");
  ASSERT_FALSE(bool(Regex));
  EXPECT_NE(llvm::toString(Regex.takeError()).find("c.yaml:1:20: error: invalid HeaderFilterRegex"), std::string::npos);
  auto Syntax = parseConfig("Checks: [\n", "c.yaml", "/");
  ASSERT_FALSE(bool(Syntax));
  EXPECT_NE(llvm::toString(Syntax.takeError()).find("c.yaml:"), std::string::npos);
}

// A static bound that is not '<function>::<variable>: <positive integer>' is an error at its
// place, never a bound silently dropped.
TEST(ConfigParse, StaticBoundsErrors) {
  auto Error = [](const char *Text) {
    auto C = parseConfig(Text, "c.yaml", "/");
    return C ? std::string("accepted") : llvm::toString(C.takeError());
  };
  std::string NoSep = Error("StaticBounds:\n  len: 4\n");
  EXPECT_NE(NoSep.find("c.yaml:2:3: error: invalid StaticBounds key 'len': expected '<function>::<variable>'"),
            std::string::npos)
      << NoSep;
  std::string NotName = Error("StaticBounds: {'f::a-b': 4}\n");
  EXPECT_NE(NotName.find("'a-b' is not a variable name"), std::string::npos) << NotName;
  std::string BadGlob = Error("StaticBounds: {'f[::n': 4}\n");
  EXPECT_NE(BadGlob.find("invalid function glob 'f['"), std::string::npos) << BadGlob;
  std::string Zero = Error("StaticBounds: {'f::n': 0}\n");
  EXPECT_NE(Zero.find("c.yaml:1:24: error: the static bound of 'f::n' must be a positive integer"), std::string::npos)
      << Zero;
  std::string Text = Error("StaticBounds: {'f::n': many}\n");
  EXPECT_NE(Text.find("c.yaml:1:"), std::string::npos) << Text;
  std::string List = Error("StaticBounds: ['f::n']\n");
  EXPECT_NE(List.find("c.yaml:1:15: error: 'StaticBounds' must be a map"), std::string::npos) << List;
  std::string Twice = Error("StaticBounds:\n  'f::n': 4\n  'f::n': 8\n");
  EXPECT_NE(Twice.find("c.yaml:3:3: error: duplicate key 'f::n'"), std::string::npos) << Twice;
}

TEST(SharedPch, LeadingIncludes) {
  test::ScratchDir D;
  D.file("local.h", "#pragma once\n");
  std::string Src = D.file("a.cpp", "// header comment\n/* block\n comment */\n#include <torch/torch.h>\n"
                                    "#  include \"local.h\" // why\n\n#include \"elsewhere.h\"\n#define X 1\n"
                                    "#include <vector>\n");
  auto I = leadingIncludes(test::readFile(Src), Src);
  EXPECT_EQ(I, (std::vector<std::string>{"#include <torch/torch.h>", "#include \"" + D.Path + "/local.h\"",
                                         "#include \"elsewhere.h\""}));
  EXPECT_TRUE(leadingIncludes("int x;\n#include <vector>\n", Src).empty());
  EXPECT_EQ(commonPrefix({{"a", "b", "c"}, {"a", "b"}, {"a", "b", "d"}}), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(commonPrefix({{"a"}, {"b"}}).empty());
}

TEST(SharedPch, KeyDependsOnFlagsAndIncludes) {
  std::string K1 = PchCache::key({"clang", "-std=c++17"}, {"#include <vector>"});
  EXPECT_EQ(K1, PchCache::key({"clang", "-std=c++17"}, {"#include <vector>"}));
  EXPECT_NE(K1, PchCache::key({"clang", "-std=c++20"}, {"#include <vector>"}));
  EXPECT_NE(K1, PchCache::key({"clang", "-std=c++17"}, {"#include <map>"}));
}

} // namespace

TEST(CudaCommand, EmptyCommandIsLeftEmpty) { // found by fuzz_compile_db
  EXPECT_TRUE(cudaHostSyntaxCommand({}, "k.cu").empty());
}

TEST(CudaCommand, CppCommandsAreUntouched) {
  std::vector<std::string> Cmd = {"clang++", "-std=c++17", "-Iinc", "model.cpp"};
  EXPECT_FALSE(isCudaCommand(Cmd, "model.cpp"));
  EXPECT_EQ(cudaHostSyntaxCommand(Cmd, "model.cpp"), Cmd);
}

TEST(CudaCommand, CuFilesParseHostSideWithTheToolkit) {
  std::vector<std::string> Cmd = {"clang++", "-std=c++17", "kernels.cu"};
  ASSERT_TRUE(isCudaCommand(Cmd, "kernels.cu"));
  std::vector<std::string> Out = cudaHostSyntaxCommand(Cmd, "kernels.cu");
  EXPECT_EQ(Out.front(), "clang++");
  EXPECT_EQ(Out.back(), "kernels.cu");
  EXPECT_TRUE(llvm::is_contained(Out, "--cuda-host-only"));
  EXPECT_TRUE(llvm::any_of(Out, [](llvm::StringRef A) { return A.starts_with("--cuda-path="); }));
  EXPECT_FALSE(llvm::is_contained(Out, "-x")) << "a .cu file is CUDA by its extension";
  // A header and an explicit --cuda-path: the language must be named, the path kept.
  std::vector<std::string> Header = cudaHostSyntaxCommand({"clang++", "--cuda-path=/opt/cuda", "ops.cuh"}, "ops.cuh");
  auto X = std::find(Header.begin(), Header.end(), "-x");
  ASSERT_NE(X, Header.end());
  EXPECT_EQ(*(X + 1), "cuda");
  EXPECT_LT(X - Header.begin(), std::find(Header.begin(), Header.end(), "ops.cuh") - Header.begin());
  EXPECT_EQ(llvm::count_if(Header, [](llvm::StringRef A) { return A.starts_with("--cuda-path="); }), 1);
}

TEST(CudaCommand, NvccCommandsKeepOnlyWhatClangUnderstands) {
  std::vector<std::string> Cmd = {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DUSE_GRAPHS=1",
                                  "-I/src/include", "-isystem=/opt/lib/include", "-x", "cu", "--std=c++17",
                                  "-gencode", "arch=compute_80,code=sm_80", "-Xcompiler=-fPIC", "-include", "pre.h",
                                  "-o", "k.cu.o", "-c", "/src/k.cu"};
  std::vector<std::string> Out = cudaHostSyntaxCommand(Cmd, "/src/k.cu");
  for (llvm::StringRef Kept : {"-DUSE_GRAPHS=1", "-I/src/include", "-std=c++17", "-include", "pre.h", "/src/k.cu"})
    EXPECT_TRUE(llvm::is_contained(Out, Kept)) << Kept.str();
  auto Isystem = std::find(Out.begin(), Out.end(), "-isystem");
  ASSERT_NE(Isystem, Out.end());
  EXPECT_EQ(*(Isystem + 1), "/opt/lib/include");
  for (llvm::StringRef Dropped : {"-forward-unknown-to-host-compiler", "cu", "-gencode", "arch=compute_80,code=sm_80",
                                  "-Xcompiler=-fPIC", "k.cu.o", "--std=c++17"})
    EXPECT_FALSE(llvm::is_contained(Out, Dropped)) << Dropped.str();
  EXPECT_EQ(Out.front(), "clang++");
}

namespace {

/// The translated command's flags (between `clang++` and the file), and the problems.
struct Translated {
  std::vector<std::string> Flags;
  std::vector<std::string> Problems;
};

Translated nvcc(std::vector<std::string> Flags, llvm::StringRef Directory = "") {
  Flags.insert(Flags.begin(), "/usr/local/cuda/bin/nvcc");
  Flags.insert(Flags.end(), {"-c", "/src/k.cu"});
  NvccTranslation T = translateNvccCommand(Flags, "/src/k.cu", Directory);
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_EQ(T.Args.back(), "/src/k.cu");
  return {std::vector<std::string>(T.Args.begin() + 1, T.Args.end() - 1), T.Problems};
}

using Flags = std::vector<std::string>;

} // namespace

TEST(CudaCommand, NvccMacrosInEverySpelling) {
  EXPECT_EQ(nvcc({"--define-macro", "A", "--define-macro=B=2", "-D", "C", "-DD", "-D=E"}).Flags,
            (Flags{"-DA", "-DB=2", "-DC", "-DD", "-DE"}));
  // nvcc splits list-valued options at commas.
  EXPECT_EQ(nvcc({"--define-macro=A,B"}).Flags, (Flags{"-DA", "-DB"}));
  EXPECT_EQ(nvcc({"--undefine-macro", "A", "--undefine-macro=B", "-UC"}).Flags, (Flags{"-UA", "-UB", "-UC"}));
}

TEST(CudaCommand, NvccPathsAndIncludesInEverySpelling) {
  EXPECT_EQ(nvcc({"--include-path", "/a", "--include-path=/b,/c", "-I/d", "-I", "/e"}).Flags,
            (Flags{"-I/a", "-I/b", "-I/c", "-I/d", "-I/e"}));
  EXPECT_EQ(nvcc({"--system-include", "/s", "--system-include=/t", "-isystem=/u", "-isystem", "/v"}).Flags,
            (Flags{"-isystem", "/s", "-isystem", "/t", "-isystem", "/u", "-isystem", "/v"}));
  EXPECT_EQ(nvcc({"--pre-include", "a.h", "--pre-include=b.h", "-include", "c.h"}).Flags,
            (Flags{"-include", "a.h", "-include", "b.h", "-include", "c.h"}));
  EXPECT_EQ(nvcc({"--std", "c++20"}).Flags, Flags{"-std=c++20"});
  EXPECT_EQ(nvcc({"--std=c++17"}).Flags, Flags{"-std=c++17"});
  EXPECT_EQ(nvcc({"-std=c++14"}).Flags, Flags{"-std=c++14"});
}

TEST(CudaCommand, NvccHostCompilerOptions) {
  Translated T = nvcc({"-Xcompiler", "-DA,-fopenmp", "-Xcompiler=-DB,-Wall,-Werror", "--compiler-options=-DC",
                       "--compiler-options", "-include,pre.h"});
  EXPECT_EQ(T.Flags, (Flags{"-DA", "-fopenmp", "-DB", "-DC", "-include", "pre.h"})) << "warnings are not findings";
  EXPECT_TRUE(T.Problems.empty());
  // Host flags Clang does not know are named, not dropped in silence.
  Translated Unknown = nvcc({"-Xcompiler=-fno-such-flag,-DA"});
  EXPECT_EQ(Unknown.Flags, Flags{"-DA"});
  ASSERT_EQ(Unknown.Problems.size(), 1u);
  EXPECT_NE(Unknown.Problems[0].find("'-fno-such-flag'"), std::string::npos) << Unknown.Problems[0];
  // With -forward-unknown-to-host-compiler, nvcc hands what it does not know to the host compiler.
  EXPECT_EQ(nvcc({"-forward-unknown-to-host-compiler", "-fopenmp", "-DA"}).Flags, (Flags{"-fopenmp", "-DA"}));
}

TEST(CudaCommand, NvccSwitchesThatDefineMacros) {
  EXPECT_EQ(nvcc({"--extended-lambda", "--expt-relaxed-constexpr", "-G", "-rdc=true", "--default-stream",
                  "per-thread", "-noeh"})
                .Flags,
            (Flags{"-D__CUDACC_EXTENDED_LAMBDA__", "-D__CUDACC_RELAXED_CONSTEXPR__", "-D__CUDACC_DEBUG__",
                   "-D__CUDACC_RDC__", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "-fno-exceptions"}));
  EXPECT_TRUE(nvcc({"--relocatable-device-code", "false", "--default-stream=legacy"}).Flags.empty());
}

TEST(CudaCommand, NvccOptionsWithoutEffectAreDroppedQuietlyUnknownOnesAreNamed) {
  Translated Quiet = nvcc({"-gencode", "arch=compute_80,code=sm_80", "-arch=sm_90", "-O3", "-lineinfo", "-g",
                           "--use_fast_math", "-Xptxas", "-v", "-x", "cu", "-o", "k.o", "-MD", "-MF", "k.d",
                           "--threads", "4", "-ccbin", "g++", "--Werror", "all-warnings", "-lcudart"});
  EXPECT_TRUE(Quiet.Flags.empty()) << llvm::join(Quiet.Flags, " ");
  EXPECT_TRUE(Quiet.Problems.empty()) << llvm::join(Quiet.Problems, "\n");
  Translated Unknown = nvcc({"--made-up", "-DA"});
  EXPECT_EQ(Unknown.Flags, Flags{"-DA"});
  ASSERT_EQ(Unknown.Problems.size(), 1u);
  EXPECT_EQ(Unknown.Problems[0], "nvcc option '--made-up' is not known to graphify; it was dropped");
  Translated NoValue = nvcc({});
  EXPECT_TRUE(NoValue.Problems.empty());
}

TEST(CudaCommand, NvccOptionsFiles) {
  test::ScratchDir D;
  D.file("opts.txt", "--define-macro A\n-I \"/with space\" --options-file more.txt\n");
  D.file("more.txt", "-DB\n");
  EXPECT_EQ(nvcc({"--options-file", "opts.txt"}, D.Path).Flags, (Flags{"-DA", "-I/with space", "-DB"}));
  EXPECT_EQ(nvcc({"-optf=" + D.Path + "/more.txt"}).Flags, Flags{"-DB"});
  Translated Missing = nvcc({"--options-file=missing.txt"}, D.Path);
  ASSERT_EQ(Missing.Problems.size(), 1u);
  EXPECT_NE(Missing.Problems[0].find("nvcc options file '" + D.Path + "/missing.txt' (--options-file=missing.txt) "
                                     "cannot be read"),
            std::string::npos)
      << Missing.Problems[0];
}
