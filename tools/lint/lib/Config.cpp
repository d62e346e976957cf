// Configuration: .graphify.yaml and --config. Invariant: a configuration is accepted only if
// every key in it is known and well typed (StrictMap), because a misspelled `Checks:` that is
// silently ignored would turn a CI gate off without anyone noticing.
#include "graphify/lint/Config.h"
#include "graphify/analyzer/GraphRegions.h"
#include "graphify/analyzer/StaticBoundKey.h"
#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>

namespace graphify {

bool matchesGlob(llvm::StringRef Pattern, llvm::StringRef Name) {
  // Iterative wildcard match with backtracking to the last '*': linear enough for check ids.
  size_t P = 0, N = 0, StarP = llvm::StringRef::npos, StarN = 0;
  while (N < Name.size()) {
    if (P < Pattern.size() && Pattern[P] == '*') {
      StarP = P++;
      StarN = N;
    } else if (P < Pattern.size() && Pattern[P] == Name[N]) {
      ++P;
      ++N;
    } else if (StarP != llvm::StringRef::npos) {
      P = StarP + 1;
      N = ++StarN;
    } else {
      return false;
    }
  }
  while (P < Pattern.size() && Pattern[P] == '*')
    ++P;
  return P == Pattern.size();
}

GlobList::GlobList(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  // clang-tidy also accepts newlines between globs (multi-line YAML strings).
  Text.split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts) {
    for (llvm::StringRef Glob : llvm::split(Part, '\n')) {
      Glob = Glob.trim();
      if (Glob.empty())
        continue;
      Item I;
      I.Positive = !Glob.consume_front("-");
      I.Pattern = Glob.trim().str();
      Items.push_back(std::move(I));
    }
  }
}

/// The globs of a list, as GlobList reads them (without their leading `-`).
static std::vector<llvm::StringRef> splitGlobs(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Globs;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts)
    for (llvm::StringRef Glob : llvm::split(Part, '\n'))
      if (!Glob.trim().empty())
        Globs.push_back(Glob.trim());
  return Globs;
}

std::string checkGlobProblem(llvm::StringRef Text) {
  for (llvm::StringRef Glob : splitGlobs(Text)) {
    llvm::StringRef Body = Glob;
    Body.consume_front("-");
    Body = Body.trim();
    if (Body.empty())
      return llvm::formatv("invalid check glob '{0}': it names no check", Glob).str();
    for (char C : Body)
      if (!llvm::isAlnum(C) && C != '-' && C != '_' && C != '.' && C != '*')
        return llvm::formatv("invalid check glob '{0}': '{1}' cannot appear in a check name (only '*' is a "
                             "wildcard)",
                             Glob, llvm::StringRef(&C, 1))
            .str();
  }
  return {};
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Items.rbegin(); It != Items.rend(); ++It)
    if (matchesGlob(It->Pattern, Name))
      return It->Positive;
  return false;
}

llvm::StringRef profileName(Profile P) { return P == Profile::Trace ? "trace" : "cuda-graph"; }
llvm::StringRef scopeName(Scope S) { return S == Scope::All ? "all" : "graph"; }

static llvm::Error valueError(llvm::StringRef Where, llvm::StringRef What, llvm::StringRef Value,
                              std::vector<std::string> Choices) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}: error: invalid {1} '{2}' (expected {3}){4}", Where, What, Value,
                                               llvm::join(Choices, "|"), didYouMean(Value, Choices)));
}

llvm::Expected<Profile> parseProfile(llvm::StringRef Name, llvm::StringRef Where) {
  if (Name == "cuda-graph")
    return Profile::CudaGraph;
  if (Name == "trace")
    return Profile::Trace;
  return valueError(Where, "profile", Name, {"cuda-graph", "trace"});
}

llvm::Expected<Scope> parseScope(llvm::StringRef Name, llvm::StringRef Where) {
  if (Name == "graph")
    return Scope::Graph;
  if (Name == "all")
    return Scope::All;
  return valueError(Where, "scope", Name, {"graph", "all"});
}

