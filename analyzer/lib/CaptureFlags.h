#pragma once
/// \file
/// An application's own "in graph" flag: a bool field or variable outside any function (a graph
/// runner's `capturing_`, a thread-local `in_graph`) that the translation unit sets to `true`
/// only in functions that begin a capture and to `false` only in functions that end one or in
/// constructors, with a `false` (or no) initialiser, and never writes in another way (a value not a
/// literal, a compound assignment, its address taken). While a capture such code began runs, the
/// flag holds; where it is false none of them does, so `if (!capturing_) sync();` decides like a
/// capture status query. A flag may be a function's static local handed out by reference
/// (`bool &capturing() { static bool f = false; return f; }`, set with `capturing() = true`).
/// "Begins a capture" is a capture_begin call in the function's body or in
/// the body of a function of the unit it calls; likewise for ends. A flag may be written through
/// a setter, a function whose body assigns it its one bool parameter (`void set_capturing(bool
/// on) { g_capturing = on; }`): each call of the setter is then the write, with the literal it
/// passes (`set_capturing(true)` where a capture begins). In whole-program mode the calls may be
/// in other units (`Imported`: what their calls of the setter did, ProgramFacts' `SetterCalls`).
///
/// \code
///   CaptureFlags Flags(Api, Ast);
///   if (Flags.isFlag(Member->getMemberDecl())) ...  // true means capturing
/// \endcode

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/ProgramFacts.h"

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/DenseMap.h>

namespace graphify {

/// Calls of setter-shaped functions (one bool parameter), by the callee's canonical declaration.
using SetterCalls = llvm::DenseMap<const clang::FunctionDecl *, FlagWrites>;

class CaptureFlags {
public:
  /// What other units' writes of flag candidates did, by canonical declaration (whole-program).
  using FlagRecords = llvm::DenseMap<const clang::ValueDecl *, FlagWrites>;

  CaptureFlags(const ApiResolver &Api, clang::ASTContext &Ast, const SetterCalls *Imported = nullptr,
               const FlagRecords *ImportedFlags = nullptr);

  /// Whether `D` is such a flag.
  bool isFlag(const clang::ValueDecl *D) const;

  /// The flag candidate `E` names (a bool field, a bool variable that is not a local, or the one
  /// an accessor returns by reference), or null.
  static const clang::ValueDecl *flagNamed(const clang::Expr *E);

  /// What a write of `D` does: set true by code that begins, false by code that ends or a
  /// constructor, or anything else.
  enum class Write { SetOnBegin, ClearedOnEnd, Other };

  /// What this unit's calls of functions shaped as setters (one bool parameter, the project's)
  /// did: exported for the units that define them.
  const SetterCalls &setterCalls() const { return Calls; }
  /// The unit's writes of flag candidates (its setters' calls in other units joined): exported.
  const FlagRecords &records() const { return Records; }

  /// The flag `FD` sets from its one bool parameter, or null when it is no setter.
  static const clang::ValueDecl *setFlag(const clang::FunctionDecl *FD);

private:
  /// Per canonical declaration: whether every write seen so far fits, and whether one sets it.
  FlagRecords Records;
  SetterCalls Calls;

  void note(const clang::ValueDecl *D, Write W);
  friend class CaptureFlagCollector;
};

} // namespace graphify
