// Paths baked at configure time (see CMakeLists.txt) are only the last resort, after an install
// prefix, so that an installed graphify-validate never compiles against a stale build tree.
#include "graphify/validate/Build.h"
#include "graphify/validate/Interrupts.h"

#include "graphify/validate/Runner.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace graphify::validate {

namespace {

std::vector<std::string> splitList(llvm::StringRef S, char Sep) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  S.split(Parts, Sep, -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts)
    Out.push_back(P.trim().str());
  return Out;
}

bool exists(const std::string &P) { return llvm::sys::fs::exists(P); }

/// A cheap fingerprint of a header tree: every file's path, size and modification time.
void fingerprintTree(const std::string &Dir, llvm::SHA256 &H) {
  std::error_code EC;
  std::vector<std::string> Entries;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(It->path(), St) || St.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    Entries.push_back(It->path() + ":" + std::to_string(St.getSize()) + ":" +
                      std::to_string(St.getLastModificationTime().time_since_epoch().count()));
  }
  llvm::sort(Entries);
  for (const std::string &E : Entries)
    H.update(E);
}

void fingerprintFile(const std::string &Path, llvm::SHA256 &H) {
  // Content, not mtime: relinking an unchanged library must not invalidate the cache.
  if (auto Buf = llvm::MemoryBuffer::getFile(Path))
    H.update(llvm::utohexstr(llvm::xxh3_64bits((*Buf)->getBuffer())));
  H.update(Path);
}

/// The content digest kept beside a cached executable.
std::optional<std::string> contentDigest(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return llvm::utohexstr(llvm::xxh3_64bits((*Buf)->getBuffer())) + ":" + std::to_string((*Buf)->getBufferSize());
}

/// Whether the cached `Executable` is whole: its digest file matches its content. A truncated or
/// damaged entry (disk full, a copy interrupted, a cleaner) is removed and rebuilt, never run.
bool cachedExecutableIsWhole(const std::string &Executable) {
  auto Recorded = llvm::MemoryBuffer::getFile(Executable + ".digest");
  auto Actual = contentDigest(Executable);
  const bool Whole = Recorded && Actual && (*Recorded)->getBuffer().trim() == *Actual;
  if (!Whole) {
    llvm::sys::fs::remove(Executable);
    llvm::sys::fs::remove(Executable + ".digest");
  }
  return Whole;
}

/// Records the digest of a freshly built `Executable` (temp file + rename, like the executable).
bool recordDigest(const std::string &Executable) {
  auto Digest = contentDigest(Executable);
  if (!Digest)
    return false;
  const std::string Part = Executable + ".digest.tmp" + std::to_string(getpid());
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Part, EC);
    if (EC)
      return false;
    OS << *Digest << "\n";
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Part);
      return false;
    }
  }
  return !llvm::sys::fs::rename(Part, Executable + ".digest");
}

std::string hexDigest(llvm::SHA256 &H) { return llvm::toHex(H.final(), /*LowerCase=*/true).substr(0, 32); }

/// The install prefix around this executable, if it has the runtime's layout.
std::string installPrefix(const char *Argv0) {
  if (const char *Env = std::getenv("GRAPHIFY_RUNTIME_PREFIX"); Env && *Env)
    return Env;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&installPrefix));
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Prefix(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  if (exists(std::string(Prefix) + "/include/graphify/compat/torch/torch.h") &&
      (exists(std::string(Prefix) + "/lib/libgraphify_runtime.a") ||
       exists(std::string(Prefix) + "/lib/libgraphify_runtime.so")))
    return std::string(Prefix);
  return "";
}

/// Whether a user argument names an include directory (`-Idir`, `-I dir`'s second half is not
/// told apart: a directory without the flag is harmless in the key).
bool isIncludeDirectory(llvm::StringRef A) { return A.starts_with("-I") || A.starts_with("-isystem"); }

