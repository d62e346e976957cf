// Strict YAML reading. The invariant: a document is accepted only if every key in it was asked
// for by the reader; anything else (a typo, a key from a newer schema, a duplicate) is an error
// that points at the exact line and column, because a silently ignored rule is worse than none.
#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>

#include <set>

namespace graphify {

static std::pair<int, int> position(const YAML::Node &Node) {
  YAML::Mark M = Node.Mark();
  if (M.line < 0)
    return {1, 1};
  return {M.line + 1, M.column + 1};
}

llvm::Error yamlError(llvm::StringRef Path, const YAML::Node &Node, const llvm::Twine &Message) {
  auto [Line, Col] = position(Node);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}:{1}:{2}: error: {3}", Path, Line, Col, Message.str()));
}

static llvm::Error parseError(llvm::StringRef Path, const YAML::ParserException &E) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}:{1}:{2}: error: invalid YAML: {3}", Path, E.mark.line + 1,
                                               E.mark.column + 1, E.msg));
}

llvm::Expected<YAML::Node> parseYamlText(llvm::StringRef Text, llvm::StringRef Path) {
  try {
    return YAML::Load(Text.str());
  } catch (const YAML::ParserException &E) {
    return parseError(Path, E);
  }
}

llvm::Expected<YAML::Node> parseYamlFile(llvm::StringRef Path) {
  // A directory opens as a stream on Linux and then fails inside the parser.
  if (llvm::sys::fs::is_directory(Path))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::formatv("{0}: error: is a directory, not a YAML file", Path));
  try {
    return YAML::LoadFile(Path.str());
  } catch (const YAML::BadFile &) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::formatv("{0}: error: cannot read file", Path));
  } catch (const YAML::ParserException &E) {
    return parseError(Path, E);
  } catch (const std::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::formatv("{0}: error: cannot read file: {1}", Path, E.what()));
  }
}

std::string closestMatch(llvm::StringRef Word, llvm::ArrayRef<std::string> Candidates) {
  std::string Best;
  unsigned BestDistance = ~0u;
  // Allow roughly one edit per three characters: close enough to be a typo, not a guess.
  unsigned Limit = std::max<unsigned>(2, Word.size() / 3);
  for (const std::string &C : Candidates) {
    unsigned D = Word.edit_distance(C, /*AllowReplacements=*/true, Limit + 1);
    if (D <= Limit && D < BestDistance) {
      BestDistance = D;
      Best = C;
    }
  }
  return Best;
}

std::string didYouMean(llvm::StringRef Word, llvm::ArrayRef<std::string> Candidates) {
  std::string Best = closestMatch(Word, Candidates);
  return Best.empty() ? std::string() : "; did you mean '" + Best + "'?";
}

llvm::Expected<std::string> asString(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What) {
  if (!Node.IsScalar())
    return yamlError(Path, Node, llvm::Twine(What) + " must be a string");
  return Node.Scalar();
}

llvm::Expected<int64_t> asInt(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What) {
  int64_t Value = 0;
  if (!Node.IsScalar() || llvm::StringRef(Node.Scalar()).getAsInteger(10, Value))
    return yamlError(Path, Node, llvm::Twine(What) + " must be an integer");
  return Value;
}

llvm::Expected<bool> asBool(const YAML::Node &Node, llvm::StringRef Path, llvm::StringRef What) {
  if (Node.IsScalar()) {
    llvm::StringRef S = Node.Scalar();
    if (S == "true" || S == "True" || S == "yes")
      return true;
    if (S == "false" || S == "False" || S == "no")
      return false;
  }
  return yamlError(Path, Node, llvm::Twine(What) + " must be true or false");
}

StrictMap::StrictMap(const YAML::Node &N, std::string P, std::string W)
    : Node(N), Path(std::move(P)), What(std::move(W)) {
  if (!Node.IsMap()) {
    ShapeProblem = What + " must be a mapping (key: value)";
    ShapeNode = Node;
    return;
  }
  std::set<std::string> Seen;
  for (auto It = Node.begin(); It != Node.end(); ++It) {
    if (!It->first.IsScalar()) {
      ShapeProblem = "keys of " + What + " must be plain strings";
      ShapeNode = It->first;
      return;
    }
    if (!Seen.insert(It->first.Scalar()).second) {
      ShapeProblem = "duplicate key '" + It->first.Scalar() + "' in " + What;
      ShapeNode = It->first;
      return;
    }
  }
}

