#pragma once
/// \file
/// Which code runs inside a traced or captured graph. Seeds: `forward` of classes derived from
/// a flavor's module base; functions, lambdas and lambda variables annotated
/// `graphify.graph_region`; qualified names matching the configured globs; callables passed to
/// `capture_entry` functions; the code inside capture windows (CaptureWindows.h) and what it
/// calls. The region is the seeds plus everything they call, transitively, among the functions
/// defined in the analyzed files. A lambda written inside a region is part of it. A virtual call
/// reaches every overrider defined there, and a call through a std::function or a function
/// pointer every callable assigned to its holder (CallTargets) — in whole-program mode, in any
/// unit: a unit whose region code calls a holder says so, and the units that assign callables
/// to it make those regions; when graphify cannot tell what such a call runs, it records an
/// unseen call instead of passing it over.
///
/// A function entered with a capture open (one that closes it: a wrapper's `CaptureEnd()`, a
/// helper that runs the nodes and ends the capture) is not a region body: its code up to its end
/// call is a window of its own (entryWindow), and the code after it is not captured.
///
/// A host epilogue (GraphRegionFinder::isHostEpilogue) is never a region body itself; the region
/// goes on through its calls.
///
/// A body reached only from windows opened in relaxed capture mode is a relaxed region: calls
/// tagged capture_relaxed_ok are allowed there.
///
/// \code
///   graphify::GraphRegionFinder Finder(Api, Config.GraphRegionGlobs);
///   graphify::GraphRegions Regions = Finder.find(Functions);
///   if (Regions.contains(FD)) ...
/// \endcode

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/CaptureWindows.h"
#include "graphify/analyzer/ProgramFacts.h"

#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/Support/GlobPattern.h>

#include <set>
#include <string>
#include <vector>

namespace graphify {

/// The set of bodies (functions and lambda call operators) that are graph regions.
class GraphRegions {
public:
  /// Whether `D` (a function, or a lambda's call operator) is a region body.
  bool contains(const clang::Decl *D) const;
  /// Marks `D` as a region body; returns false if it already was.
  bool insert(const clang::Decl *D);
  size_t size() const { return Bodies.size(); }

  /// Whether the region body `D` is reached only from relaxed-mode capture windows.
  bool isRelaxed(const clang::Decl *D) const;
  void markRelaxed(const clang::Decl *D);

  /// The capture windows written in `Function`'s body (empty for most functions).
  llvm::ArrayRef<CaptureWindow> windowsOf(const clang::Decl *Function) const;
  void addWindow(const CaptureWindow &W);

  /// Functions that region code calls but whose body is not analysed here (defined in another
  /// translation unit, or outside the analysed files), with whether only relaxed code calls
  /// them. Whole-program mode exports them as regions of the TU that defines them.
  const llvm::DenseMap<const clang::FunctionDecl *, bool> &calledWithoutBody() const { return Unresolved; }
  void noteCalledWithoutBody(const clang::FunctionDecl *FD, bool Relaxed);

  /// Code that should be checked and is not, with why: a call in region code whose targets
  /// graphify cannot see (an indirect call through a holder nothing known is assigned to), a
  /// capture that the checked files begin and never end (or end and never begin). The user is
  /// told instead of getting a silent pass.
  struct UncheckedNote {
    clang::SourceLocation Loc;
    std::string Message;
  };
  const std::vector<UncheckedNote> &uncheckedCode() const { return Unseen; }
  void noteUnchecked(clang::SourceLocation Loc, std::string Message) { Unseen.push_back({Loc, std::move(Message)}); }

  /// What each function does to stream capture (set by GraphRegionFinder::find).
  const CaptureEffects &captureEffects() const { return Effects; }
  void setCaptureEffects(CaptureEffects E) { Effects = std::move(E); }

  /// Callable holders by holderKey: the callables this unit gives them, and whether its region
  /// code calls them. Whole-program mode exports them: a hook registered in one file and run in
  /// another file's capture window is resolved through them.
  const std::map<std::string, HeldCallables> &callableFacts() const { return Callables; }
  HeldCallables &callableFact(const std::string &Key) { return Callables[Key]; }

  /// Whole-program mode: the capture-status helpers this unit calls and another unit defines,
  /// by canonical declaration, with what their truth means (IdleGuards).
  const llvm::DenseMap<const clang::FunctionDecl *, bool> &importedIdleHelpers() const { return IdleHelpers; }
  void importIdleHelper(const clang::FunctionDecl *FD, bool Idle) { IdleHelpers[FD->getCanonicalDecl()] = Idle; }
  /// Whole-program mode: what the program's calls of this unit's setter-shaped functions did,
  /// by canonical declaration (a capture flag set through a setter called in another unit).
  const llvm::DenseMap<const clang::FunctionDecl *, FlagWrites> &importedSetterCalls() const { return SetterCalls; }
  void importSetterCalls(const clang::FunctionDecl *FD, FlagWrites W) { SetterCalls[FD->getCanonicalDecl()] = W; }
  /// Whole-program mode: what the program's writes of the capture-flag candidates this unit
  /// names did, by canonical declaration.
  const llvm::DenseMap<const clang::ValueDecl *, FlagWrites> &importedFlagRecords() const { return FlagRecords; }
  void importFlagRecord(const clang::ValueDecl *D, FlagWrites W) { FlagRecords[D] = W; }

