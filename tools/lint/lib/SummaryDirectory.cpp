// SummaryDirectory. Invariants: entries are visited in file name order, so a directory holding two
// summaries of a unit valid for the same facts (equal by determinism) gives the same answer on
// every run; a source file is hashed once per run, however many units list it.
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
  llvm::Expected<std::vector<std::string>> Files = summaryFilesIn(Dir);
  if (!Files)
    return Files.takeError();
  for (const std::string &F : *Files) {
    llvm::Expected<UnitSummary> S = readUnitSummary(F, ToolVersion);
    if (!S) {
      llvm::consumeError(S.takeError()); // rewritten or pruned; the link would name it
      continue;
    }
    D.Entries.push_back({F, std::move(*S)});
  }
  return D;
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
  for (const Entry &E : Entries)
    if (sameUnit(E.Summary, Id) && Program.sameOn(E.Summary.Imports, E.Summary.Facts.Lookups) &&
        stillOfItsSources(E.Summary))
      return &E.Summary;
  return nullptr;
}

std::string SummaryDirectory::pathFor(const UnitSummary &S) const {
  const std::string Name = summaryFileName(S);
  for (const Entry &E : Entries)
    if (sameUnit(E.Summary, S) && summaryFileName(E.Summary) == Name)
      return E.Path;
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

llvm::Expected<unsigned> SummaryDirectory::removeOtherSources(const UnitSummary &S, llvm::StringRef Written) const {
  unsigned Removed = 0;
  for (const Entry &E : Entries)
    if (sameUnit(E.Summary, S) && E.Summary.Files != S.Files && E.Path != Written && llvm::sys::fs::exists(E.Path)) {
      if (llvm::Error Err = removeFile(E.Path))
        return std::move(Err);
      ++Removed;
    }
  return Removed;
}

llvm::Expected<unsigned> SummaryDirectory::prune(const std::vector<UnitSummary> &Units,
                                                const std::set<std::string> &Written) const {
  llvm::Expected<std::vector<std::string>> Files = summaryFilesIn(Dir);
  if (!Files)
    return Files.takeError();
  std::set<std::string> Ours = Written;
  for (const Entry &E : Entries)
    if (llvm::any_of(Units, [&](const UnitSummary &U) { return sameUnit(U, E.Summary); }))
      Ours.insert(E.Path);
  unsigned Removed = 0;
  for (const std::string &F : *Files) {
    if (Ours.count(F))
      continue;
    if (llvm::Error Err = removeFile(F))
      return std::move(Err);
    ++Removed;
  }
  return Removed;
}

} // namespace graphify
