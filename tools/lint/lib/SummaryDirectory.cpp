// SummaryDirectory. Invariants: a file's entries are visited in file name order, so a directory
// holding two summaries of a unit valid for the same facts (equal by determinism) gives the same
// answer on every run; a source file is hashed once per run, however many units list it; only the
// directories of the files asked about are read.
#include "graphify/lint/SummaryDirectory.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace graphify {
namespace {

llvm::Error removeFile(const std::string &Path) {
  if (std::error_code EC = llvm::sys::fs::remove(Path))
    return llvm::createStringError("cannot remove '" + Path + "': " + EC.message());
  return llvm::Error::success();
}

} // namespace

llvm::Expected<SummaryDirectory> SummaryDirectory::open(llvm::StringRef Dir, llvm::StringRef ToolVersion) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create '" + Dir.str() + "': " + EC.message());
  SummaryDirectory D;
  D.Dir = Dir.str();
  D.ToolVersion = ToolVersion.str();
  return D;
}

const std::vector<SummaryDirectory::Entry> &SummaryDirectory::entriesOf(const std::string &File) {
  auto [It, New] = ByFile.try_emplace(File);
  if (!New)
    return It->second;
  const std::string Here = mirroredPath(Dir, File);
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator D(Here, EC), End; D != End && !EC; D.increment(EC))
    if (llvm::StringRef(D->path()).ends_with(".summary"))
      Files.push_back(D->path());
  std::sort(Files.begin(), Files.end());
  for (const std::string &F : Files) {
    llvm::Expected<UnitSummary> S = readUnitSummary(F, ToolVersion);
    if (!S) {
      llvm::consumeError(S.takeError()); // rewritten or pruned; the link would name it
      continue;
    }
    It->second.push_back({F, std::move(*S)});
  }
  return It->second;
}

bool SummaryDirectory::stillOfItsSources(const UnitSummary &S) {
  for (const auto &[Path, Digest] : S.Files) {
    auto [It, New] = Digests.try_emplace(Path);
    if (New) {
      auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      It->second = B ? contentDigest((*B)->getBuffer()) : std::string("unreadable");
    }
    if (It->second != Digest)
      return false;
  }
  return !S.Files.empty();
}

const UnitSummary *SummaryDirectory::validFor(const UnitSummary &Id, const ProgramFacts &Program) {
  for (const Entry &E : entriesOf(Id.File))
    if (sameUnit(E.Summary, Id) && Program.sameOn(E.Summary.Imports, E.Summary.Facts.Lookups) &&
        stillOfItsSources(E.Summary))
      return &E.Summary;
  return nullptr;
}

std::string SummaryDirectory::pathFor(const UnitSummary &S) {
  const std::string Name = summaryFileName(S);
  for (const Entry &E : entriesOf(S.File))
    if (sameUnit(E.Summary, S) && summaryFileName(E.Summary) == Name)
      return E.Path;
  llvm::SmallString<256> P(mirroredPath(Dir, S.File));
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

llvm::Expected<unsigned> SummaryDirectory::removeOtherSources(const UnitSummary &S, llvm::StringRef Written) {
  unsigned Removed = 0;
  for (const Entry &E : entriesOf(S.File))
    if (sameUnit(E.Summary, S) && E.Summary.Files != S.Files && E.Path != Written && llvm::sys::fs::exists(E.Path)) {
      if (llvm::Error Err = removeFile(E.Path))
        return std::move(Err);
      ++Removed;
    }
  return Removed;
}

llvm::Expected<unsigned> SummaryDirectory::prune(const std::vector<UnitSummary> &Units,
                                                const std::set<std::string> &Written) {
  std::set<std::string> Ours = Written;
  for (const UnitSummary &U : Units)
    for (const Entry &E : entriesOf(U.File))
      if (sameUnit(U, E.Summary))
        Ours.insert(E.Path);
  llvm::Expected<std::vector<std::string>> Files = summaryFilesIn(Dir);
  if (!Files)
    return Files.takeError();
  unsigned Removed = 0;
  for (const std::string &F : *Files) {
    if (Ours.count(F))
      continue;
    if (llvm::Error Err = removeFile(F))
      return std::move(Err);
    ++Removed;
  }
  removeEmptyDirectoriesUnder(Dir);
  return Removed;
}

} // namespace graphify
