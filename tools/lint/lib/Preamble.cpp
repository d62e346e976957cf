// Shared precompiled prefixes. Invariant: a PCH is only ever used for a file whose own first
// lines are exactly the PCH's #include lines and whose flags are exactly the PCH's flags, so the
// preprocessor state after the prefix, and therefore the AST and the findings, are identical to a
// plain parse; a PCH that Clang rejects is discarded and the file is parsed without it.
#include "graphify/lint/Preamble.h"
#include "graphify/lint/CompileCommands.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <thread>


namespace graphify {
namespace {

// Parses `#include <x>` / `#include "x"` (with optional spaces and a trailing comment); returns
// the spelled name with its delimiters, or empty if the line is anything else.
std::string includeTarget(llvm::StringRef Line) {
  if (!Line.consume_front("#"))
    return {};
  Line = Line.ltrim();
  if (!Line.consume_front("include"))
    return {};
  Line = Line.ltrim();
  if (Line.empty() || (Line.front() != '<' && Line.front() != '"'))
    return {};
  char Close = Line.front() == '<' ? '>' : '"';
  size_t End = Line.find(Close, 1);
  if (End == llvm::StringRef::npos)
    return {};
  llvm::StringRef Rest = Line.substr(End + 1).trim();
  if (!Rest.empty() && !Rest.starts_with("//") && !(Rest.starts_with("/*") && Rest.ends_with("*/")))
    return {};
  return Line.take_front(End + 1).str();
}

} // namespace

std::vector<std::string> leadingIncludes(llvm::StringRef Text, llvm::StringRef File) {
  std::vector<std::string> Out;
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  bool InBlockComment = false;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.trim();
    if (InBlockComment) {
      size_t End = Line.find("*/");
      if (End == llvm::StringRef::npos)
        continue;
      InBlockComment = false;
      Line = Line.substr(End + 2).trim();
    }
    if (Line.empty() || Line.starts_with("//"))
      continue;
    if (Line.starts_with("/*")) {
      size_t End = Line.find("*/", 2);
      if (End == llvm::StringRef::npos) {
        InBlockComment = true;
        continue;
      }
      if (Line.substr(End + 2).trim().empty())
        continue;
      break; // code after a comment on the same line: stop being clever
    }
    std::string Target = includeTarget(Line);
    if (Target.empty())
      break;
    if (Target.front() == '"') {
      // A quoted include resolves next to the includer first; the PCH's header lives elsewhere,
      // so spell the file it resolves to.
      llvm::SmallString<256> Local(Dir);
      llvm::sys::path::append(Local, llvm::StringRef(Target).drop_front().drop_back());
      llvm::sys::path::remove_dots(Local, true);
      if (llvm::sys::fs::is_regular_file(Local))
        Target = "\"" + std::string(Local) + "\"";
    }
    Out.push_back("#include " + Target);
  }
  return Out;
}

std::vector<std::string> commonPrefix(llvm::ArrayRef<std::vector<std::string>> Lists) {
  if (Lists.empty())
    return {};
  std::vector<std::string> Prefix = Lists.front();
  for (const auto &L : Lists.drop_front()) {
    size_t N = 0;
    while (N < Prefix.size() && N < L.size() && Prefix[N] == L[N])
      ++N;
    Prefix.resize(N);
  }
  return Prefix;
}

std::string defaultPchCacheDir() {
  llvm::SmallString<256> Dir;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (auto Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    llvm::sys::path::append(Dir, *Home, ".cache");
  else
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  llvm::sys::path::append(Dir, "graphify", "pch");
  return std::string(Dir);
}

std::string PchCache::key(const std::vector<std::string> &CommandLine, llvm::ArrayRef<std::string> Includes) {
  // "pch-4": how buildPch compiles (bump when its flags change).
  std::string Material = "pch-4\n" GRAPHIFY_VERSION "\n" GRAPHIFY_LLVM_VERSION "\n";
  for (const std::string &A : CommandLine)
    Material += A + '\0';
  for (const std::string &I : Includes) {
    Material += I + '\n';
    // Quoted includes were resolved to absolute paths: their contents join the key, so an edited
    // project header gets a new PCH while a merely touched one keeps it. Headers reached from
    // them are validated by Clang on load.
    llvm::StringRef Target(I);
    if (Target.consume_front("#include \"") && Target.consume_back("\""))
      if (auto Text = llvm::MemoryBuffer::getFile(Target))
        Material += llvm::utohexstr(llvm::xxh3_64bits((*Text)->getBuffer())) + "\n";
  }
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::StringRef(Material)), /*LowerCase=*/true, 16);
}

