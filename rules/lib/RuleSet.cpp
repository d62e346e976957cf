// Loads rule packs. The invariant: a RuleSet holds only entries whose every key and tag was
// understood; a pack with anything unrecognised is rejected as a whole with a located message,
// so a misspelt tag can never silently turn a check off.
#include "graphify/rules/RuleSet.h"

#include "graphify/rules/StrictYaml.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdlib>

#ifndef GRAPHIFY_SOURCE_RULES_DIR
#define GRAPHIFY_SOURCE_RULES_DIR ""
#endif

namespace graphify {

bool ApiEntry::hasTag(llvm::StringRef Tag) const { return llvm::is_contained(Tags, Tag); }

bool RuleSet::isKnownTag(llvm::StringRef Tag) const {
  return llvm::any_of(Tags, [&](const TagInfo &T) { return T.Name == Tag; });
}

llvm::Error RuleSet::loadTags(llvm::StringRef File) {
  auto Doc = parseYamlFile(File);
  if (!Doc)
    return Doc.takeError();
  StrictMap Top(*Doc, File.str(), "tag list");
  if (auto Err = Top.checkShape())
    return Err;
  auto List = Top.take("tags", /*Required=*/true);
  if (!List)
    return List.takeError();
  if (auto Err = Top.finish())
    return Err;
  if (!(*List)->IsSequence())
    return yamlError(File, **List, "'tags' must be a list");
  for (const YAML::Node &Item : **List) {
    StrictMap M(Item, File.str(), "tag");
    if (auto Err = M.checkShape())
      return Err;
    auto Name = M.takeString("name", true);
    if (!Name)
      return Name.takeError();
    auto Doc = M.takeString("doc", true);
    if (!Doc)
      return Doc.takeError();
    if (auto Err = M.finish())
      return Err;
    if (isKnownTag(**Name))
      return yamlError(File, Item, "duplicate tag '" + **Name + "'");
    Tags.push_back({**Name, **Doc});
  }
  return llvm::Error::success();
}

static llvm::Expected<unsigned> parseKinds(const std::vector<std::string> &Names, const YAML::Node &Node,
                                           llvm::StringRef File) {
  static const std::vector<std::string> Valid = {"method", "function", "constructor", "member"};
  unsigned Kinds = 0;
  for (const std::string &K : Names) {
    if (K == "method")
      Kinds |= KindMethod;
    else if (K == "function")
      Kinds |= KindFunction;
    else if (K == "constructor")
      Kinds |= KindConstructor;
    else if (K == "member")
      Kinds |= KindMember;
    else
      return yamlError(File, Node, "unknown kind '" + K + "' (expected method, function, constructor or member)" +
                                       didYouMean(K, Valid));
  }
  return Kinds;
}

static llvm::Expected<std::vector<unsigned>> takePositions(StrictMap &M, llvm::StringRef Key) {
  auto List = M.takeIntList(Key);
  if (!List)
    return List.takeError();
  std::vector<unsigned> Out;
  if (*List)
    for (int64_t V : **List) {
      if (V < 0 || V > 64)
        return yamlError(M.path(), M.node()[Key.str()], "'" + Key + "' positions must be between 0 and 64");
      Out.push_back(static_cast<unsigned>(V));
    }
  return Out;
}

// `arg_equals: [position, value, ...]`: pairs, flattened so that a flow sequence holds them.
static llvm::Expected<std::vector<std::pair<unsigned, int64_t>>> takeArgEquals(StrictMap &M) {
  auto List = M.takeIntList("arg_equals");
  if (!List)
    return List.takeError();
  std::vector<std::pair<unsigned, int64_t>> Out;
  if (!*List)
    return Out;
  if ((*List)->empty() || (*List)->size() % 2)
    return yamlError(M.path(), M.node()["arg_equals"], "'arg_equals' must hold (position, value) pairs");
  for (size_t I = 0; I < (*List)->size(); I += 2) {
    int64_t P = (**List)[I];
    if (P < 0 || P > 64)
      return yamlError(M.path(), M.node()["arg_equals"], "'arg_equals' positions must be between 0 and 64");
    Out.emplace_back(static_cast<unsigned>(P), (**List)[I + 1]);
  }
  return Out;
}

static llvm::Expected<std::optional<unsigned>> takePosition(StrictMap &M, llvm::StringRef Key) {
  auto V = M.takeInt(Key);
  if (!V)
    return V.takeError();
  if (!*V)
    return std::nullopt;
  if (**V < 0 || **V > 64)
    return yamlError(M.path(), M.node()[Key.str()], "'" + Key + "' must be a position between 0 and 64");
  return static_cast<unsigned>(**V);
}

llvm::Error RuleSet::loadPack(llvm::StringRef File) {
  auto Doc = parseYamlFile(File);
  if (!Doc)
    return Doc.takeError();
  StrictMap Top(*Doc, File.str(), "rule pack");
  if (auto Err = Top.checkShape())
    return Err;
  auto PackName = Top.takeString("pack", true);
  if (!PackName)
    return PackName.takeError();
  auto PackDoc = Top.takeString("doc");
  if (!PackDoc)
    return PackDoc.takeError();
  auto Namespaces = Top.takeStringList("namespaces");
  if (!Namespaces)
    return Namespaces.takeError();
  auto FlavorList = Top.take("flavors");
  if (!FlavorList)
    return FlavorList.takeError();
  auto Assertions = Top.takeStringList("assertion_macros");
  if (!Assertions)
    return Assertions.takeError();
  auto Arrays = Top.takeStringList("host_arrays");
  if (!Arrays)
    return Arrays.takeError();
  auto Dispatch = Top.takeStringList("dispatch_macros");
  if (!Dispatch)
    return Dispatch.takeError();
  auto EntryList = Top.take("entries", true);
  if (!EntryList)
    return EntryList.takeError();
  if (auto Err = Top.finish())
    return Err;
  if (*Assertions)
    for (std::string &M : **Assertions)
      AssertionMacros.push_back(std::move(M));
  if (*Arrays)
    for (std::string &A : **Arrays)
      HostArrays.push_back(std::move(A));
  if (*Dispatch)
    for (std::string &D : **Dispatch)
      DispatchMacros.push_back(std::move(D));

  if (*FlavorList) {
    if (!(*FlavorList)->IsSequence())
      return yamlError(File, **FlavorList, "'flavors' must be a list");
    for (const YAML::Node &Item : **FlavorList) {
      StrictMap M(Item, File.str(), "flavor");
      if (auto Err = M.checkShape())
        return Err;
      ApiFlavor F;
      auto Name = M.takeString("name", true);
      if (!Name)
        return Name.takeError();
      auto TT = M.takeStringList("tensor_types", true);
      if (!TT)
        return TT.takeError();
      auto MB = M.takeStringList("module_bases");
      if (!MB)
        return MB.takeError();
      auto Sp = M.takeString("spelling", true);
      if (!Sp)
        return Sp.takeError();
      auto PT = M.takeStringList("placement_types");
      if (!PT)
        return PT.takeError();
      if (auto Err = M.finish())
        return Err;
      F.Name = **Name;
      F.TensorTypes = **TT;
      if (*MB)
        F.ModuleBases = **MB;
      F.Spelling = **Sp;
      if (*PT)
        F.PlacementTypes = **PT;
      Flavors.push_back(std::move(F));
    }
  }

  std::vector<std::string> Ns = *Namespaces ? **Namespaces : std::vector<std::string>{""};
  if (!(*EntryList)->IsSequence())
    return yamlError(File, **EntryList, "'entries' must be a list");
  std::vector<std::string> TagNames;
  for (const TagInfo &T : Tags)
    TagNames.push_back(T.Name);
  for (const YAML::Node &Item : **EntryList) {
    StrictMap M(Item, File.str(), "entry");
    if (auto Err = M.checkShape())
      return Err;
    ApiEntry E;
    E.Pack = **PackName;
    E.File = File.str();
    E.Line = Item.Mark().line + 1;
    auto Name = M.takeString("name", true);
    if (!Name)
      return Name.takeError();
    E.Name = **Name;
    auto KindNode = M.take("kind");
    if (!KindNode)
      return KindNode.takeError();
    auto KindNames = M.takeStringList("kind", false, /*AllowScalar=*/true);
    if (!KindNames)
      return KindNames.takeError();
    if (*KindNames) {
      auto K = parseKinds(**KindNames, **KindNode, File);
      if (!K)
        return K.takeError();
      E.Kinds = *K;
    }
    auto TagList = M.takeStringList("tags", true);
    if (!TagList)
      return TagList.takeError();
    for (const std::string &T : **TagList)
      if (!isKnownTag(T))
        return yamlError(File, Item["tags"], "unknown tag '" + T + "' in entry '" + E.Name + "'" +
                                                 didYouMean(T, TagNames) + " (tags are listed in tags.yaml)");
    E.Tags = **TagList;
    auto Arity = M.takeInt("arity");
    if (!Arity)
      return Arity.takeError();
    if (*Arity) {
      if (**Arity < 0 || **Arity > 64)
        return yamlError(File, Item["arity"], "'arity' must be between 0 and 64");
      E.Arity = static_cast<unsigned>(**Arity);
    }
    auto Size = takePositions(M, "size_args");
    if (!Size)
      return Size.takeError();
    E.SizeArgs = *Size;
    auto Length = takePositions(M, "length_args");
    if (!Length)
      return Length.takeError();
    E.LengthArgs = *Length;
    auto Index = takePositions(M, "index_args");
    if (!Index)
      return Index.takeError();
    E.IndexArgs = *Index;
    auto PositionList = takePositions(M, "position_args");
    if (!PositionList)
      return PositionList.takeError();
    E.PositionArgs = *PositionList;
    auto Callable = takePositions(M, "callable_args");
    if (!Callable)
      return Callable.takeError();
    E.CallableArgs = *Callable;
    auto Domain = takePositions(M, "domain_args");
    if (!Domain)
      return Domain.takeError();
    E.DomainArgs = *Domain;
    auto Dims = takePositions(M, "dim_args");
    if (!Dims)
      return Dims.takeError();
    E.DimArgs = *Dims;
    auto Tensors = takePositions(M, "tensor_args");
    if (!Tensors)
      return Tensors.takeError();
    E.TensorArgs = *Tensors;
    auto Equals = takeArgEquals(M);
    if (!Equals)
      return Equals.takeError();
    E.ArgEquals = *Equals;
    auto Pointer = M.takeBool("returns_pointer");
    if (!Pointer)
      return Pointer.takeError();
    E.ReturnsPointer = Pointer->value_or(false);
    auto Safe = M.takeInt("safe_value");
    if (!Safe)
      return Safe.takeError();
    E.SafeValue = *Safe;
    auto Stream = takePosition(M, "stream_arg");
    if (!Stream)
      return Stream.takeError();
    E.StreamArg = *Stream;
    auto Mode = takePosition(M, "mode_arg");
    if (!Mode)
      return Mode.takeError();
    E.ModeArg = *Mode;
    auto Relaxed = M.takeStringList("relaxed_modes");
    if (!Relaxed)
      return Relaxed.takeError();
    if (*Relaxed)
      E.RelaxedModes = **Relaxed;
    auto ThreadLocal = M.takeStringList("thread_local_modes");
    if (!ThreadLocal)
      return ThreadLocal.takeError();
    if (*ThreadLocal)
      E.ThreadLocalModes = **ThreadLocal;
    auto Idle = M.takeStringList("idle_statuses");
    if (!Idle)
      return Idle.takeError();
    if (*Idle)
      E.IdleStatuses = **Idle;
    auto Legacy = M.takeStringList("legacy_streams");
    if (!Legacy)
      return Legacy.takeError();
    if (*Legacy)
      E.LegacyStreams = **Legacy;
    auto Pointers = takePositions(M, "pointer_args");
    if (!Pointers)
      return Pointers.takeError();
    E.PointerArgs = *Pointers;
    auto Kind = takePosition(M, "kind_arg");
    if (!Kind)
      return Kind.takeError();
    E.KindArg = *Kind;
    auto DeviceKinds = M.takeStringList("device_kinds");
    if (!DeviceKinds)
      return DeviceKinds.takeError();
    if (*DeviceKinds)
      E.DeviceKinds = **DeviceKinds;
    auto DstDeviceKinds = M.takeStringList("dst_device_kinds");
    if (!DstDeviceKinds)
      return DstDeviceKinds.takeError();
    if (*DstDeviceKinds)
      E.DstDeviceKinds = **DstDeviceKinds;
    auto Declared = M.takeStringList("declared_in");
    if (!Declared)
      return Declared.takeError();
    if (*Declared) {
      if (llvm::any_of(**Declared, [](const std::string &P) { return P.empty(); }))
        return yamlError(File, Item, "entry '" + E.Name + "' has an empty path in 'declared_in'");
      E.DeclaredIn = **Declared;
    }
    auto Resource = M.takeString("lazy_resource");
    if (!Resource)
      return Resource.takeError();
    if (*Resource)
      E.LazyResource = **Resource;
    auto Shape = takePositions(M, "shape_args");
    if (!Shape)
      return Shape.takeError();
    E.ShapeArgs = *Shape;
    auto Fallback = takePositions(M, "fallback_shape_args");
    if (!Fallback)
      return Fallback.takeError();
    E.FallbackShapeArgs = *Fallback;
    auto EntryDoc = M.takeString("doc");
    if (!EntryDoc)
      return EntryDoc.takeError();
    if (*EntryDoc)
      E.Doc = **EntryDoc;
    auto EntryRecipe = M.takeString("recipe");
    if (!EntryRecipe)
      return EntryRecipe.takeError();
    if (*EntryRecipe)
      E.Recipe = **EntryRecipe;
    if (auto Err = M.finish())
      return Err;
    // Tags that need positions must have them, or the check silently never fires.
    if (E.hasTag("size_argument") && E.SizeArgs.empty() && E.LengthArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged size_argument but has no 'size_args' or 'length_args'");
    if (E.hasTag("position_argument") && E.PositionArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged position_argument but has no 'position_args'");
    if (E.hasTag("domain_restricted") && (E.DomainArgs.empty() || !E.SafeValue))
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged domain_restricted but lacks 'domain_args' or 'safe_value'");
    if (E.hasTag("gathers_rows") && (E.DimArgs.size() != 1 || E.PositionArgs.size() != 1))
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged gathers_rows but lacks one 'dim_args' and one "
                       "'position_args'");
    if (E.hasTag("along_dims") && E.DimArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged along_dims but has no 'dim_args'");
    for (llvm::StringRef Tag : {"capture_entry", "runs_callables", "wraps_callable", "runs_on_new_thread"})
      if (E.hasTag(Tag) && E.CallableArgs.empty())
        return yamlError(File, Item, "entry '" + E.Name + "' is tagged " + Tag.str() + " but has no 'callable_args'");
    for (llvm::StringRef Tag : {"capture_begin", "capture_end", "stream_ordered", "current_stream_guard"})
      if (E.hasTag(Tag) && !E.StreamArg)
        return yamlError(File, Item, "entry '" + E.Name + "' is tagged " + Tag.str() + " but has no 'stream_arg'");
    if (!E.LegacyStreams.empty() && !E.hasTag("stream_ordered"))
      return yamlError(File, Item, "entry '" + E.Name + "' has 'legacy_streams' but is not tagged stream_ordered");
    if (E.hasTag("capture_status_query") != !E.IdleStatuses.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' must have 'idle_statuses' exactly when tagged capture_status_query");
    if (E.KindArg.has_value() != !E.DeviceKinds.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' must have 'device_kinds' exactly when it has 'kind_arg'");
    if (!E.DstDeviceKinds.empty() && !E.KindArg)
      return yamlError(File, Item, "entry '" + E.Name + "' has 'dst_device_kinds' but no 'kind_arg'");
    if (E.KindArg && E.PointerArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' has 'kind_arg' but no 'pointer_args'");
    if (!E.RelaxedModes.empty() && !E.ModeArg)
      return yamlError(File, Item, "entry '" + E.Name + "' has 'relaxed_modes' but no 'mode_arg'");
    if (!E.ThreadLocalModes.empty() && !E.ModeArg)
      return yamlError(File, Item, "entry '" + E.Name + "' has 'thread_local_modes' but no 'mode_arg'");
    if (E.hasTag("capture_mode_guard") && !E.ModeArg)
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged capture_mode_guard but has no 'mode_arg'");
    if (E.hasTag("capture_mode_exchange") && E.RelaxedModes.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged capture_mode_exchange but has no 'relaxed_modes'");
    if (E.isMember() && !llvm::StringRef(E.Name).contains("::"))
      return yamlError(File, Item, "entry '" + E.Name + "' is of kind member but its name is not qualified (Class::method)");
    if (E.hasTag("host_array_shape") != !E.ShapeArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' must have 'shape_args' exactly when tagged host_array_shape");
    if (!E.FallbackShapeArgs.empty() && E.ShapeArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' has 'fallback_shape_args' but no 'shape_args'");
    if (E.hasTag("bool_mask_index") && E.IndexArgs.empty())
      return yamlError(File, Item, "entry '" + E.Name + "' is tagged bool_mask_index but has no 'index_args'");
    if (!E.LazyResource.empty() && !E.hasTag("first_call_allocates"))
      return yamlError(File, Item, "entry '" + E.Name + "' has 'lazy_resource' but is not tagged first_call_allocates");
    Entries.push_back(std::move(E));
    index(Entries.size() - 1, Ns);
  }
  PackFiles.push_back(File.str());
  return llvm::Error::success();
}

void RuleSet::index(unsigned Idx, llvm::ArrayRef<std::string> Namespaces) {
  const ApiEntry &E = Entries[Idx];
  // A bare name is filed as such only when it is already qualified or the pack claims the global
  // namespace; otherwise a user's own global `print` would inherit a tensor op's tags.
  // An entry tied to the headers that declare it (`declared_in`) cannot name a user's own
  // function, so its bare name is a global function's too (torchvision <= 0.7's `::nms`).
  bool ClaimsGlobal = llvm::is_contained(Namespaces, "") || !E.DeclaredIn.empty();
  bool Qualified = llvm::StringRef(E.Name).contains("::");
  auto AddQualified = [&](llvm::StringMap<std::vector<unsigned>> &Map) {
    if (Qualified || ClaimsGlobal)
      Map[E.Name].push_back(Idx);
    for (const std::string &N : Namespaces)
      if (!N.empty())
        Map[N + "::" + E.Name].push_back(Idx);
  };
  if (E.isMethod())
    MethodIndex[E.Name].push_back(Idx);
  if (E.isFunction())
    AddQualified(FunctionIndex);
  if (E.isConstructor())
    AddQualified(ConstructorIndex);
  if (E.isMember())
    MemberIndex[E.Name].push_back(Idx);
}

std::vector<const ApiEntry *> RuleSet::select(const llvm::StringMap<std::vector<unsigned>> &Index,
                                              llvm::StringRef Key, unsigned NumArgs) const {
  std::vector<const ApiEntry *> Out;
  auto It = Index.find(Key);
  if (It == Index.end())
    return Out;
  for (unsigned Idx : It->second) {
    const ApiEntry &E = Entries[Idx];
    if (E.Arity && *E.Arity != NumArgs)
      continue;
    if (!llvm::is_contained(Out, &E))
      Out.push_back(&E);
  }
  return Out;
}

std::vector<const ApiEntry *> RuleSet::lookupMethod(llvm::StringRef Name, unsigned NumArgs) const {
  return select(MethodIndex, Name, NumArgs);
}
std::vector<const ApiEntry *> RuleSet::lookupFunction(llvm::StringRef Q, unsigned NumArgs) const {
  return select(FunctionIndex, Q, NumArgs);
}
std::vector<const ApiEntry *> RuleSet::lookupConstructor(llvm::StringRef Q, unsigned NumArgs) const {
  return select(ConstructorIndex, Q, NumArgs);
}
std::vector<const ApiEntry *> RuleSet::lookupMember(llvm::StringRef Q, unsigned NumArgs) const {
  return select(MemberIndex, Q, NumArgs);
}

const ApiFlavor *RuleSet::flavorOfTensorType(llvm::StringRef Q) const {
  for (const ApiFlavor &F : Flavors)
    if (llvm::is_contained(F.TensorTypes, Q))
      return &F;
  return nullptr;
}

const ApiFlavor *RuleSet::flavorOfModuleBase(llvm::StringRef Q) const {
  for (const ApiFlavor &F : Flavors)
    if (llvm::is_contained(F.ModuleBases, Q))
      return &F;
  return nullptr;
}

std::string RuleSet::spellFunction(const ApiFlavor &Flavor, llvm::StringRef UnqualifiedName) const {
  return Flavor.Spelling + UnqualifiedName.str();
}

llvm::Expected<RuleSet> RuleSet::load(llvm::StringRef TagsFile, llvm::ArrayRef<std::string> Packs) {
  RuleSet R;
  if (auto Err = R.loadTags(TagsFile))
    return std::move(Err);
  for (const std::string &P : Packs)
    if (auto Err = R.loadPack(P))
      return std::move(Err);
  return R;
}

llvm::Expected<RuleSet> RuleSet::loadFromDirectory(llvm::StringRef Dir, llvm::ArrayRef<std::string> Extra) {
  llvm::SmallString<256> TagsFile(Dir);
  llvm::sys::path::append(TagsFile, "tags.yaml");
  if (!llvm::sys::fs::exists(TagsFile))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::formatv("{0}: error: rules directory has no tags.yaml "
                                                 "(set GRAPHIFY_RULES_DIR or pass --rules-dir)", Dir));
  std::vector<std::string> Packs;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef P = It->path();
    if (P.ends_with(".yaml") && llvm::sys::path::filename(P) != "tags.yaml")
      Packs.push_back(P.str());
  }
  if (EC)
    return llvm::createStringError(EC, llvm::formatv("{0}: error: cannot list rules directory", Dir));
  std::sort(Packs.begin(), Packs.end());
  Packs.insert(Packs.end(), Extra.begin(), Extra.end());
  auto R = load(TagsFile, Packs);
  if (!R)
    return R.takeError();
  // Rules that recognise nothing would make every file "clean": say so instead.
  if (R->flavors().empty() || R->entries().empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: error: the rule packs here define {1}, so nothing would be checked{2}", Dir,
                      Packs.empty()          ? "nothing (only tags.yaml)"
                      : R->flavors().empty() ? "no tensor types (no 'flavors:')"
                                             : "no API entries",
                      Packs.empty() ? "; add the packs (*.yaml) beside tags.yaml" : ""));
  return R;
}

std::string rulesDirectoryAbove(llvm::StringRef Binary) {
  if (const char *Env = std::getenv("GRAPHIFY_RULES_DIR"); Env && *Env)
    return Env;
  // <prefix>/bin/graphify-lint, <prefix>/lib/libgraphify-tidy.so and
  // <prefix>/lib/<multiarch>/libgraphify-tidy.so all find <prefix>/share/graphify/rules.
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Binary));
  for (int Up = 0; Up < 2 && !Dir.empty(); ++Up) {
    Dir = llvm::sys::path::parent_path(Dir);
    llvm::SmallString<256> Rules(Dir);
    llvm::sys::path::append(Rules, "share", "graphify", "rules");
    if (llvm::sys::fs::exists(Rules + "/tags.yaml"))
      return std::string(Rules);
  }
  return GRAPHIFY_SOURCE_RULES_DIR;
}

std::string defaultRulesDirectory(const char *Argv0) {
  if (!Argv0)
    return rulesDirectoryAbove("");
  return rulesDirectoryAbove(
      llvm::sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&defaultRulesDirectory)));
}

} // namespace graphify