llvm::Error StrictMap::checkShape() {
  if (ShapeProblem.empty())
    return llvm::Error::success();
  return yamlError(Path, ShapeNode, ShapeProblem);
}

llvm::Expected<std::optional<YAML::Node>> StrictMap::take(llvm::StringRef Key, bool Required) {
  Known.push_back(Key.str());
  if (Node.IsMap()) {
    for (auto It = Node.begin(); It != Node.end(); ++It) {
      if (It->first.IsScalar() && It->first.Scalar() == Key) {
        Taken.push_back(Key.str());
        return std::optional<YAML::Node>(It->second);
      }
    }
  }
  if (Required)
    return yamlError(Path, Node, llvm::formatv("{0} is missing the required key '{1}'", What, Key));
  return std::optional<YAML::Node>();
}

llvm::Expected<std::optional<std::string>> StrictMap::takeString(llvm::StringRef Key, bool Required) {
  auto N = take(Key, Required);
  if (!N)
    return N.takeError();
  if (!*N)
    return std::optional<std::string>();
  auto S = asString(**N, Path, llvm::formatv("'{0}' in {1}", Key, What).str());
  if (!S)
    return S.takeError();
  return std::optional<std::string>(*S);
}

llvm::Expected<std::optional<bool>> StrictMap::takeBool(llvm::StringRef Key, bool Required) {
  auto N = take(Key, Required);
  if (!N)
    return N.takeError();
  if (!*N)
    return std::optional<bool>();
  auto B = asBool(**N, Path, llvm::formatv("'{0}' in {1}", Key, What).str());
  if (!B)
    return B.takeError();
  return std::optional<bool>(*B);
}

llvm::Expected<std::optional<int64_t>> StrictMap::takeInt(llvm::StringRef Key, bool Required) {
  auto N = take(Key, Required);
  if (!N)
    return N.takeError();
  if (!*N)
    return std::optional<int64_t>();
  auto I = asInt(**N, Path, llvm::formatv("'{0}' in {1}", Key, What).str());
  if (!I)
    return I.takeError();
  return std::optional<int64_t>(*I);
}

llvm::Expected<std::optional<std::vector<std::string>>>
StrictMap::takeStringList(llvm::StringRef Key, bool Required, bool AllowScalar) {
  auto N = take(Key, Required);
  if (!N)
    return N.takeError();
  if (!*N)
    return std::optional<std::vector<std::string>>();
  std::string Label = llvm::formatv("'{0}' in {1}", Key, What).str();
  std::vector<std::string> Out;
  if (AllowScalar && (*N)->IsScalar()) {
    Out.push_back((*N)->Scalar());
    return std::optional<std::vector<std::string>>(std::move(Out));
  }
  if (!(*N)->IsSequence())
    return yamlError(Path, **N, Label + " must be a list of strings");
  for (const YAML::Node &Item : **N) {
    auto S = asString(Item, Path, "each item of " + Label);
    if (!S)
      return S.takeError();
    Out.push_back(*S);
  }
  return std::optional<std::vector<std::string>>(std::move(Out));
}

llvm::Expected<std::optional<std::vector<int64_t>>> StrictMap::takeIntList(llvm::StringRef Key, bool Required) {
  auto N = take(Key, Required);
  if (!N)
    return N.takeError();
  if (!*N)
    return std::optional<std::vector<int64_t>>();
  std::string Label = llvm::formatv("'{0}' in {1}", Key, What).str();
  if (!(*N)->IsSequence())
    return yamlError(Path, **N, Label + " must be a list of integers");
  std::vector<int64_t> Out;
  for (const YAML::Node &Item : **N) {
    auto I = asInt(Item, Path, "each item of " + Label);
    if (!I)
      return I.takeError();
    Out.push_back(*I);
  }
  return std::optional<std::vector<int64_t>>(std::move(Out));
}

llvm::Error StrictMap::finish() {
  if (auto Err = checkShape())
    return Err;
  for (auto It = Node.begin(); It != Node.end(); ++It) {
    const std::string &Key = It->first.Scalar();
    if (llvm::is_contained(Taken, Key))
      continue;
    return yamlError(Path, It->first, llvm::formatv("unknown key '{0}' in {1}{2}", Key, What, didYouMean(Key, Known)));
  }
  return llvm::Error::success();
}

} // namespace graphify
