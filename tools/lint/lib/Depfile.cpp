// Depfile. Invariant: every path is escaped as GCC escapes it, which Ninja and Make both read back
// to the same path.
#include "graphify/lint/Depfile.h"
#include "graphify/lint/SummaryFile.h"

namespace graphify {
namespace {

std::string escaped(llvm::StringRef Path) {
  std::string S;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      S += '\\';
    else if (C == '$')
      S += '$';
    S += C;
  }
  return S;
}

} // namespace

std::string renderDepfile(llvm::StringRef Target, const std::set<std::string> &Inputs) {
  std::string S = escaped(Target) + ":";
  for (const std::string &In : Inputs)
    S += " \\\n  " + escaped(In);
  return S + "\n";
}

llvm::Error writeDepfile(llvm::StringRef Path, llvm::StringRef Target, const std::set<std::string> &Inputs) {
  llvm::Expected<bool> Wrote = writeFileIfChanged(Path, renderDepfile(Target, Inputs));
  return Wrote ? llvm::Error::success() : Wrote.takeError();
}

} // namespace graphify
