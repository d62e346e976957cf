// applyFixes on a scratch file: the three modes, conflicts, the compile gate and idempotence.
#include "graphify/rewriter/FixApplication.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <sys/stat.h>
#include <unistd.h>

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

// Two fixes that each need one insertion (an #include both use) and differ elsewhere both apply,
// and the shared insertion is made once; two different insertions at one point still conflict.
TEST(FixApplication, SharedInsertionAppliesOnce) {
  Scratch S(kCode);
  auto WithInclude = [&](unsigned Offset, std::string Text) {
    graphify::Finding F = findingWithFix(S.Path, Offset, 1, std::move(Text));
    F.Fix->Replacements.push_back({S.Path, 0, 0, "#include <tuple>\n"});
    return F;
  };
  std::vector<graphify::Finding> Fs = {WithInclude(22, "b"), WithInclude(26, "2"), findingWithFix(S.Path, 0, 0, "//\n")};
  graphify::FixApplicationOptions Opts;
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  ASSERT_FALSE(llvm::errorToBool(graphify::applyFixes(Fs, Opts, OS)));
  EXPECT_EQ(S.read(), "#include <tuple>\nint f(int a) { return b + 2; }\n");
  EXPECT_NE(Log.find("skipped fix"), std::string::npos) << Log;
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

// --- what --fix keeps and refuses (docs/reliability.md) ----------------------------------------

const char *kFixed = "int f(int a) { return b + 1; }\n";

/// applyFixes in Fix mode on one finding; the error text, or "" on success.
std::string fixOne(const std::string &Path, graphify::FixApplicationOptions Opts = {},
                   uint64_t AnalysedHash = 0) {
  graphify::Finding F = findingWithFix(Path, 22, 1, "b");
  F.Fix->Replacements[0].FileHash = AnalysedHash;
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  llvm::Error E = graphify::applyFixes({F}, Opts, OS);
  return E ? llvm::toString(std::move(E)) : "";
}

std::string siblingPath(const std::string &Path, const char *Suffix) { return Path + Suffix; }

struct stat statOf(const std::string &Path) {
  struct stat S {};
  EXPECT_EQ(::lstat(Path.c_str(), &S), 0) << Path;
  return S;
}

TEST(FixApplication, SymlinkStaysALinkAndItsTargetIsFixed) {
  Scratch S(kCode);
  const std::string Link = siblingPath(S.Path, ".link.cpp");
  ASSERT_EQ(::symlink(S.Path.c_str(), Link.c_str()), 0);
  EXPECT_EQ(fixOne(Link), "");
  EXPECT_TRUE(S_ISLNK(statOf(Link).st_mode));
  EXPECT_EQ(S.read(), kFixed);
  ::unlink(Link.c_str());
}

TEST(FixApplication, HardLinkedFileIsRefusedUntouched) {
  Scratch S(kCode);
  const std::string Other = siblingPath(S.Path, ".hard.cpp");
  ASSERT_EQ(::link(S.Path.c_str(), Other.c_str()), 0);
  const std::string Error = fixOne(S.Path);
  EXPECT_NE(Error.find("2 hard links"), std::string::npos) << Error;
  EXPECT_EQ(S.read(), kCode);
  EXPECT_EQ(statOf(Other).st_ino, statOf(S.Path).st_ino);
  ::unlink(Other.c_str());
}

TEST(FixApplication, ReadOnlyFileIsRefusedEvenForRoot) {
  Scratch S(kCode);
  ASSERT_EQ(::chmod(S.Path.c_str(), 0444), 0);
  const std::string Error = fixOne(S.Path);
  EXPECT_NE(Error.find("read-only; not fixed"), std::string::npos) << Error;
  EXPECT_EQ(S.read(), kCode);
  EXPECT_EQ(statOf(S.Path).st_mode & 07777, 0444u);
}

TEST(FixApplication, ModeAndOwnerAreKept) {
  Scratch S(kCode);
  ASSERT_EQ(::chmod(S.Path.c_str(), 0640), 0);
  // Another owner is only possible as root (CI runs as root; elsewhere the mode is still checked).
  const bool Root = ::geteuid() == 0;
  if (Root)
    ASSERT_EQ(::chown(S.Path.c_str(), 4321, 8765), 0);
  const struct stat Before = statOf(S.Path);
  EXPECT_EQ(fixOne(S.Path), "");
  EXPECT_EQ(S.read(), kFixed);
  const struct stat After = statOf(S.Path);
  EXPECT_EQ(After.st_mode & 07777, 0640u);
  EXPECT_EQ(After.st_uid, Before.st_uid);
  EXPECT_EQ(After.st_gid, Before.st_gid);
  if (Root)
    EXPECT_EQ(After.st_uid, 4321u);
}

TEST(FixApplication, FileEditedSinceTheAnalysisIsRefused) {
  Scratch S(kCode);
  // The analysis saw other content (hash of a different text): the offsets no longer apply.
  const std::string Error = fixOne(S.Path, {}, llvm::xxh3_64bits(llvm::StringRef("int g;\n")));
  EXPECT_NE(Error.find("changed since it was analysed"), std::string::npos) << Error;
  EXPECT_EQ(S.read(), kCode);
  EXPECT_EQ(fixOne(S.Path, {}, llvm::xxh3_64bits(llvm::StringRef(kCode))), "");
  EXPECT_EQ(S.read(), kFixed);
}

TEST(FixApplication, EditDuringTheCompileCheckIsKept) {
  Scratch S(kCode);
  const char *Edit = "int f(int a) { return a + 2; } // saved by an editor meanwhile\n";
  graphify::FixApplicationOptions Opts;
  Opts.Compiles = [&](llvm::StringRef, llvm::StringRef, std::string &) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(S.Path, EC);
    OS << Edit;
    return true;
  };
  const std::string Error = fixOne(S.Path, Opts);
  EXPECT_NE(Error.find("changed while it was being fixed"), std::string::npos) << Error;
  EXPECT_EQ(S.read(), Edit);
}

TEST(FixApplication, NoTemporaryFileIsLeftBehind) {
  Scratch S(kCode);
  ASSERT_EQ(::chmod(S.Path.c_str(), 0444), 0);
  fixOne(S.Path);
  ASSERT_EQ(::chmod(S.Path.c_str(), 0644), 0);
  EXPECT_EQ(fixOne(S.Path), "");
  const std::string Dir = llvm::sys::path::parent_path(S.Path).str();
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC; I.increment(EC))
    EXPECT_EQ(llvm::StringRef(I->path()).find(llvm::sys::path::filename(S.Path).str() + ".graphify-"),
              llvm::StringRef::npos)
        << I->path();
}

} // namespace
