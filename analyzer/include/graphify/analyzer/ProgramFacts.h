#pragma once
/// \file
/// What translation units tell each other in whole-program mode: function summaries, parameter
/// entries, tainted fields and globals, and graph regions, each keyed by the USR of the function,
/// field or variable, so that the same declaration means the same entry in every TU. Origins
/// travel as portable origins (file/line/column and the phrase of the read) because AST nodes do
/// not outlive their TU. A TU exports `UnitFacts`; the driver merges them, in unit order, into
/// `ProgramFacts`, which the next round of every TU imports.
///
/// \code
///   graphify::ProgramFacts Program;
///   std::vector<graphify::UnitFacts> Units = ...;           // one export per TU
///   graphify::ProgramFacts Before = Program.snapshot();
///   Program.beginRound();
///   for (const graphify::UnitFacts &U : Units) Program.merge(U);
///   if (!Program.sameOn(Before, Units[0].Lookups)) ...      // TU 0 must re-analyse
/// \endcode

#include "graphify/analyzer/CaptureEffect.h"
#include "graphify/analyzer/Finding.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphify {

/// A taint origin that outlives its translation unit: the read and the steps after it inside
/// the TU that exported it (in the order they happened: read first).
struct PortableOrigin {
  std::string What;              ///< "'item' copies one element to the host"
  SourcePoint Read;              ///< the read's called name, as a real path
  std::vector<FindingNote> Steps; ///< "assigned to 'm' here", ... (read first, use last)
  bool SizeOfSelection = false;   ///< see TaintOrigin
  bool FromSelection = false;     ///< see TaintOrigin
  bool ThroughControl = false;    ///< see TaintOrigin
};

/// A host value of a summary: tainted by a read (Origin) and/or carrying parameters (bit i).
struct PortableValue {
  const PortableOrigin *Origin = nullptr;
  uint64_t Params = 0;
  bool AnyDim = false; ///< shapes only (see TaintValue)
  bool empty() const { return !Origin && !Params; }
  /// Same facts, whichever read explains the taint.
  bool sameKind(const PortableValue &O) const {
    return bool(Origin) == bool(O.Origin) && Params == O.Params && AnyDim == O.AnyDim;
  }
};

/// A function summary (see TaintAnalysis.h) in portable form.
struct PortableSummary {
  PortableValue Return;
  /// Whether the returned tensor's shape follows tensor values: a selection made inside
  /// (Origin) or the shapes of tensor parameters (bit i).
  PortableValue ReturnShape;
  PortableValue ReturnSize; ///< a returned host container's length (Return: its elements)
  bool ReturnsMask = false;
  /// Every return is a tensor in pageable host memory (`return torch::from_blob(p, s).clone();`):
  /// a copy of the result to the device, in any TU, synchronises with the host.
  bool ReturnsHost = false;
  std::vector<PortableValue> Out; ///< per parameter: what a reference/pointer parameter holds at exit
  std::vector<PortableValue> OutSize; ///< per parameter: a host container parameter's length at exit
  bool sameKind(const PortableSummary &O) const;
};

enum class RegionKind : uint8_t { None, Relaxed, Strict };

/// What an application capture flag's writes (or its setter's calls, `set_capturing(true)`) did,
/// joined: every one fits (true where a capture begins, false where one ends or in a
/// constructor) and one of them sets it (CaptureFlags).
struct FlagWrites {
  bool Fits = true;
  bool SetSomewhere = false;
  void join(const FlagWrites &O) {
    Fits = Fits && O.Fits;
    SetSomewhere = SetSomewhere || O.SetSomewhere;
  }
  bool operator==(const FlagWrites &O) const { return Fits == O.Fits && SetSomewhere == O.SetSomewhere; }
};

/// What the program knows of one callable holder (a `std::function` or function-pointer field,
/// a global, a function's parameter; see holderKey): whether region code calls it, and the
/// callables assigned to it, by USR, in any unit. The unit that calls it and the units that
/// assign to it are often different files (a hook registered in `main.cpp`, run by the engine).
struct HeldCallables {
  RegionKind Called = RegionKind::None;
  std::set<std::string> Bodies;
  bool Opaque = false; ///< some unit gives it a callable graphify cannot follow
  bool operator==(const HeldCallables &O) const {
    return Called == O.Called && Bodies == O.Bodies && Opaque == O.Opaque;
  }
  void join(const HeldCallables &O) {
    Called = std::max(Called, O.Called);
    Bodies.insert(O.Bodies.begin(), O.Bodies.end());
    Opaque |= O.Opaque;
  }
};

