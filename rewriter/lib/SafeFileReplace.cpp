// The rename-based replacement gives atomicity; everything else here is about not surprising the
// user: rename would silently turn a symlink into a regular file, split hard links, ignore a
// read-only mode and (run as root) hand the file to root. Each is either preserved or refused.
#include "graphify/rewriter/SafeFileReplace.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace graphify::rewriter {

namespace {

llvm::Error refuse(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s; not fixed", Path.str().c_str(),
                                 Why.str().c_str());
}

/// Checks that `Target` (symlinks resolved) may be replaced; fills `Status`.
llvm::Error checkReplaceable(llvm::StringRef Path, llvm::StringRef Target, struct stat &Status) {
  if (::stat(Target.str().c_str(), &Status) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()), "%s: cannot stat: %s",
                                   Path.str().c_str(), std::strerror(errno));
  if (!S_ISREG(Status.st_mode))
    return refuse(Path, "not a regular file");
  // Root may write anything; the mode bits still say what the user meant.
  if ((Status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(Target.str().c_str(), W_OK) != 0)
    return refuse(Path, "the file is read-only");
  if (Status.st_nlink > 1)
    return refuse(Path, llvm::Twine("the file has ") + llvm::Twine(uint64_t(Status.st_nlink)) +
                            " hard links, which replacing it would split (use --diff or --export-fixes)");
  return llvm::Error::success();
}

llvm::Error checkUnchanged(llvm::StringRef Path, llvm::StringRef Target, llvm::StringRef Expected) {
  auto Now = llvm::MemoryBuffer::getFile(Target, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Now)
    return llvm::createStringError(Now.getError(), "%s: cannot read: %s", Path.str().c_str(),
                                   Now.getError().message().c_str());
  if ((*Now)->getBuffer() != Expected)
    return refuse(Path, "the file changed while it was being fixed (run again)");
  return llvm::Error::success();
}

/// Writes `Content` to a new file beside `Target`, with `Status`'s mode and owner.
llvm::Expected<std::string> writeTemporary(llvm::StringRef Path, llvm::StringRef Target, llvm::StringRef Content,
                                           const struct stat &Status, const char *Outcome = "not fixed") {
  llvm::SmallString<256> Model(Target);
  Model += ".graphify-%%%%%%.tmp";
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return llvm::createStringError(EC, "%s: cannot create a temporary file: %s", Path.str().c_str(),
                                   EC.message().c_str());
  auto Fail = [&](const char *What) -> llvm::Error {
    const std::string Why = std::strerror(errno);
    ::close(FD);
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s: %s; %s", Path.str().c_str(), What,
                                   Why.c_str(), Outcome);
  };
  if (::fchmod(FD, Status.st_mode & 07777) != 0)
    return Fail("cannot keep the file's mode");
  if (::fchown(FD, Status.st_uid, Status.st_gid) != 0)
    return Fail("cannot keep the file's owner");
  for (llvm::StringRef Rest = Content; !Rest.empty();) {
    const ssize_t N = ::write(FD, Rest.data(), Rest.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return Fail("cannot write"); // disk full, quota: the original is untouched
    Rest = Rest.drop_front(size_t(N));
  }
  if (::fsync(FD) != 0)
    return Fail("cannot write");
  if (::close(FD) != 0) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: cannot write the temporary file; %s",
                                   Path.str().c_str(), Outcome);
  }
  return Temp.str().str();
}

} // namespace

namespace {

llvm::Error resolve(llvm::StringRef Path, llvm::SmallString<256> &Target, struct stat &Status) {
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Target, /*expand_tilde=*/false))
    return llvm::createStringError(EC, "%s: cannot resolve: %s", Path.str().c_str(), EC.message().c_str());
  return checkReplaceable(Path, Target, Status);
}

} // namespace

llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Content) {
  struct stat Status;
  const bool Exists = ::stat(Path.str().c_str(), &Status) == 0;
  if (Exists && !S_ISREG(Status.st_mode)) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return llvm::createStringError(EC, "%s: cannot write: %s", Path.str().c_str(), EC.message().c_str());
    OS << Content;
    OS.close();
    if (OS.has_error()) {
      const std::error_code Why = OS.error();
      OS.clear_error();
      return llvm::createStringError(Why, "%s: cannot write: %s", Path.str().c_str(), Why.message().c_str());
    }
    return llvm::Error::success();
  }
  // An existing file keeps its mode and owner; a new one gets what open(2) would give it.
  struct stat Wanted {};
  if (Exists) {
    Wanted = Status;
  } else {
    const mode_t Umask = ::umask(0);
    ::umask(Umask);
    Wanted.st_mode = 0666 & ~Umask;
    Wanted.st_uid = ::geteuid();
    Wanted.st_gid = ::getegid();
  }
  auto Temp = writeTemporary(Path, Path, Content, Wanted, "not written");
  if (!Temp)
    return Temp.takeError();
  if (std::error_code EC = llvm::sys::fs::rename(*Temp, Path)) {
    llvm::sys::fs::remove(*Temp);
    return llvm::createStringError(EC, "%s: cannot write: %s", Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

llvm::Error checkFileReplaceable(llvm::StringRef Path) {
  llvm::SmallString<256> Target;
  struct stat Status;
  return resolve(Path, Target, Status);
}

llvm::Error replaceFileContent(llvm::StringRef Path, llvm::StringRef Expected, llvm::StringRef Content) {
  llvm::SmallString<256> Target;
  struct stat Status;
  if (llvm::Error E = resolve(Path, Target, Status))
    return E;
  auto Temp = writeTemporary(Path, Target, Content, Status);
  if (!Temp)
    return Temp.takeError();
  // Last look before the rename: an editor may have saved while the fix was compiled.
  if (llvm::Error E = checkUnchanged(Path, Target, Expected)) {
    llvm::sys::fs::remove(*Temp);
    return E;
  }
  if (std::error_code EC = llvm::sys::fs::rename(*Temp, Target)) {
    llvm::sys::fs::remove(*Temp);
    return llvm::createStringError(EC, "%s: cannot replace: %s", Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace graphify::rewriter