/// The precompiled `<torch/torch.h>` that every harness of these flags starts with, built once
/// into the cache (temp file + rename) and then passed as `-include`: the header is most of a
/// harness's compile (5 of 7 s for the bundled runtime's, more for LibTorch's). The harness's
/// first line includes it anyway, so the PCH changes no meaning; GCC checks the flags and macros
/// it was built with and falls back to the header text when they differ, and a PCH that does not
/// build is simply not used. The user's include directories are left out of the key: they come
/// after the toolchain's, which resolve every header of the prefix. "" when there is none.
std::string harnessPrefixPch(const Toolchain &TC, const std::vector<std::string> &Flags, const std::string &CacheDir,
                             unsigned TimeoutSeconds) {
  static std::mutex Building;
  static std::map<std::string, std::string> Built; // prefix directory -> header, "" when it failed
  llvm::SHA256 H;
  H.update(TC.Fingerprint);
  for (const std::string &F : Flags)
    if (!isIncludeDirectory(F))
      H.update(F + "\x1f");
  // The directory, not the key alone: one process may build into several caches (the tests do).
  const std::string Dir = CacheDir + "/prefix-" + hexDigest(H), Header = Dir + "/torch-prefix.h", Pch = Header + ".gch";
  std::lock_guard<std::mutex> Lock(Building); // one build per process; the others wait for it
  if (auto It = Built.find(Dir); It != Built.end())
    return It->second;
  std::string &Result = Built[Dir];
  if (exists(Pch) && cachedExecutableIsWhole(Pch))
    return Result = Header;
  if (llvm::sys::fs::create_directories(Dir))
    return Result;
  // Written by rename too: another process may be compiling with it.
  const std::string Tmp = Pch + ".tmp" + std::to_string(getpid());
  const std::string HeaderTmp = Header + ".tmp" + std::to_string(getpid());
  TrackedPath TmpTracked(Tmp), HeaderTracked(HeaderTmp);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(HeaderTmp, EC);
    if (EC)
      return Result;
    OS << "// graphify-validate: the prefix every harness starts with, precompiled beside it\n"
       << "#include <torch/torch.h>\n";
  }
  if (llvm::sys::fs::rename(HeaderTmp, Header))
    return Result;
  std::vector<std::string> Cmd = {TC.Compiler};
  Cmd.insert(Cmd.end(), Flags.begin(), Flags.end());
  Cmd.insert(Cmd.end(), {"-x", "c++-header", Header, "-o", Tmp});
  if (!runIsolated(Cmd, TimeoutSeconds).succeeded() || llvm::sys::fs::rename(Tmp, Pch) || !recordDigest(Pch)) {
    std::remove(Tmp.c_str());
    llvm::sys::fs::remove(Pch);
    return Result;
  }
  return Result = Header;
}

} // namespace