std::optional<std::string> PchCache::lookup(const std::vector<std::string> &CommandLine,
                                            llvm::ArrayRef<std::string> Includes) const {
  for (size_t N = Includes.size(); N > 0; --N) {
    std::string Key = key(CommandLine, Includes.take_front(N));
    llvm::SmallString<256> Pch(Dir), Header(Dir);
    llvm::sys::path::append(Pch, Key + ".pch");
    llvm::sys::path::append(Header, Key + ".h");
    if (llvm::sys::fs::exists(Pch) && llvm::sys::fs::exists(Header))
      return std::string(Pch);
  }
  return std::nullopt;
}

llvm::Expected<std::string> PchCache::getOrBuild(const std::vector<std::string> &CommandLine,
                                                 llvm::StringRef WorkingDir, llvm::ArrayRef<std::string> Includes) {
  std::string Key = key(CommandLine, Includes);
  llvm::SmallString<256> Pch(Dir), Header(Dir);
  llvm::sys::path::append(Pch, Key + ".pch");
  llvm::sys::path::append(Header, Key + ".h");
  if (llvm::sys::fs::exists(Pch) && llvm::sys::fs::exists(Header))
    return std::string(Pch);
  // A prefix that does not compile on its own fails the same way every time: remember it.
  llvm::SmallString<256> Failed(Dir);
  llvm::sys::path::append(Failed, Key + ".failed");
  if (llvm::sys::fs::exists(Failed))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the prefix failed to precompile before");
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "error: cannot create the PCH cache directory '" + Dir + "'");

  // The header is written once and never touched again: Clang checks its mtime when loading the
  // PCH. Concurrent builders (other graphify-lint processes) each rename complete files into
  // place, so a reader never sees a partial file.
  std::string Unique = "." + std::to_string(llvm::sys::Process::getProcessId()) + "." +
                       std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
  if (!llvm::sys::fs::exists(Header)) {
    std::string TmpHeader = std::string(Header) + Unique;
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(TmpHeader, EC);
      if (EC)
        return llvm::createStringError(EC, "error: cannot write '" + TmpHeader + "'");
      OS << "// graphify-lint shared prefix; generated, do not edit\n";
      for (const std::string &I : Includes)
        OS << I << "\n";
      OS.close();
      if (OS.has_error()) { // disk full: an error, not raw_fd_ostream's abort
        const std::error_code Why = OS.error();
        OS.clear_error();
        llvm::sys::fs::remove(TmpHeader);
        return llvm::createStringError(Why, "error: cannot write '" + TmpHeader + "': " + Why.message());
      }
    }
    if (std::error_code EC = llvm::sys::fs::rename(TmpHeader, Header))
      return llvm::createStringError(EC, "error: cannot write '" + Header + "'");
  }
  std::string TmpPch = std::string(Pch) + Unique;
  if (auto Err = buildPch(CommandLine, WorkingDir, Header, TmpPch)) {
    llvm::sys::fs::remove(TmpPch);
    std::error_code EC;
    llvm::raw_fd_ostream Marker(Failed, EC); // best effort: at worst the next run tries again
    return std::move(Err);
  }
  if (std::error_code EC = llvm::sys::fs::rename(TmpPch, Pch))
    return llvm::createStringError(EC, "error: cannot write '" + Pch + "'");
  return std::string(Pch);
}

void PchCache::discard(llvm::StringRef PchFile) { llvm::sys::fs::remove(PchFile); }

} // namespace graphify
