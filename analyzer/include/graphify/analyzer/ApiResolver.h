#pragma once
/// \file
/// Maps AST calls onto rule-pack entries. A call is described in one normalized form for all
/// spellings (`x.nonzero()`, `torch::nonzero(x)`, `a > b`, `Slice(a, b)`): its matching entries,
/// its arguments by position (self is position 0 for methods, as the packs count), and where its
/// name is written (the caret of call diagnostics).
///
/// \code
///   graphify::ApiResolver Api(Rules);
///   if (auto Call = Api.resolve(E))
///     if (const graphify::ApiEntry *Entry = Call->entryWithTag("host_sync")) ...
/// \endcode

#include "graphify/analyzer/SuppressionKernel.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// One call, constructor or overloaded operator in the normalized form the packs use.
struct ApiCall {
  const clang::Expr *Call = nullptr;           ///< CallExpr or CXXConstructExpr
  const clang::FunctionDecl *Callee = nullptr; ///< the called function or constructor
  std::string Name;                            ///< unqualified callee name (`item`, `operator<<`)
  bool IsMethod = false;                       ///< called on a tensor object (position 0 is self)
  /// Arguments by pack position (defaulted arguments are left out).
  llvm::SmallVector<const clang::Expr *, 4> Args;
  clang::SourceLocation NameLoc;               ///< where the called name is written
  std::vector<const ApiEntry *> Entries;       ///< matching entries (empty: not a pack API)

  /// The first matching entry carrying `Tag`, or null.
  const ApiEntry *entryWithTag(llvm::StringRef Tag) const;
  bool hasTag(llvm::StringRef Tag) const { return entryWithTag(Tag) != nullptr; }
  /// The argument at pack position `Pos`, or null when the call has fewer.
  const clang::Expr *arg(unsigned Pos) const { return Pos < Args.size() ? Args[Pos] : nullptr; }
};

/// Answers "which pack entries does this call match" and "is this type a tensor".
class ApiResolver {
public:
  explicit ApiResolver(const RuleSet &Rules) : Rules(Rules) {}

  const RuleSet &rules() const { return Rules; }

  /// Normalizes `E` if it is a call, an overloaded operator or a constructor with a known callee;
  /// `Entries` is empty when no pack entry matches.
  std::optional<ApiCall> resolve(const clang::Expr *E) const;

  /// The tensor flavor of a type after stripping references and qualifiers (also through
  /// base classes), or null.
  const ApiFlavor *tensorFlavor(clang::QualType T) const;
  bool isTensor(clang::QualType T) const { return tensorFlavor(T) != nullptr; }
  /// Whether values of `T` hold tensors: a tensor, or a container, tuple, optional or array of
  /// them (`std::vector<torch::Tensor>`, `std::tuple<Tensor, int>`).
  bool holdsTensors(clang::QualType T, unsigned Depth = 0) const;
  /// Whether `D` is declared in a tensor library's own namespace: the outermost namespace of a
  /// flavor's tensor types or of its spelling (`at`, `torch`, `gfy`).
  bool isLibraryDecl(const clang::Decl *D) const;

  /// Whether `T` (references and qualifiers stripped) is one of a flavor's placement_types: a
  /// class or enum whose values choose where a tensor lives (tensor options, a device).
  bool isPlacementType(clang::QualType T) const;

  /// Whether `T` (references and qualifiers stripped) is one of the packs' host_arrays: a class
  /// whose objects hold host elements and a shape (`cv::Mat`, `cv::Mat_<float>`).
  bool isHostArray(clang::QualType T) const;
  /// A host container (isHostContainerType) or a host array: the taint analysis keeps what its
  /// elements hold apart from its length or shape.
  bool isHostContainer(clang::QualType T) const;
  /// A C array or a host container of host arrays (`cv::Mat planes[3]`,
  /// `std::vector<cv::Mat>`): the taint analysis keeps its elements' shapes with its length.
  bool holdsHostArrays(clang::QualType T) const;

  /// The `kind: member` entries that name the method `MD` of a class that is not a tensor class
  /// (a method of a class template named without its arguments), called with `NumArgs`
  /// arguments, the object counted.
  std::vector<const ApiEntry *> memberEntries(const clang::CXXMethodDecl &MD, unsigned NumArgs) const;

  /// The flavor whose module base `RD` derives from (transitively), or null.
  const ApiFlavor *moduleFlavor(const clang::CXXRecordDecl *RD) const;

  /// Whether `E` names the enumerator `Enumerator` (case-insensitive) anywhere inside it, also
  /// through constants such as `kCPU = DeviceType::CPU`, or holds a string literal starting with
  /// `StringPrefix` (`"cpu"`, `"cpu:0"`). Used for `to(kCPU)` and `to(kBool)`. A value chosen at
  /// run time (`c ? kCUDA : kCPU`, a local assigned again later) names the constant only when
  /// every possible value does.
  static bool mentionsConstant(const clang::Expr *E, llvm::StringRef Enumerator,
                               llvm::StringRef StringPrefix);

