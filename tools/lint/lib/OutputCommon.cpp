// Shared pieces of the renderers. Invariant: renderers never re-lex or re-parse; positions come
// from the findings and the only other input is the file text: the parsed text the pipeline
// handed over (LintUnitResult::SourceTexts), or read once per file.
#include "graphify/lint/Output.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

namespace graphify {

std::unique_ptr<SourceCache::Entry> SourceCache::entryOf(std::unique_ptr<llvm::MemoryBuffer> Buffer) {
  auto E = std::make_unique<Entry>();
  E->Buffer = std::move(Buffer);
  llvm::StringRef Text = E->Buffer->getBuffer();
  E->LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      E->LineStarts.push_back(I + 1);
  return E;
}

void SourceCache::remember(llvm::StringRef File, llvm::StringRef Text) {
  if (!Files.count(File))
    Files[File] = entryOf(llvm::MemoryBuffer::getMemBufferCopy(Text, File));
}

const SourceCache::Entry *SourceCache::get(llvm::StringRef File) {
  auto It = Files.find(File);
  if (It != Files.end())
    return It->second.get();
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  std::unique_ptr<Entry> E = Buffer ? entryOf(std::move(*Buffer)) : nullptr;
  const Entry *Result = E.get();
  Files[File] = std::move(E); // unreadable files are remembered as null
  return Result;
}

std::optional<llvm::StringRef> SourceCache::text(llvm::StringRef File) {
  if (const Entry *E = get(File))
    return E->Buffer->getBuffer();
  return std::nullopt;
}

std::optional<llvm::StringRef> SourceCache::line(llvm::StringRef File, unsigned Line) {
  const Entry *E = get(File);
  if (!E || Line == 0 || Line > E->LineStarts.size())
    return std::nullopt;
  llvm::StringRef Text = E->Buffer->getBuffer();
  unsigned Begin = E->LineStarts[Line - 1];
  if (Begin > Text.size())
    return std::nullopt;
  llvm::StringRef Rest = Text.substr(Begin);
  return Rest.take_until([](char C) { return C == '\n'; }).rtrim('\r');
}

std::optional<std::pair<unsigned, unsigned>> SourceCache::position(llvm::StringRef File, unsigned Offset) {
  const Entry *E = get(File);
  if (!E || Offset > E->Buffer->getBufferSize())
    return std::nullopt;
  auto It = std::upper_bound(E->LineStarts.begin(), E->LineStarts.end(), Offset);
  unsigned LineIdx = unsigned(It - E->LineStarts.begin()) - 1;
  return std::make_pair(LineIdx + 1, Offset - E->LineStarts[LineIdx] + 1);
}

std::string relativeToWorkingDir(llvm::StringRef File, llvm::StringRef WorkingDir) {
  if (WorkingDir.empty() || !llvm::sys::path::is_absolute(File))
    return llvm::sys::path::is_absolute(File) ? std::string() : llvm::sys::path::convert_to_slash(File);
  llvm::SmallString<256> Dir(WorkingDir);
  llvm::sys::path::remove_dots(Dir, true);
  llvm::SmallString<256> Path(File);
  llvm::sys::path::remove_dots(Path, true);
  llvm::StringRef P = Path;
  if (!P.consume_front(Dir) || (!P.empty() && !llvm::sys::path::is_separator(P.front()) &&
                                !llvm::sys::path::is_separator(Dir.back())))
    return {};
  P = P.ltrim("/");
  return llvm::sys::path::convert_to_slash(P);
}

} // namespace graphify