llvm::Expected<Toolchain> findToolchain(RuntimeKind Runtime, const char *Argv0) {
  Toolchain TC;
  TC.Runtime = Runtime;
  TC.Compiler = GRAPHIFY_VALIDATE_CXX;
  if (!exists(TC.Compiler)) {
    if (auto Found = llvm::sys::findProgramByName("c++"))
      TC.Compiler = *Found;
    else
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "no C++ compiler: '" GRAPHIFY_VALIDATE_CXX "' (the compiler graphify was "
                                     "built with) does not exist and 'c++' is not on PATH");
  }
  // -fno-char8_t: the runtime needs C++20; the user's file was written for LibTorch's C++17, where
  // u8"..." is a char string.
  TC.CompileFlags = {"-std=c++20", "-fno-char8_t", "-O1", "-w"};
  llvm::SHA256 H;
  H.update(TC.Compiler);

  if (Runtime == RuntimeKind::LibTorch) {
    std::string Lib = GRAPHIFY_VALIDATE_TORCH_LIB;
    if (Lib.empty() || !exists(Lib))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--runtime=libtorch: LibTorch was not found when graphify was configured "
                                     "(install libtorch-dev and reconfigure with -DGRAPHIFY_LIBTORCH=ON)");
    // LibTorch 1.13's headers are C++17 code: under C++20 Clang rejects std::vector<IValue> of
    // an incomplete type (constexpr vector), so models built against it are parsed and built
    // as C++17, as LibTorch's own CMake package does.
    TC.CompileFlags[0] = "-std=c++17";
    TC.IncludeDirs = splitList(GRAPHIFY_VALIDATE_TORCH_INCLUDES, '|');
    // Models include <graphify/annotations.h> (GRAPHIFY_GRAPH_REGION) whichever API they use.
    std::string Prefix = installPrefix(Argv0);
    TC.IncludeDirs.push_back(Prefix.empty() ? std::string(GRAPHIFY_VALIDATE_RUNTIME_INCLUDE) : Prefix + "/include");
    for (std::string &F : splitList(GRAPHIFY_VALIDATE_TORCH_FLAGS, ' '))
      TC.CompileFlags.push_back(F);
    std::string Dir = llvm::sys::path::parent_path(Lib).str();
    TC.LinkArgs = {"-L" + Dir, "-Wl,-rpath," + Dir, "-Wl,--no-as-needed", "-ltorch", "-ltorch_cpu", "-lc10",
                   "-Wl,--as-needed", "-lpthread"};
    TC.Origin = "LibTorch (" + Dir + ")";
    fingerprintFile(Lib, H);
    TC.Fingerprint = hexDigest(H);
    return TC;
  }

  std::string Include, RuntimeLib;
  if (std::string Prefix = installPrefix(Argv0); !Prefix.empty()) {
    Include = Prefix + "/include";
    RuntimeLib = exists(Prefix + "/lib/libgraphify_runtime.a") ? Prefix + "/lib/libgraphify_runtime.a"
                                                                : Prefix + "/lib/libgraphify_runtime.so";
    TC.Origin = "install prefix " + Prefix;
  } else {
    Include = GRAPHIFY_VALIDATE_RUNTIME_INCLUDE;
    RuntimeLib = GRAPHIFY_VALIDATE_RUNTIME_LIB;
    TC.Origin = "build tree (" + RuntimeLib + ")";
  }
  std::string Compat = Include + "/graphify/compat";
  if (!exists(Compat + "/torch/torch.h"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the bundled runtime's compat header " + Compat +
                                       "/torch/torch.h does not exist (" + TC.Origin + ")");
  if (!exists(RuntimeLib))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the bundled runtime library " + RuntimeLib +
                                       " does not exist; build it first (ninja graphify_runtime)");
  // Compat first, so that <torch/torch.h> is the shim even where LibTorch is installed.
  TC.IncludeDirs = {Compat, Include};
  TC.LinkArgs = {RuntimeLib};
  for (std::string &L : splitList(GRAPHIFY_VALIDATE_BLAS_LIBS, '|'))
    TC.LinkArgs.push_back(L);
  for (std::string &L : splitList(GRAPHIFY_VALIDATE_CUDA_LIBS, '|'))
    TC.LinkArgs.push_back(L);
  TC.LinkArgs.push_back("-lpthread");
  TC.LinkArgs.push_back("-ldl");
  // The CUDA backend's definition and headers (build tree; an install has them under include/).
  for (std::string &F : splitList(GRAPHIFY_VALIDATE_RUNTIME_EXTRA_FLAGS, '|'))
    if (!llvm::StringRef(F).starts_with("-I") || TC.Origin.rfind("build tree", 0) == 0)
      TC.CompileFlags.push_back(F);
  TC.HasCudaBackend = GRAPHIFY_VALIDATE_HAVE_CUDA;
  fingerprintFile(RuntimeLib, H);
  fingerprintTree(Include + "/graphify", H);
  TC.Fingerprint = hexDigest(H);
  return TC;
}

std::string defaultCacheDir() {
  if (const char *Env = std::getenv("GRAPHIFY_VALIDATE_CACHE"); Env && *Env)
    return Env;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    return std::string(Xdg) + "/graphify/validate";
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return std::string(Home) + "/.cache/graphify/validate";
  llvm::SmallString<256> Tmp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Tmp);
  return std::string(Tmp) + "/graphify-validate-cache-" + std::to_string(getuid());
}