  /// Whether the statement `S` comes from the expansion of one of the packs' assertion macros
  /// (`assert(c)`, `TORCH_CHECK(c, ...)`, also through the macros they expand to): a check that
  /// stops the program when `c` fails, not a branch of the computation.
  bool isAssertion(const clang::Stmt &S, const clang::ASTContext &Ctx) const;

  /// Whether the statement `S` is the expansion of one of the packs' dispatch macros
  /// (`AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "op", [&] { ... })`): a switch over a dtype
  /// that runs the lambda it is given once, with `scalar_t` the case's type.
  bool isDispatch(const clang::Stmt &S, const clang::ASTContext &Ctx) const;

  /// The greedy suppression kernel `FD` (a project's own function, by its definition) writes
  /// out (SuppressionKernel.h), or null; recognized once per function. A call of such a function
  /// matches the packs' greedy_suppression entries, as a call of `vision::ops::nms` does; a
  /// method's call does so without its object (on `this` or a named object only).
  const SuppressionKernel *suppressionKernel(const clang::FunctionDecl *FD) const;

private:
  const RuleSet &Rules;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, const ApiFlavor *> TensorCache;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, const ApiFlavor *> ModuleCache;

  /// The namespaces of the flavors' tensor classes (`at`, `gfy`), computed once.
  mutable std::vector<std::string> TensorNamespaces;

  /// Node-based, so that the pointers suppressionKernel() returns stay valid.
  mutable std::map<const clang::FunctionDecl *, std::optional<SuppressionKernel>> Kernels;

  /// The function entries of every pack that carry `Tag`, in pack order.
  std::vector<const ApiEntry *> entriesTagged(llvm::StringRef Tag) const;
  const ApiFlavor *recordFlavor(const clang::CXXRecordDecl *RD, bool Module, unsigned Depth) const;
  /// Whether `E` is indexed under a tensor namespace (so a bare global name is a different
  /// function that merely shares the name).
  bool claimedByTensorNamespace(const ApiEntry &E, unsigned NumArgs) const;
  /// Drops the entries whose `tensor_args` are not tensors in `C`, or that want a pointer result
  /// (`returns_pointer`) where the callee returns something else (another overload's form).
  void dropUntypedForms(ApiCall &C) const;
};

/// `E` without parentheses, implicit casts, temporaries and the copies clang inserts around
/// class-typed values (copy/move constructors, conversion-free functional casts), and `std::move`.
const clang::Expr *skipValueWrappers(const clang::Expr *E);

/// The parts of an argument written as a list (`{0, Slice()}`, the `std::initializer_list` an
/// `ArrayRef` is made from) or constructed from parts (a `TensorIndex` made from an integer,
/// `Slice(0, 5)`), with `Constructed` set for the latter; nothing when `Inner` (wrappers
/// skipped) is a leaf.
std::optional<llvm::SmallVector<const clang::Expr *, 4>> argumentParts(const clang::Expr *Inner,
                                                                       const clang::CXXConstructExpr *&Constructed);

/// Whether `T` is a host container: a class with a `value_type` member (the standard Container
/// and optional interface: vector, string, map, deque, optional, span), unless its data members
/// are all public numbers (cv::Rect_, cv::Point_, cv::Size_ are records). The taint analysis keeps
/// its length apart from its elements; the recipes call a value stored into one "collected on the
/// host".
bool isHostContainerType(clang::QualType T);

/// A non-const method that returns a reference into its object and takes only integers by value
/// (`operator[](size_type)`, `at(size_type)`): it selects an element and stores nothing, unlike
/// `push_back(const T&)` or `emplace_back(Args&&...)`. Told by the signature, not by name.
bool isElementAccess(const clang::CXXMethodDecl &MD);

/// `m["boxes"]`, `m.at(key)`: a subscript or `at` that returns a reference to the element a key
/// (of any type) names, as a std::map's or an unordered_map's does; isElementAccess's too.
bool isKeyedElementAccess(const clang::CXXMethodDecl &MD);

/// `v.begin()`, `v.end()`, `v.rbegin()`: a non-const method without parameters that returns an
/// object by value. On a host container it hands out a position, not elements or a new length
/// (a `pop_back()` or a `clear()` returns nothing). Told by the signature, not by name.
bool returnsIterator(const clang::CXXMethodDecl &MD);

/// The host container whose elements the argument iterates with write access (`v.begin()`,
/// `v.begin() + k`, `v.rend()`), or null: an algorithm given it (`std::partial_sort`,
/// `std::fill`, `std::transform`'s output) may store into those elements or reorder them, not
/// change how many there are.
const clang::Expr *containerIteratedBy(const clang::Expr *Arg);

/// The values `VD` is given by plain assignments after its declaration (`v = e;`, in its
/// function), or nothing when it is also written another way (`v += e`) or has no function body.
std::optional<std::vector<const clang::Expr *>> assignedValues(const clang::VarDecl *VD);

/// Whether the local `VD` is assigned after its declaration anywhere in its function (then its
/// initializer is not its only possible value).
bool isAssignedAfterDeclaration(const clang::VarDecl *VD);

} // namespace graphify