/// Facts keyed by USR. Origins are owned by the object they were added to and never move.
class FactTable {
public:
  std::map<std::string, PortableSummary> Summaries;
  /// Per function, per parameter: taint passed to it from region code (null: none).
  std::map<std::string, std::vector<const PortableOrigin *>> ParamEntries;
  std::map<std::string, const PortableOrigin *> Fields;
  /// Tensor fields (and fields holding tensors) given a value-dependent shape somewhere.
  std::map<std::string, const PortableOrigin *> FieldShapes;
  /// Container fields whose number of elements follows tensor data somewhere (grown or resized
  /// under a data-dependent condition, or by a data-dependent count).
  std::map<std::string, const PortableOrigin *> FieldSizes;
  std::map<std::string, const PortableOrigin *> Globals;
  std::map<std::string, RegionKind> Regions;
  /// Functions that open or close stream capture for their callers (a wrapper's CaptureBegin()).
  std::map<std::string, CaptureEffect> Captures;
  /// Virtual methods, by the USR of the overridden method: the joined effects of the overriders
  /// a unit defines (a virtual call of the method may run any of them).
  std::map<std::string, CaptureEffect> VirtualCaptures;
  /// Callable holders, by holderKey.
  std::map<std::string, HeldCallables> Callables;
  /// The project's capture-status helpers, by USR: bool functions whose one return compares a
  /// capture status they queried (IdleGuards::helperMeansIdle), true when they return true while
  /// no capture is running. A call of one in another unit guards like a status test there.
  std::map<std::string, bool> IdleHelpers;
  /// Functions shaped as capture-flag setters (one bool parameter), by USR: what the calls of
  /// them did, joined over the units. The unit that defines a setter joins them into the flag it
  /// sets (`set_graph_capturing(true)` in one file, the flag and its test in another).
  std::map<std::string, FlagWrites> SetterCalls;
  /// Capture-flag candidates (bool fields, bool globals), by USR: their writes in every unit,
  /// joined (setter calls included where the setter is defined), so that a file testing a flag
  /// written only elsewhere, or also written another way elsewhere, knows.
  std::map<std::string, FlagWrites> FlagRecords;

  /// Stores a copy of `O` and returns its stable address (null stays null).
  const PortableOrigin *keep(const PortableOrigin *O);

  FactTable() = default;
  FactTable(const FactTable &) = delete;
  FactTable &operator=(const FactTable &) = delete;
  FactTable(FactTable &&) = default;
  FactTable &operator=(FactTable &&) = default;

private:
  std::deque<PortableOrigin> Storage;
};

/// What one translation unit exports after a round, and which program facts it looked up
/// (keys "S:usr", "P:usr", "F:usr", "H:usr", "N:usr", "G:usr", "R:usr", "C:usr", "V:usr", "K:key",
/// "I:usr" for summaries, parameter entries, fields, field shapes, field sizes, globals, regions,
/// capture effects, the capture effects of overriders, callable holders and capture-status helpers): a later round needs re-running only when one of those changed.
struct UnitFacts : FactTable {
  std::set<std::string> Lookups;
};

/// The merged facts of the whole program.
class ProgramFacts : public FactTable {
public:
  /// Starts a round of merges (see merge).
  void beginRound();
  /// Joins `U` into these facts. Taint and regions only grow; an origin, once known, is kept, so
  /// merging units in a fixed order gives the same facts whatever order they finished in.
  void merge(const FactTable &U);
  /// Whether `Other` holds the same facts as this for every key in `Lookups` (origins aside).
  bool sameOn(const ProgramFacts &Other, const std::set<std::string> &Lookups) const;
  /// A copy of the facts' shape for later comparison (origins shared, not copied).
  ProgramFacts snapshot() const;
  /// The facts on the keys of `Lookups` only, origins copied: what an analysis that looked
  /// these up read from this program (a unit summary's imports, docs/architecture.md).
  ProgramFacts slice(const std::set<std::string> &Lookups) const;

  RegionKind region(const std::string &Usr) const;
  /// The capture effect of the function, or null when it has none.
  const CaptureEffect *capture(const std::string &Usr) const;
  /// What the overriders of the method do to capture, joined, or null when none has an effect.
  const CaptureEffect *virtualCapture(const std::string &Usr) const;
  /// What the program knows of the callable holder, or null when nothing.
  const HeldCallables *callables(const std::string &Key) const;
  /// What the capture-status helper `Usr` returns while no capture runs, if it is one.
  std::optional<bool> idleHelper(const std::string &Usr) const;
  /// What the program's calls of the setter-shaped function `Usr` did, if it has any.
  std::optional<FlagWrites> setterCalls(const std::string &Usr) const;
  /// What the program's writes of the flag candidate `Usr` did, if any unit writes it.
  std::optional<FlagWrites> flagRecord(const std::string &Usr) const;

private:
  std::set<std::string> MaskSeen; ///< summaries merged in this round
  std::set<std::string> CaptureSeen; ///< capture effects merged in this round
  std::set<std::string> VirtualSeen; ///< overriders' capture effects merged in this round
};

/// The USR of `D` (a function, field or variable), or empty when Clang cannot make one.
std::string usrOf(const clang::Decl *D);

/// The key of a callable holder that is the same in every unit: the USR of a field or a
/// variable at namespace or class scope, `usr#N` for the N-th parameter of a function, empty for
/// a local variable (no other unit can give it anything).
std::string holderKey(const clang::ValueDecl *Holder);

/// The key of a callable's body that is the same in every unit that sees it: its USR (a lambda's
/// names the place it is written).
std::string bodyKey(const clang::Decl *Body);

/// `Loc` as a portable point: the file's real path, line and column of its file location.
SourcePoint portablePoint(const clang::SourceManager &SM, clang::SourceLocation Loc);

} // namespace graphify
