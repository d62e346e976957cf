// End-to-end tests of the two promises of docs/reliability.md that are about coverage: a run is
// never a silent "clean" when something was not checked (every compile command of a file, every
// nvcc flag that changes the parse, every glob the user wrote), and nothing the user owns is lost
// (--export-fixes never writes over a file any translation unit reads).
#include "CliTestUtil.h"

#include <llvm/Support/Regex.h>

using namespace graphify::test;

namespace {

/// How often `Needle` occurs in `Haystack`.
size_t count(llvm::StringRef Haystack, llvm::StringRef Needle) { return Haystack.count(Needle); }

bool haveCudaToolkit() { return llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"); }

// A file compiled twice, with and without -DFOO: clang-tidy lints both commands, and so must we;
// the finding both report alike is printed once.
TEST(CliCoverage, EveryCompileCommandOfAFileIsLinted) {
  ScratchDir D;
  std::string Src = D.file("src/step.cpp", "void cudaDeviceSynchronize();\n"
                                           "void cudaStreamSynchronize(void *);\n"
                                           "void step(void *s) {\n"
                                           "#ifdef FOO\n"
                                           "  cudaDeviceSynchronize();\n"
                                           "#endif\n"
                                           "  cudaStreamSynchronize(s);\n"
                                           "}\n");
  D.file("build/compile_commands.json",
         "[{\"directory\": \"" + D.Path + "/build\", \"file\": \"" + Src +
             "\", \"command\": \"/usr/bin/c++ -std=c++17 -DFOO -o a.o -c " + Src + "\"},\n"
             " {\"directory\": \"" + D.Path + "/build\", \"file\": \"" + Src +
             "\", \"command\": \"/usr/bin/c++ -std=c++17 -o b.o -c " + Src + "\"}]\n");
  for (const std::vector<std::string> &Args :
       {std::vector<std::string>{"-p", D.Path + "/build", "--graph-region=step", Src},
        std::vector<std::string>{"-p", D.Path + "/build", "--graph-region=step"}}) {
    RunResult R = lint(Args);
    EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
    EXPECT_NE(R.Out.find(Src + ":5:3: warning: 'cudaDeviceSynchronize'"), std::string::npos)
        << "the -DFOO command's finding\n" << R.Out;
    EXPECT_EQ(count(R.Out, Src + ":7:3: warning: 'cudaStreamSynchronize'"), 1u)
        << "both commands' finding, once\n" << R.Out;
    EXPECT_NE(R.Err.find("graphify-lint: 2 translation units of 1 file checked, 2 findings"), std::string::npos)
        << R.Err;
  }
}

// Each nvcc spelling of a macro, an include path or a host compiler flag reaches the parse: the
// finding under `#ifdef USE_SYNC` is seen in every file (one spelling each).
TEST(CliCoverage, NvccMacrosAndIncludePathsInEverySpellingReachTheParse) {
  if (!haveCudaToolkit())
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  ScratchDir D;
  D.file("inc/sync_config.h", "#define USE_SYNC 1\n");
  D.file("opts.txt", "--define-macro USE_SYNC\n");
  const char *Body = "void step() {\n#ifdef USE_SYNC\n  cudaDeviceSynchronize();\n#endif\n}\n";
  const std::vector<std::pair<std::string, std::string>> Spellings = {
      {"define_separate.cu", "--define-macro USE_SYNC"},
      {"define_joined.cu", "--define-macro=OTHER,USE_SYNC"},
      {"xcompiler_joined.cu", "-Xcompiler=-DOTHER,-DUSE_SYNC"},
      {"xcompiler_separate.cu", "-Xcompiler -DUSE_SYNC"},
      {"compiler_options.cu", "--compiler-options=-DUSE_SYNC"},
      {"options_file.cu", "--options-file opts.txt"},
      {"include_path.cu", "--include-path " + D.Path + "/inc --pre-include sync_config.h"},
      {"include_path_joined.cu", "--include-path=" + D.Path + "/inc --pre-include=sync_config.h"},
      {"system_include.cu", "--system-include " + D.Path + "/inc -include sync_config.h"},
  };
  std::string Db = "[";
  for (const auto &[Name, Flags] : Spellings) {
    std::string Src = D.file(Name, Body);
    Db += std::string(Db.size() > 1 ? ",\n" : "") + "{\"directory\": \"" + D.Path + "\", \"file\": \"" + Src +
          "\", \"command\": \"/usr/local/cuda/bin/nvcc " + Flags + " -std=c++17 -c " + Src + " -o " + Name +
          ".o\"}";
  }
  D.file("compile_commands.json", Db + "]\n");
  RunResult R = lint({"-p", D.Path, "--graph-region=step"});
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  for (const auto &[Name, Flags] : Spellings)
    EXPECT_NE(R.Out.find(D.Path + "/" + Name + ":3:3: warning: 'cudaDeviceSynchronize'"), std::string::npos)
        << Flags << "\n" << R.Out << R.Err;
  EXPECT_EQ(R.Err.find("warning: nvcc option"), std::string::npos) << R.Err;
}

// An nvcc option the translation does not know, and a host flag Clang does not know, are named on
// stderr instead of vanishing; known options without effect on the host parse are not.
TEST(CliCoverage, UntranslatableNvccOptionsAreNamed) {
  if (!haveCudaToolkit())
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  ScratchDir D;
  std::string Src = D.file("k.cu", "int k;\n");
  D.file("compile_commands.json",
         "[{\"directory\": \"" + D.Path + "\", \"file\": \"" + Src +
             "\", \"command\": \"/usr/local/cuda/bin/nvcc --made-up-option -Xcompiler=-fmade-up-host-flag "
             "-gencode arch=compute_80,code=sm_80 -lineinfo -O3 -c " + Src + "\"}]\n");
  RunResult R = lint({"-p", D.Path, Src});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Err.find("graphify-lint: warning: nvcc option '--made-up-option' is not known to graphify; it was "
                       "dropped (in the compile command for '" + Src + "')"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("host compiler option '-fmade-up-host-flag' (passed through nvcc) is not known to Clang"),
            std::string::npos)
      << R.Err;
  for (llvm::StringRef Quiet : {"-gencode", "-lineinfo", "-O3", "compute_80"})
    EXPECT_EQ(R.Err.find(("'" + Quiet + "'").str()), std::string::npos) << Quiet.str() << "\n" << R.Err;
}

// A glob that cannot match (malformed) is a usage error naming it, wherever it was written.
TEST(CliCoverage, MalformedGlobsAreUsageErrors) {
  ScratchDir D;
  std::string Src = D.file("src/m.cpp", "void step() {}\n");
  RunResult Region = lint({"--graph-region=f[", Src, "--", "-std=c++17"});
  EXPECT_EQ(Region.Code, 2);
  EXPECT_NE(Region.Err.find("error: invalid --graph-region glob 'f[': "), std::string::npos) << Region.Err;
  EXPECT_EQ(Region.Err.find("0 findings"), std::string::npos) << Region.Err;
  RunResult Checks = lint({"--checks=graphify-*,-graphify-host-[sync]", Src, "--", "-std=c++17"});
  EXPECT_EQ(Checks.Code, 2);
  EXPECT_NE(Checks.Err.find("error: invalid check glob '-graphify-host-[sync]': '[' cannot appear in a check name"),
            std::string::npos)
      << Checks.Err;
  RunResult Errors = lint({"--warnings-as-errors=graphify-?", Src, "--", "-std=c++17"});
  EXPECT_EQ(Errors.Code, 2);
  EXPECT_NE(Errors.Err.find("invalid check glob 'graphify-?'"), std::string::npos) << Errors.Err;

  std::string Config = D.file("src/.graphify.yaml", "Scope: all\nGraphRegions: [step, 'f[']\n");
  RunResult InConfig = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(InConfig.Code, 2);
  EXPECT_NE(InConfig.Err.find(Config + ":2:22: error: invalid GraphRegions glob 'f[': "), std::string::npos)
      << InConfig.Err;
  D.file("src/.graphify.yaml", "Checks: 'graphify-*,-graphify-host-sync?'\n");
  RunResult ChecksInConfig = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(ChecksInConfig.Code, 2);
  EXPECT_NE(ChecksInConfig.Err.find(Config + ":1:9: error: invalid check glob '-graphify-host-sync?'"),
            std::string::npos)
      << ChecksInConfig.Err;
  D.file("src/.graphify.yaml", "GraphRegions: ['*::step', 'Engine::{run,decode}*']\n");
  RunResult Fine = lint({Src, "--", "-std=c++17"});
  EXPECT_EQ(Fine.Code, 0) << Fine.Err;
}

// A header the linted file includes is an input: --export-fixes naming it is refused and the
// header keeps its text, with the shared PCH (the header is its leading include) and without.
TEST(CliCoverage, ExportFixesNeverOverwritesAnIncludedHeader) {
  ScratchDir D;
  const char *Header = "int helper();\n";
  std::string H = D.file("model.h", Header);
  std::string Src = D.file("model.cpp", "#include \"model.h\"\nint model() { return helper(); }\n");
  for (const char *Pch : {"--pch=auto", "--pch=off"}) {
    RunResult R = lint({"--export-fixes=" + H, Pch, "--pch-cache-dir=" + D.Path + "/pch", Src, "--", "-std=c++17"});
    EXPECT_EQ(R.Code, 2) << Pch << "\n" << R.Err;
    EXPECT_NE(R.Err.find("graphify-lint: error: --export-fixes would overwrite '" + H +
                         "', which the translation unit of '" + Src + "' reads"),
              std::string::npos)
        << Pch << "\n" << R.Err;
    EXPECT_EQ(readFile(H), Header);
  }
  RunResult Elsewhere = lint({"--export-fixes=" + D.Path + "/fixes.yaml", Src, "--", "-std=c++17"});
  EXPECT_EQ(Elsewhere.Code, 0) << Elsewhere.Err;
  EXPECT_TRUE(llvm::sys::fs::exists(D.Path + "/fixes.yaml"));
}

} // namespace
