#pragma once
/// \file
/// Capture windows: the code between a call that begins stream capture and the call that ends it
/// (`cudaStreamBeginCapture(s, mode)` ... `cudaStreamEndCapture(s, &g)`, `graph.capture_begin()`
/// ... `graph.capture_end()`). That code is recorded into a CUDA graph, so it is checked as a graph
/// region; which calls open and close a window is the rule packs' `capture_begin` / `capture_end`
/// tags.
///
/// Windows are found in source order within one body, which is the order of execution for the
/// straight-line code capture is written in. A begin call is closed by the next end call on the
/// same stream (its `stream_arg`, compared as written), else by the next end call, else by the
/// end of the body. An end call with no begin before it opens nothing.
///
/// Windows span functions through capture effects (CaptureEffects): a function that returns with
/// a capture open (a wrapper's `CaptureBegin()`) is a begin call for its callers, and one that
/// ends a capture open on entry (`CaptureEnd()`, or a helper that runs the nodes and ends the
/// capture) is an end call. A function entered with a capture open — called in a window, or the
/// call that closes one — is in the window from its first statement up to its own end call
/// (entryWindow), and not after.
///
/// \code
///   graphify::CaptureEffects Effects = graphify::CaptureEffects::compute(Functions, Api, SM);
///   for (const graphify::CaptureWindow &W : graphify::findCaptureWindows(*FD, Api, SM, &Effects))
///     if (W.contains(S->getBeginLoc(), SM)) ...
/// \endcode

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/CaptureEffect.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

struct CaptureWindow {
  const clang::FunctionDecl *Function = nullptr;
  /// The last character of the begin call (of the macro invocation that wraps it, if any):
  /// code after it is captured. For an entry window, the body's opening brace.
  clang::SourceLocation Open;
  /// The first character of the begin call (the body's opening brace for an entry window).
  clang::SourceLocation Begin;
  /// The first character of the end call (or its macro invocation); invalid when the window
  /// runs to the end of the body.
  clang::SourceLocation Close;
  /// Along the control flow (CaptureFlow.h): the window runs up to Limit (when valid, instead of
  /// Close), and the statements that begin at the locations in Excluded are not in it (no path from
  /// the begin call reaches them without an end call).
  clang::SourceLocation Limit;
  std::shared_ptr<const llvm::DenseSet<unsigned>> Excluded;
  /// Whether the begin call selected relaxed capture mode (its `relaxed_modes`).
  bool Relaxed = false;
  /// Whether it selected thread-local mode (its `thread_local_modes`): other threads are free.
  bool ThreadLocal = false;
  /// The project function whose call closes the window (a wrapper's `CaptureEnd()`), or null when
  /// a capture API closes it or nothing does: that function is entered with the capture open.
  const clang::FunctionDecl *ClosedBy = nullptr;

  /// Whether `Loc` (any location, macro or file) lies strictly between Open and Close.
  bool contains(clang::SourceLocation Loc, const clang::SourceManager &SM) const;
};

/// One call in a body that may begin or end capture: a call the packs tag `capture_begin` or
/// `capture_end`, or a call of a project function (whose effect decides), the constructor of an
/// object included, and its destructor at the end of the object's scope.
struct CaptureSite {
  /// The call (a CallExpr, or the CXXConstructExpr of an object whose constructor begins a
  /// capture); null for the implicit destructor call at the end of a scope.
  const clang::Expr *Call = nullptr;
  /// The object whose destructor runs at the end of its scope (Start: the scope's closing brace),
  /// when that destructor may end a capture (an RAII capture guard).
  const clang::VarDecl *Destroyed = nullptr;
  clang::SourceLocation Start, Stop; ///< expansion range of the call (the macro around it, if any)
  enum class Kind { Begin, End, Callee } What = Kind::Callee;
  const clang::Expr *Stream = nullptr; ///< Begin, End: the stream argument
  bool Relaxed = false;                ///< Begin: selects relaxed mode
  bool ThreadLocal = false;            ///< Begin: selects thread-local mode
  const clang::FunctionDecl *Callee = nullptr; ///< Callee: the called function
  bool Virtual = false; ///< Callee: a virtual call that may run any overrider
  /// Callee: a library holder's call or destruction that runs the constructor or destroyer of
  /// the object it owns (CaptureHolders.h); that object's stream field has no name here.
  bool Held = false;
};

/// The capture effects of a translation unit's functions, computed to a fixed point over the
/// calls between them (a wrapper of a wrapper opens too).
class CaptureEffects {
public:
  /// Effects of functions with no body here (defined in another translation unit), or null.
  using Import = std::function<const CaptureEffect *(const clang::FunctionDecl *)>;

  /// `ImportedVirtual` gives, for a virtual method, what its overriders in other translation
  /// units do (whole-program mode).
  static CaptureEffects compute(llvm::ArrayRef<const clang::FunctionDecl *> Functions, const ApiResolver &Api,
                                const clang::SourceManager &SM, Import Imported = nullptr,
                                Import ImportedVirtual = nullptr);

  /// `FD`'s effect (imported for a function without a body here), or null when it has none.
  const CaptureEffect *of(const clang::FunctionDecl *FD) const;
  /// The effect of the call `Site` (a Callee site): its callee's, merged for a virtual call with
  /// the effects of the overriders defined here (any that opens or closes makes the call do so).
  std::optional<CaptureEffect> ofCall(const CaptureSite &Site) const;
  /// Whether any body given to compute() calls `FD` (directly, or through a virtual call that
  /// may dispatch to it).
  bool isCalled(const clang::FunctionDecl *FD) const;
  /// For each method overridden here by functions with an effect, their effects joined: what a
  /// virtual call of it may do (exported to the program's other units).
  std::map<const clang::FunctionDecl *, CaptureEffect> byOverriddenMethod() const;
  /// The overriders of `MD` defined here that close a capture (a virtual `OnRunEnd()`).
  std::vector<const clang::FunctionDecl *> closingOverriders(const clang::FunctionDecl *MD) const;
  /// The functions defined here that have an effect (by canonical declaration).
  const llvm::DenseMap<const clang::FunctionDecl *, CaptureEffect> &all() const { return Own; }
  /// The capture sites of a body given to compute(), or null.
  const std::vector<CaptureSite> *sitesOf(const clang::FunctionDecl *FD) const;

private:
  llvm::DenseMap<const clang::FunctionDecl *, CaptureEffect> Own;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CaptureSite>> Sites;
  /// Overridden method (canonical) -> its overriders among the functions given to compute().
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Overriders;
  Import Imported;
  Import ImportedVirtual;
};

/// The windows in `FD`'s body, in source order; with `Effects`, calls of functions that open or
/// close a capture count as begin and end calls.
std::vector<CaptureWindow> findCaptureWindows(const clang::FunctionDecl &FD, const ApiResolver &Api,
                                              const clang::SourceManager &SM,
                                              const CaptureEffects *Effects = nullptr);

/// The window of a function entered with a capture open (its effect Closes): from the body's
/// opening brace to its first end call. None when `FD` closes nothing.
std::optional<CaptureWindow> entryWindow(const clang::FunctionDecl &FD, const ApiResolver &Api,
                                         const clang::SourceManager &SM, const CaptureEffects &Effects);

} // namespace graphify
