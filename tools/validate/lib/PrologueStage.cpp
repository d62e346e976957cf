// The stage of a host prologue: split-at-host-boundary turns a function whose only host work is
// copying host data to the device into a core and a wrapper marked
// `/// graphify: host prologue of 'f_graph' (...)` that makes the copies and returns
// `f_graph(params..., copies...)`. The core takes the copies by reference, so the harness cannot
// call it with the entry's inputs alone; it runs the wrapper's own text once, before the capture,
// with its call of the core replaced by `std::make_tuple(...)` of the same arguments, and captures
// the core on them — what a user does: copy into the graph's inputs, then replay.
#include "graphify/validate/Harness.h"

#include <llvm/ADT/StringExtras.h>

namespace graphify::validate {

namespace {

/// The offset just past the brace that closes the one at `Open`, or npos. Braces in string and
/// character literals and comments are skipped.
size_t matchingBrace(llvm::StringRef Text, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
    } else if (Text.substr(I).starts_with("//")) {
      I = Text.find('\n', I);
      if (I == llvm::StringRef::npos)
        return I;
    } else if (Text.substr(I).starts_with("/*")) {
      I = Text.find("*/", I);
      if (I == llvm::StringRef::npos)
        return I;
      ++I;
    } else if (C == '{') {
      ++Depth;
    } else if (C == '}' && --Depth == 0) {
      return I + 1;
    }
  }
  return llvm::StringRef::npos;
}

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

} // namespace

std::optional<PrologueStage> prologueStageOf(llvm::StringRef CallName, llvm::StringRef Rewritten) {
  auto [Qualifier, Name] = CallName.rsplit("::");
  if (Name.empty())
    std::swap(Qualifier, Name);
  const llvm::StringRef Marker = "graphify: host prologue of '";
  for (size_t At = Rewritten.find(Marker); At != llvm::StringRef::npos; At = Rewritten.find(Marker, At + 1)) {
    llvm::StringRef Core = Rewritten.drop_front(At + Marker.size()).take_until([](char C) { return C == '\''; });
    llvm::StringRef Suffix = Core;
    if (!Suffix.consume_front(Name) || !Suffix.consume_front("_graph") ||
        !llvm::all_of(Suffix, [](char C) { return C >= '0' && C <= '9'; }))
      continue;
    // The wrapper's definition follows the comment's line.
    const size_t Begin = Rewritten.find('\n', At);
    const size_t Open = Begin == llvm::StringRef::npos ? Begin : Rewritten.find('{', Begin);
    const size_t End = Open == llvm::StringRef::npos ? Open : matchingBrace(Rewritten, Open);
    if (End == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef Signature = Rewritten.slice(Begin + 1, Open);
    llvm::StringRef Body = Rewritten.slice(Open, End);
    // `ret name(params)`: a free function, written with its unqualified name.
    size_t NameAt = Signature.find((Name + "(").str());
    while (NameAt != llvm::StringRef::npos && NameAt > 0 && isIdentifierChar(Signature[NameAt - 1]))
      NameAt = Signature.find((Name + "(").str(), NameAt + 1);
    if (NameAt == llvm::StringRef::npos || Signature.take_front(NameAt).rtrim().ends_with("::"))
      return std::nullopt;
    // The wrapper's last statement calls the core: its arguments are the stage's result.
    const std::string Call = (Core + "(").str();
    const size_t CallAt = Body.rfind(Call);
    if (CallAt == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef Before = Body.take_front(CallAt).rtrim();
    if (Before.ends_with("return"))
      Before = Before.drop_back(6).rtrim();
    PrologueStage Stage;
    Stage.Core = Qualifier.empty() ? Core.str() : (Qualifier + "::" + Core).str();
    const std::string StageName = (Name + "__graphify_stage").str();
    Stage.Function = Qualifier.empty() ? StageName : (Qualifier + "::" + StageName).str();
    std::string Text = "static auto " + StageName + Signature.drop_front(NameAt + Name.size()).str() +
                       Before.str() + "\n  return std::make_tuple(" +
                       Body.drop_front(CallAt + Call.size()).str() + "\n";
    // Inside the namespaces the entry is declared in, as the wrapper was.
    if (!Qualifier.empty()) {
      llvm::SmallVector<llvm::StringRef, 4> Namespaces;
      Qualifier.split(Namespaces, "::");
      std::string Open, Close;
      for (llvm::StringRef N : Namespaces) {
        Open += "namespace " + N.str() + " {\n";
        Close += "}\n";
      }
      Text = Open + Text + Close;
    }
    Stage.Text = "#include <tuple>\n" + Text;
    return Stage;
  }
  return std::nullopt;
}

} // namespace graphify::validate
