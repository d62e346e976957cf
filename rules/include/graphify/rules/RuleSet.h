#pragma once
/// \file
/// API knowledge loaded from rule packs (rules/*.yaml): which tensor methods and functions read
/// values on the host, produce dynamic shapes, take sizes, are pure, or capture callables.
/// No C++ code keeps lists of API names; it asks a RuleSet.
///
/// \code
///   auto Rules = graphify::RuleSet::loadFromDirectory(graphify::defaultRulesDirectory(Argv0));
///   if (!Rules) { llvm::errs() << llvm::toString(Rules.takeError()); return 2; }
///   for (const graphify::ApiEntry *E : Rules->lookupMethod("item", 1))
///     if (E->hasTag("host_sync")) ...
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// Which call forms an entry describes.
/// `member` is a method of a non-tensor class named by its qualified name
/// (`at::cuda::CUDAGraph::capture_begin`); the object is position 0, as for tensor methods.
enum EntryKind : unsigned { KindMethod = 1, KindFunction = 2, KindConstructor = 4, KindMember = 8 };

/// One API element of a pack: a method, a free function or a constructor, with its tags.
struct ApiEntry {
  std::string Name;                 ///< as written: `item`, `operator>`, `gfy::capture`, `indexing::Slice`
  unsigned Kinds = KindMethod | KindFunction;
  std::vector<std::string> Tags;    ///< from the closed list in tags.yaml
  std::optional<unsigned> Arity;    ///< matches only calls with this many arguments (self counted)
  std::vector<unsigned> SizeArgs;   ///< positions of size/bound/k arguments (self is position 0)
  /// Positions of host data whose number of elements is the result's size (`torch::tensor(v)`:
  /// the length of `v`, not its values).
  std::vector<unsigned> LengthArgs;
  std::vector<unsigned> IndexArgs;  ///< positions of index lists (bool_mask_index)
  std::vector<unsigned> PositionArgs; ///< positions of element positions (position_argument)
  std::vector<unsigned> CallableArgs; ///< positions of captured callables (capture_entry)
  std::vector<unsigned> DomainArgs; ///< positions of inputs with a restricted domain (domain_restricted)
  std::vector<unsigned> DimArgs;    ///< positions of dimension arguments (along_dims)
  /// Positions that must hold tensors for the entry to describe the call: an overload set whose
  /// forms differ by an argument's type (`repeat_interleave(2)` repeats statically,
  /// `repeat_interleave(counts)` as the data says).
  std::vector<unsigned> TensorArgs;
  /// (position, value) pairs: the entry describes a call only when the argument at each position
  /// is that integer constant (`multinomial(p, 1, true)` reads back; `(p, 5, true)` does not).
  std::vector<std::pair<unsigned, int64_t>> ArgEquals;
  /// Matches only a form that returns a pointer: `t.data<float>()` (the old spelling of
  /// `data_ptr<float>()`) beside `t.data()`, which returns a tensor.
  bool ReturnsPointer = false;
  std::optional<int64_t> SafeValue; ///< an input inside that domain, with a finite derivative (domain_restricted)
  /// Position naming the stream or graph a capture_begin/capture_end call acts on (a window
  /// closes at the next end call on the same stream), or the stream a stream_ordered call
  /// enqueues its work on.
  std::optional<unsigned> StreamArg;
  /// Names (macros or constants) that, as a stream_ordered call's stream argument, select the
  /// legacy default stream as an omitted or null argument does (`cudaStreamLegacy`).
  std::vector<std::string> LegacyStreams;
  /// Path fragments (`torchvision/`): the entry matches a call only when a declaration of the
  /// callee sits in a file whose path contains one of them; a project's own function of the
  /// same name, declared in its own files, is not the library's.
  std::vector<std::string> DeclaredIn;
  /// What a first_call_allocates entry initialises lazily when it is shared by other entries
  /// (`cublas_handle`: matmul, mm, linear, ...): a warm-up call of any of them initialises it for
  /// all, and in a capture window only the first of them is the hazard. Empty: the entry's own.
  std::string LazyResource;
  std::optional<unsigned> ModeArg;  ///< position of a capture_begin's capture-mode argument
  /// Enumerators of the mode argument that select relaxed capture (capture_relaxed_ok calls
  /// are then allowed in the window).
  std::vector<std::string> RelaxedModes;
  /// Enumerators of the mode argument that select thread-local capture: only the capturing
  /// thread is restricted, so code the window hands to another thread runs as in relaxed mode.
  std::vector<std::string> ThreadLocalModes;
  /// Enumerators of a capture_status_query's result that mean no capture is running
  /// (`cudaStreamCaptureStatusNone`): code that runs only when the status equals one of them is
  /// not captured.
  std::vector<std::string> IdleStatuses;
  /// Positions of the device pointers a stream-ordered call reads or writes on the device, whose
  /// values stay there (a device-to-device copy's two pointers, a memset's destination): a
  /// tensor's data_ptr() given there is its device address, not a host read.
  std::vector<unsigned> PointerArgs;
  /// Position of a copy's direction argument; with it, the pointers are device pointers only when
  /// the argument is one of DeviceKinds (`cudaMemcpyDeviceToDevice`).
  std::optional<unsigned> KindArg;
  std::vector<std::string> DeviceKinds;
  /// Enumerators of the direction argument under which the first of PointerArgs, the
  /// destination, is device memory (`cudaMemcpyHostToDevice`).
  std::vector<std::string> DstDeviceKinds;
  /// Positions whose values give the shape of the host arrays (RuleSet::hostArrays) the call
  /// writes or returns (host_array_shape): `cv::resize`'s dsize. A host array there gives its
  /// shape, not its elements.
  std::vector<unsigned> ShapeArgs;
  /// Positions that give that shape too unless every shape argument is a nonzero constant:
  /// `cv::resize(src, dst, cv::Size(), fx, fy)` scales src by fx and fy.
  std::vector<unsigned> FallbackShapeArgs;
  std::string Doc;                  ///< short phrase for diagnostics; may be empty
  /// What to do by hand about a finding at the call itself, when the pack knows better than the
  /// check's general advice (a host_sync op with a variant that reads nothing back); may be empty.
  std::string Recipe;
  std::string Pack;                 ///< name of the pack that declared it
  std::string File;                 ///< pack file, for messages
  unsigned Line = 0;                ///< line of the entry in the pack file (1-based)