// The location of a scalar node as "file:line:col", for value errors found after parsing.
static std::string where(llvm::StringRef Path, const YAML::Node &Node) {
  YAML::Mark M = Node.Mark();
  return llvm::formatv("{0}:{1}:{2}", Path, M.line < 0 ? 1 : M.line + 1, M.column < 0 ? 1 : M.column + 1).str();
}

/// `file:line:col: error: Problem` at the node holding the glob, or success when Problem is empty.
static llvm::Error globError(llvm::StringRef Path, const YAML::Node &Node, const std::string &Problem) {
  if (Problem.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}: error: {1}", where(Path, Node), Problem));
}

/// `StaticBounds:`, a map from `<function glob>::<variable>` to a positive integer.
static llvm::Expected<std::vector<StaticBound>> parseStaticBounds(const YAML::Node &Node, llvm::StringRef Path) {
  if (!Node.IsMap())
    return yamlError(Path, Node, "'StaticBounds' must be a map from '<function>::<variable>' to a positive integer");
  std::vector<StaticBound> Bounds;
  for (const auto &Entry : Node) {
    auto Key = asString(Entry.first, Path, "a StaticBounds key");
    if (!Key)
      return Key.takeError();
    std::string Problem;
    auto Bound = parseStaticBoundKey(*Key, Problem);
    if (!Bound)
      return yamlError(Path, Entry.first, "invalid StaticBounds key '" + *Key + "': " + Problem);
    if (llvm::any_of(Bounds, [&](const StaticBound &B) { return B.Function + "::" + B.Name == *Key; }))
      return yamlError(Path, Entry.first, "duplicate key '" + *Key + "' in 'StaticBounds'");
    auto Value = asInt(Entry.second, Path, "the static bound of '" + *Key + "'");
    if (!Value)
      return Value.takeError();
    if (*Value < 1)
      return yamlError(Path, Entry.second, "the static bound of '" + *Key + "' must be a positive integer");
    Bound->Bound = *Value;
    Bounds.push_back(std::move(*Bound));
  }
  return Bounds;
}

llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text, llvm::StringRef Path, llvm::StringRef BaseDir,
                                       LintConfig Config) {
  auto Doc = parseYamlText(Text, Path);
  if (!Doc)
    return Doc.takeError();
  Config.Origin = Path.str();
  // An empty document (a file with only comments) is a valid, empty configuration.
  if (Doc->IsNull())
    return Config;
  StrictMap Top(*Doc, Path.str(), "configuration");
  if (auto Err = Top.checkShape())
    return std::move(Err);

  auto Checks = Top.takeString("Checks");
  if (!Checks)
    return Checks.takeError();
  if (*Checks) {
    if (auto Err = globError(Path, Top.node()["Checks"], checkGlobProblem(**Checks)))
      return std::move(Err);
    Config.Checks = **Checks;
  }

  if (auto P = Top.take("Profile"); !P) {
    return P.takeError();
  } else if (*P) {
    auto Name = asString(**P, Path, "'Profile'");
    if (!Name)
      return Name.takeError();
    auto Kind = parseProfile(*Name, where(Path, **P));
    if (!Kind)
      return Kind.takeError();
    Config.ProfileKind = *Kind;
  }
  if (auto S = Top.take("Scope"); !S) {
    return S.takeError();
  } else if (*S) {
    auto Name = asString(**S, Path, "'Scope'");
    if (!Name)
      return Name.takeError();
    auto Kind = parseScope(*Name, where(Path, **S));
    if (!Kind)
      return Kind.takeError();
    Config.ScopeKind = *Kind;
  }

  auto Regions = Top.takeStringList("GraphRegions", false, /*AllowScalar=*/true);
  if (!Regions)
    return Regions.takeError();
  if (*Regions) {
    const YAML::Node RegionNode = Top.node()["GraphRegions"];
    for (size_t I = 0; I < (*Regions)->size(); ++I) {
      const std::string &Glob = (**Regions)[I];
      std::string Problem = GraphRegionFinder::globProblem(Glob);
      if (!Problem.empty())
        Problem = "invalid GraphRegions glob '" + Glob + "': " + Problem;
      if (auto Err = globError(Path, RegionNode.IsSequence() ? RegionNode[I] : RegionNode, Problem))
        return std::move(Err);
    }
    Config.GraphRegions = **Regions;
  }

  auto Packs = Top.takeStringList("RulePacks", false, /*AllowScalar=*/true);
  if (!Packs)
    return Packs.takeError();
  if (*Packs) {
    Config.RulePacks.clear();
    for (const std::string &Pack : **Packs) {
      llvm::SmallString<256> Abs(Pack);
      if (!llvm::sys::path::is_absolute(Abs) && !BaseDir.empty())
        Abs = (BaseDir + "/" + Pack).str();
      llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
      Config.RulePacks.push_back(std::string(Abs));
    }
  }

  auto WAE = Top.takeString("WarningsAsErrors");
  if (!WAE)
    return WAE.takeError();
  if (*WAE) {
    if (auto Err = globError(Path, Top.node()["WarningsAsErrors"], checkGlobProblem(**WAE)))
      return std::move(Err);
    Config.WarningsAsErrors = **WAE;
  }

  if (auto H = Top.take("HeaderFilterRegex"); !H) {
    return H.takeError();
  } else if (*H) {
    auto Regex = asString(**H, Path, "'HeaderFilterRegex'");
    if (!Regex)
      return Regex.takeError();
    std::string Problem;
    // Empty means "no filter" (what --dump-config prints for the default), not an empty regex.
    if (!Regex->empty() && !llvm::Regex(*Regex).isValid(Problem))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     llvm::formatv("{0}: error: invalid HeaderFilterRegex: {1}", where(Path, **H),
                                                   Problem));
    Config.HeaderFilterRegex = *Regex;
  }

  if (auto B = Top.take("StaticBounds"); !B) {
    return B.takeError();
  } else if (*B) {
    auto Bounds = parseStaticBounds(**B, Path);
    if (!Bounds)
      return Bounds.takeError();
    Config.StaticBounds = std::move(*Bounds);
  }

  if (auto Err = Top.finish())
    return std::move(Err);
  return Config;
}

std::string findConfigFile(llvm::StringRef File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  for (llvm::StringRef D = llvm::sys::path::parent_path(Dir); !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".graphify.yaml");
    if (llvm::sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
  }
  return {};
}

// YAML double-quoted scalar, so that globs starting with '-' or '*' stay strings.
static std::string quoted(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f) {
      Out += llvm::formatv("\\x{0:X-2}", unsigned(static_cast<unsigned char>(C))).str(); // read back as is
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string dumpConfig(const LintConfig &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "# effective configuration (from " << (C.Origin.empty() ? "defaults" : C.Origin) << ")\n";
  OS << "Checks: " << quoted(C.Checks) << "\n";
  OS << "Profile: " << profileName(C.ProfileKind) << "\n";
  OS << "Scope: " << scopeName(C.ScopeKind) << "\n";
  OS << "GraphRegions: [";
  for (size_t I = 0; I < C.GraphRegions.size(); ++I)
    OS << (I ? ", " : "") << quoted(C.GraphRegions[I]);
  OS << "]\nRulePacks: [";
  for (size_t I = 0; I < C.RulePacks.size(); ++I)
    OS << (I ? ", " : "") << quoted(C.RulePacks[I]);
  OS << "]\n";
  OS << "WarningsAsErrors: " << quoted(C.WarningsAsErrors) << "\n";
  OS << "HeaderFilterRegex: " << quoted(C.HeaderFilterRegex) << "\n";
  OS << "StaticBounds: {";
  for (size_t I = 0; I < C.StaticBounds.size(); ++I)
    OS << (I ? ", " : "") << quoted(C.StaticBounds[I].Function + "::" + C.StaticBounds[I].Name) << ": "
       << C.StaticBounds[I].Bound;
  OS << "}\n";
  return S;
}

} // namespace graphify