  /// Whether the regions were found in whole-program mode (other units may call this one's
  /// functions: a parameter's call sites here are not all of them).
  bool wholeProgram() const { return WholeProgram; }
  void setWholeProgram(bool On) { WholeProgram = On; }

private:
  bool WholeProgram = false;
  std::map<std::string, HeldCallables> Callables;
  llvm::DenseMap<const clang::FunctionDecl *, bool> IdleHelpers;
  llvm::DenseMap<const clang::FunctionDecl *, FlagWrites> SetterCalls;
  llvm::DenseMap<const clang::ValueDecl *, FlagWrites> FlagRecords;
  std::vector<UncheckedNote> Unseen;
  CaptureEffects Effects;
  llvm::DenseSet<const clang::Decl *> Bodies;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Unresolved;
  llvm::DenseSet<const clang::Decl *> RelaxedBodies;
  llvm::DenseMap<const clang::Decl *, std::vector<CaptureWindow>> Windows;
};

/// Computes the graph regions of a translation unit.
class GraphRegionFinder {
public:
  GraphRegionFinder(const ApiResolver &Api, std::vector<std::string> Globs)
      : Api(Api), Globs(std::move(Globs)) {}

  /// Whole-program mode: functions the program's other TUs found to be regions are seeds here
  /// (each key looked up is added to `Lookups`).
  void importFrom(const ProgramFacts *Program, std::set<std::string> *Lookups) {
    this->Program = Program;
    this->Lookups = Lookups;
  }

  /// `Functions` are the analyzed definitions (bodies in reported files); the closure of the
  /// call graph stays among them and the lambdas they contain.
  GraphRegions find(llvm::ArrayRef<const clang::FunctionDecl *> Functions) const;

  /// The globs that named a function given to find() (the others name nothing in this TU).
  const std::set<std::string> &matchedGlobs() const { return Matched; }

  /// Whether `D` carries `[[clang::annotate("graphify.graph_region")]]`.
  static bool isAnnotatedRegion(const clang::Decl *D);

  /// Whether `D` is a host epilogue: annotated `graphify.host_epilogue`, or documented by a
  /// comment that starts with `graphify: host epilogue` (what selection-to-padded writes above
  /// the function it splits) or `graphify: host prologue` (a wrapper that copies host data to the
  /// device before calling its core, what split-at-host-boundary writes). An epilogue reached from a region is host code — not checked —
  /// while what it calls (the padded core) stays in the region.
  static bool isHostEpilogue(const clang::Decl *D);

  /// Why `Glob` is not a graph-region glob (`*`, `?`, `[...]`, `{a,b}`, `\`, matched against
  /// qualified names), or empty when it is one. A malformed glob would match nothing, and the
  /// region the user meant would silently go unchecked, so callers refuse it.
  static std::string globProblem(llvm::StringRef Glob);

  /// `Glob` compiled with brace expansion on (llvm::GlobPattern leaves `{a,b}` literal unless
  /// given a limit on the patterns it expands to).
  static llvm::Expected<llvm::GlobPattern> compileGlob(llvm::StringRef Glob);

private:
  const ApiResolver &Api;
  std::vector<std::string> Globs;
  mutable std::set<std::string> Matched;
  const ProgramFacts *Program = nullptr;
  std::set<std::string> *Lookups = nullptr;

  RegionKind importedRegion(const clang::FunctionDecl *FD) const;
  /// Whole-program mode: what the bool functions `Functions` call without a body here mean as
  /// capture-status helpers, looked up in the program.
  void importIdleHelpers(llvm::ArrayRef<const clang::FunctionDecl *> Functions, GraphRegions &Regions) const;
  /// What the program's calls of the unit's flag setters (CaptureFlags::setFlag) did.
  void importSetterCalls(llvm::ArrayRef<const clang::FunctionDecl *> Functions, GraphRegions &Regions) const;
  /// What the program's writes of the flag candidates the unit's functions name did.
  void importFlagRecords(llvm::ArrayRef<const clang::FunctionDecl *> Functions, GraphRegions &Regions) const;

  bool isSeed(const clang::FunctionDecl *FD) const;
  /// Notes the captures a translation unit leaves unpaired: a function that returns with one open,
  /// or ends one open on entry, that nothing in the unit calls (single-unit runs only: in
  /// whole-program mode another unit may call it).
  void noteUnpairedCaptures(llvm::ArrayRef<const clang::FunctionDecl *> Functions, GraphRegions &Regions) const;
  /// Whole-program mode: the capture effect of a function defined in another TU.
  const CaptureEffect *importedEffect(const clang::FunctionDecl *FD) const;
  /// Whole-program mode: what the overriders of the method in other TUs do to capture, joined.
  const CaptureEffect *importedVirtualEffect(const clang::FunctionDecl *FD) const;
  bool matchesGlob(const clang::FunctionDecl *FD) const;
};

} // namespace graphify