  bool hasTag(llvm::StringRef Tag) const;
  bool isMethod() const { return Kinds & KindMethod; }
  bool isFunction() const { return Kinds & KindFunction; }
  bool isConstructor() const { return Kinds & KindConstructor; }
  bool isMember() const { return Kinds & KindMember; }
};

/// A tensor API (LibTorch, the gfy runtime): its tensor classes, module bases, and how rewrites
/// spell its functions (`torch::`, `gfy::`).
struct ApiFlavor {
  std::string Name;
  std::vector<std::string> TensorTypes;  ///< fully qualified class names
  std::vector<std::string> ModuleBases;  ///< fully qualified class names
  std::string Spelling;                  ///< prefix for emitted function names, e.g. "torch::"
  /// Classes whose values choose where a tensor lives (tensor options, a device): a factory
  /// given one may create the tensor on a device, a transfer given one may copy it there.
  std::vector<std::string> PlacementTypes;
};

/// A documented tag from tags.yaml.
struct TagInfo {
  std::string Name;
  std::string Doc;
};

/// All tags and packs, indexed for lookups by call form.
class RuleSet {
public:
  /// Loads `TagsFile` (the closed tag list) and every pack in `PackFiles`. Errors are
  /// `file:line:col: error: ...` for syntax, unknown keys, unknown tags, wrong types, duplicates.
  static llvm::Expected<RuleSet> load(llvm::StringRef TagsFile, llvm::ArrayRef<std::string> PackFiles);
  /// Loads `Dir/tags.yaml` and every other `Dir/*.yaml` (sorted), then `ExtraPacks`. Packs that
  /// together define no flavor or no API entry are an error: they would check nothing.
  static llvm::Expected<RuleSet> loadFromDirectory(llvm::StringRef Dir,
                                                   llvm::ArrayRef<std::string> ExtraPacks = {});

