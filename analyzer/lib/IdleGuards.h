#pragma once
/// \file
/// Code that runs only when no capture is running: a call in a branch taken when a capture
/// status query says the stream is idle (`if (status == cudaStreamCaptureStatusNone) sync();`),
/// or after a branch that leaves when it is not (`if (status != cudaStreamCaptureStatusNone)
/// return;`). The enumerators that mean "idle" are the packs' (`idle_statuses` of
/// capture_status_query entries), compared by qualified name or, for C enumerators, by name. A
/// status read into a variable before a capture begins is stale once it has: a comparison of it
/// after the begin call guards nothing, and so does a status kept in a field or a global. The
/// status of one stream guards no call that names another (`cudaStreamIsCapturing(copy_, &st);
/// if (st == None) cudaStreamSynchronize(main_);`). A comparison with another enumerator of the
/// same status type (`st == cudaStreamCaptureStatusActive`) means capturing when it holds; a
/// stream the function launches or copies on, tested for null (`if (stream == 0)
/// cudaDeviceSynchronize();`, OpenCV's idiom), means idle when null: no capture runs on the
/// legacy NULL stream, and the capturing caller passes its own stream; and a
/// call of the project's bool function whose one return compares a fresh status
/// (`bool capturing(s) { ...; return st != None; }`) means what that comparison means; in
/// whole-program mode the helper may be defined in another unit (ProgramFacts' `IdleHelpers`,
/// handed over by GraphRegions::importedIdleHelpers). The application's own flag set where its
/// capture begins and cleared where it ends (CaptureFlags: `if (!capturing_)`) means capturing
/// when it holds, and so does a bool parameter every captured call passes as true
/// (followParameters: `step(use_graph)` after `if (use_graph) begin();`).
///
/// \code
///   IdleGuards Guards(Ctx.api());
///   if (Guards.runsOnlyWhenIdle(*Call, Ctx.ast())) return;  // not captured
/// \endcode

#include "CallSites.h"
#include "CaptureFlags.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringSet.h>

#include <functional>
#include <memory>
#include <optional>

namespace graphify {

class IdleGuards {
public:
  /// `Imported`: what the helpers defined in other units mean, by canonical declaration.
  /// `ImportedSetters`: what other units' calls of this unit's flag setters did;
  /// `ImportedFlags`: what other units' writes of the flags it names did.
  explicit IdleGuards(const ApiResolver &Api,
                      const llvm::DenseMap<const clang::FunctionDecl *, bool> *Imported = nullptr,
                      const SetterCalls *ImportedSetters = nullptr,
                      const CaptureFlags::FlagRecords *ImportedFlags = nullptr);

  /// Whether `S` runs only when a capture status query said no capture is running.
  bool runsOnlyWhenIdle(const clang::Stmt &S, clang::ASTContext &Ast) const;

  /// Follows bool parameters into callers: a parameter that every call which may be captured
  /// (`MayBeCaptured`) passes as true while a capture runs — `true`, the flag that guarded the
  /// caller's begin call (`if (use_graph) begin(); step(use_graph);`), a status test or flag
  /// that means capturing, or a parameter of the caller of the same kind — means capturing when it
  /// holds; one they all pass as false there (`memcpy(..., /*sync=*/false)`) means idle when it
  /// holds. Only in functions whose every call the unit shows (CallSites).
  void followParameters(clang::ASTContext &Ast, bool WholeProgram,
                        std::function<bool(const clang::CallExpr &)> MayBeCaptured);

  /// What the truth of a call of `FD` says, when `FD` is a bool function of the project whose
  /// only return compares a status it queried (memoized; recursion answers nothing): true when
  /// it returns true while no capture runs (also `bool &` accessors of a capture flag). When this
  /// unit cannot tell (no body here, or a flag set only in other units), what `Imported` says.
  std::optional<bool> helperMeansIdle(const clang::FunctionDecl *FD) const;

private:
  const ApiResolver &Api;
  llvm::StringSet<> Idle;

  /// Whether `Cond` being true means idle (true), capturing (false), or neither is known, in
  /// the function whose body is `Body`, for a guarded call on `Stream` (null: no stream of its
  /// own).
  std::optional<bool> meansIdle(const clang::Expr *Cond, const clang::Stmt *Body, const clang::Expr *Stream) const;
  bool isIdleStatus(const clang::Expr *E) const;
  /// Whether `E` names an enumerator of a status type that has idle enumerators, but not one of
  /// them (`cudaStreamCaptureStatusActive`).
  bool isBusyStatus(const clang::Expr *E) const;
  const llvm::DenseMap<const clang::FunctionDecl *, bool> *Imported;
  const SetterCalls *ImportedSetters;
  const CaptureFlags::FlagRecords *ImportedFlags;
  /// helperMeansIdle from this unit's own body of `FD` only.
  std::optional<bool> localHelperMeansIdle(const clang::FunctionDecl *FD) const;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::optional<bool>> Helpers;
  /// The unit's own capture flags, found on the first condition that tests a candidate.
  mutable std::unique_ptr<CaptureFlags> Flags;
  /// Set by followParameters.
  std::unique_ptr<CallSites> Sites;
  bool WholeProgram = false;
  std::function<bool(const clang::CallExpr &)> MayBeCaptured;
  mutable unsigned CarryDepth = 0;
  /// The value the bool parameter `P` (read by `Read` in the body `Body`) has whenever its
  /// function runs in a capture, when every call that may be captured says the same
  /// (followParameters).
  std::optional<bool> capturedValue(const clang::ParmVarDecl &P, const clang::Expr *Read, const clang::Stmt *Body) const;
  /// Whether `Flag` (a name) guarded a capture begin call in `Body` and `Body` never writes it.
  bool guardedBegin(const clang::Expr *Flag, const clang::Stmt *Body) const;
  /// Whether the status `E` compares was read after the last capture begin before the
  /// comparison: a call, or a local variable a query wrote with no begin call since (a field or
  /// a global may have been read anywhere, any time). `Queried` is set to the stream argument of
  /// the query that wrote it, when the query has one.
  bool isFresh(const clang::Expr *E, const clang::Stmt *Body, const clang::Expr *&Queried) const;
  /// Whether `E` names a stream: a pointer variable or field that `Body` hands to a call at its
  /// entry's `stream_arg` (a launch's configuration, an async copy) — the packs say what a
  /// stream is.
  bool namesStream(const clang::Expr *E, const clang::Stmt *Body) const;
  /// namesStream's answers, by variable and body (the same guard is asked once per call it guards).
  mutable llvm::DenseMap<std::pair<const clang::ValueDecl *, const clang::Stmt *>, bool> Streams;
};

} // namespace graphify