BuildOutcome buildHarness(const Toolchain &TC, const BuildRequest &Req, const std::string &CacheDir,
                          unsigned TimeoutSeconds) {
  BuildOutcome Out;
  std::vector<std::string> Cmd = {TC.Compiler};
  for (const std::string &F : TC.CompileFlags)
    Cmd.push_back(F);
  for (const std::string &I : TC.IncludeDirs)
    Cmd.push_back("-I" + I);
  // Libraries among the user's arguments (`-lopencv_core`, `libx.a`) go after the harness
  // source: the linker takes from a library only what the objects before it need.
  auto IsLibrary = [](llvm::StringRef A) {
    return A.starts_with("-l") || A.ends_with(".a") || A.ends_with(".so") || A.contains(".so.");
  };
  std::vector<std::string> Libraries;
  for (const std::string &A : Req.ExtraArgs)
    (IsLibrary(A) ? Libraries : Cmd).push_back(A);

  llvm::SHA256 H;
  H.update(TC.Fingerprint);
  for (const std::string &A : Cmd)
    H.update(A + "\x1f");
  for (const std::string &A : Libraries)
    H.update(A + "\x1f");
  for (const std::string &A : TC.LinkArgs)
    H.update(A + "\x1f");
  H.update(Req.SourceText);
  H.update("\x1e");
  H.update(Req.ModelText);
  // FIXME: headers the model includes from its own directory are not hashed; a change there
  // alone reuses a stale executable until the model file itself changes.
  std::string Key = hexDigest(H);

  if (auto EC = llvm::sys::fs::create_directories(CacheDir)) {
    Out.Diagnostics = "cannot create the cache directory " + CacheDir + ": " + EC.message();
    return Out;
  }
  Out.Executable = CacheDir + "/" + Key + ".harness";
  std::string Tmp = Out.Executable + ".tmp" + std::to_string(getpid());
  const size_t SourceAt = Cmd.size();
  Cmd.push_back(Req.SourcePath);
  Cmd.push_back("-o");
  Cmd.push_back(Tmp);
  for (const std::string &A : Libraries)
    Cmd.push_back(A);
  for (const std::string &A : TC.LinkArgs)
    Cmd.push_back(A);
  for (const std::string &A : Cmd)
    Out.Command += (Out.Command.empty() ? "" : " ") + A;

  if (exists(Out.Executable) && cachedExecutableIsWhole(Out.Executable)) {
    Out.Ok = Out.CacheHit = true;
    return Out;
  }
  // After the user's arguments (a `-include` of theirs comes first, as without it), and neither in
  // the key nor in the command shown: the executable is the same with or without the PCH.
  // A compile that reports errors with it is tried once more without it (not one that timed out
  // or was interrupted), so that the PCH can cost no verdict.
  const std::vector<std::string> Flags(Cmd.begin() + 1, Cmd.begin() + SourceAt);
  TrackedPath TmpTracked(Tmp);
  RunResult R;
  if (std::string Prefix = harnessPrefixPch(TC, Flags, CacheDir, TimeoutSeconds); !Prefix.empty()) {
    std::vector<std::string> WithPrefix = Cmd;
    WithPrefix.insert(WithPrefix.begin() + SourceAt, {"-include", Prefix});
    R = runIsolated(WithPrefix, TimeoutSeconds);
    if (R.Status == RunResult::State::Exited && R.ExitCode != 0)
      R = runIsolated(Cmd, TimeoutSeconds);
  } else {
    R = runIsolated(Cmd, TimeoutSeconds);
  }
  if (!R.succeeded()) {
    Out.Diagnostics = R.Stderr + R.Stdout;
    if (R.Status != RunResult::State::Exited || Out.Diagnostics.empty())
      Out.Diagnostics += "the compiler " + R.describe() + "\n";
    std::remove(Tmp.c_str());
    return Out;
  }
  // The digest is written after the executable: an entry without one is incomplete.
  if (auto EC = llvm::sys::fs::rename(Tmp, Out.Executable)) {
    Out.Diagnostics = "cannot move the executable into the cache: " + EC.message();
    return Out;
  }
  if (!recordDigest(Out.Executable)) {
    Out.Diagnostics = "cannot record the executable's digest in the cache " + CacheDir + " (disk full?)";
    return Out;
  }
  Out.Ok = true;
  return Out;
}

} // namespace graphify::validate