  const std::vector<TagInfo> &tags() const { return Tags; }
  const std::vector<ApiFlavor> &flavors() const { return Flavors; }
  const std::vector<ApiEntry> &entries() const { return Entries; }
  const std::vector<std::string> &packFiles() const { return PackFiles; }
  /// Macros that assert (`assert`, `TORCH_CHECK`): the branches they expand to are checks that
  /// stop the program, not control flow of the computation.
  const std::vector<std::string> &assertionMacros() const { return AssertionMacros; }
  /// Classes whose objects hold host elements and a shape (`cv::Mat`), qualified, a template
  /// named without its arguments: the analysis keeps what their elements hold apart from their
  /// shape, as for standard containers.
  const std::vector<std::string> &hostArrays() const { return HostArrays; }
  /// Macros that run a lambda once for the dtype of a tensor (`AT_DISPATCH_FLOATING_TYPES`):
  /// a switch whose every case runs the lambda with `scalar_t` that case's type.
  const std::vector<std::string> &dispatchMacros() const { return DispatchMacros; }
  bool isKnownTag(llvm::StringRef Tag) const;

  /// Entries for `obj.Name(...)` on a tensor; `NumArgs` counts the object as argument 0.
  std::vector<const ApiEntry *> lookupMethod(llvm::StringRef Name, unsigned NumArgs) const;
  /// Entries for a call of the free function with this fully qualified name (`at::nonzero`).
  std::vector<const ApiEntry *> lookupFunction(llvm::StringRef QualifiedName, unsigned NumArgs) const;
  /// Entries for a call of a non-tensor class's method by its qualified name (`kind: member`);
  /// `NumArgs` counts the object as argument 0.
  std::vector<const ApiEntry *> lookupMember(llvm::StringRef QualifiedName, unsigned NumArgs) const;
  /// Entries for constructing the class with this fully qualified name (`at::indexing::Slice`).
  std::vector<const ApiEntry *> lookupConstructor(llvm::StringRef QualifiedName, unsigned NumArgs) const;

  /// The flavor whose tensor types include this fully qualified class name, if any.
  const ApiFlavor *flavorOfTensorType(llvm::StringRef QualifiedName) const;
  /// The flavor whose module bases include this fully qualified class name, if any.
  const ApiFlavor *flavorOfModuleBase(llvm::StringRef QualifiedName) const;
  /// The pack entry tagged `Tag` for a flavor, e.g. the where_select function (`torch::where`).
  std::string spellFunction(const ApiFlavor &Flavor, llvm::StringRef UnqualifiedName) const;

private:
  std::vector<TagInfo> Tags;
  std::vector<ApiFlavor> Flavors;
  std::vector<ApiEntry> Entries;
  std::vector<std::string> PackFiles;
  std::vector<std::string> AssertionMacros;
  std::vector<std::string> HostArrays;
  std::vector<std::string> DispatchMacros;
  llvm::StringMap<std::vector<unsigned>> MethodIndex;      // unqualified name -> entries
  llvm::StringMap<std::vector<unsigned>> FunctionIndex;    // qualified name -> entries
  llvm::StringMap<std::vector<unsigned>> ConstructorIndex; // qualified class name -> entries
  llvm::StringMap<std::vector<unsigned>> MemberIndex;      // qualified method name -> entries

  llvm::Error loadTags(llvm::StringRef File);
  llvm::Error loadPack(llvm::StringRef File);
  void index(unsigned EntryIdx, llvm::ArrayRef<std::string> Namespaces);
  std::vector<const ApiEntry *> select(const llvm::StringMap<std::vector<unsigned>> &Index,
                                       llvm::StringRef Key, unsigned NumArgs) const;
};

/// Where the shipped packs are: $GRAPHIFY_RULES_DIR, else `<exe>/../share/graphify/rules`, else
/// the source tree's rules/ (for tools run from a build directory).
std::string defaultRulesDirectory(const char *Argv0);

/// The same search for a binary at `Binary` (a tool or a loaded module): $GRAPHIFY_RULES_DIR, else
/// `share/graphify/rules` two or three levels above it, else the source tree's rules/.
std::string rulesDirectoryAbove(llvm::StringRef Binary);

} // namespace graphify
