// applyFixes on a scratch file: the three modes, conflicts, the compile gate and idempotence.
#include "graphify/rewriter/FixApplication.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace {

struct Scratch {
  std::string Path;
  explicit Scratch(llvm::StringRef Text) {
    llvm::SmallString<128> P;
    int FD;
    llvm::sys::fs::createTemporaryFile("graphify-fix", "cpp", FD, P);
    Path = P.str().str();
    llvm::raw_fd_ostream OS(FD, true);
    OS << Text;
  }
  ~Scratch() { llvm::sys::fs::remove(Path); }
  std::string read() const { return (*llvm::MemoryBuffer::getFile(Path))->getBuffer().str(); }
};

graphify::Finding findingWithFix(const std::string &File, unsigned Offset, unsigned Length, std::string Text) {
  graphify::Finding F;
  F.CheckId = "graphify-host-sync";
  F.Where = {File, 1, Offset + 1, Offset};
  F.Message = "'item' copies one element to the host";
  F.Fix = graphify::FixIt{"scalar-read-to-device", "stays on the device", {{File, Offset, Length, std::move(Text)}}};
  return F;
}

const char *kCode = "int f(int a) { return a + 1; }\n";

TEST(FixApplication, FixWritesAndSkipsOverlaps) {
  Scratch S(kCode);
  std::vector<graphify::Finding> Fs = {findingWithFix(S.Path, 22, 1, "b"), findingWithFix(S.Path, 22, 5, "c"),
                                       findingWithFix(S.Path, 22, 1, "b")};
  graphify::FixApplicationOptions Opts;
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  ASSERT_FALSE(llvm::errorToBool(graphify::applyFixes(Fs, Opts, OS)));
  EXPECT_EQ(S.read(), "int f(int a) { return b + 1; }\n");
  EXPECT_NE(Log.find("skipped fix 'scalar-read-to-device'"), std::string::npos) << Log;
}

TEST(FixApplication, CompileGateWritesNothing) {
  Scratch S(kCode);
  graphify::FixApplicationOptions Opts;
  Opts.Compiles = [](llvm::StringRef, llvm::StringRef, std::string &Errors) {
    Errors = "error: use of undeclared identifier 'b'";
    return false;
  };
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  llvm::Error E = graphify::applyFixes({findingWithFix(S.Path, 22, 1, "b")}, Opts, OS);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("undeclared identifier"), std::string::npos);
  EXPECT_EQ(S.read(), kCode);
}

TEST(FixApplication, DiffPrintsAndWritesNothing) {
  Scratch S(kCode);
  graphify::FixApplicationOptions Opts;
  Opts.Mode = graphify::FixApplicationOptions::Mode::Diff;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  ASSERT_FALSE(llvm::errorToBool(graphify::applyFixes({findingWithFix(S.Path, 22, 1, "b")}, Opts, OS)));
  EXPECT_EQ(S.read(), kCode);
  EXPECT_NE(Out.find("-int f(int a) { return a + 1; }"), std::string::npos) << Out;
  EXPECT_NE(Out.find("+int f(int a) { return b + 1; }"), std::string::npos) << Out;
  EXPECT_NE(Out.find("@@ -1,1 +1,1 @@"), std::string::npos) << Out;
  // Removed lines come before added ones within a hunk, as diff(1) prints them.
  EXPECT_LT(Out.find("-int f(int a)"), Out.find("+int f(int a)")) << Out;
}

TEST(FixApplication, ExportWritesClangApplyReplacementsYaml) {
  Scratch S(kCode);
  Scratch Yaml("");
  graphify::FixApplicationOptions Opts;
  Opts.Mode = graphify::FixApplicationOptions::Mode::Export;
  Opts.ExportPath = Yaml.Path;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  ASSERT_FALSE(llvm::errorToBool(graphify::applyFixes({findingWithFix(S.Path, 22, 1, "b")}, Opts, OS)));
  std::string Y = Yaml.read();
  for (const char *Key : {"MainSourceFile:", "Diagnostics:", "DiagnosticName:", "graphify-host-sync",
                          "DiagnosticMessage:", "FileOffset:", "Replacements:", "ReplacementText: b"})
    EXPECT_NE(Y.find(Key), std::string::npos) << Key << " missing in\n" << Y;
  EXPECT_EQ(S.read(), kCode);
}

} // namespace
