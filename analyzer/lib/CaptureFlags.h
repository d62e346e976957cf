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
/// the body of a function of the unit it calls; likewise for ends.
///
/// \code
///   CaptureFlags Flags(Api, Ast);
///   if (Flags.isFlag(Member->getMemberDecl())) ...  // true means capturing
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/DenseMap.h>

namespace graphify {

class CaptureFlags {
public:
  CaptureFlags(const ApiResolver &Api, clang::ASTContext &Ast);

  /// Whether `D` is such a flag.
  bool isFlag(const clang::ValueDecl *D) const;

  /// The flag candidate `E` names (a bool field, a bool variable that is not a local, or the one
  /// an accessor returns by reference), or null.
  static const clang::ValueDecl *flagNamed(const clang::Expr *E);

  /// What a write of `D` does: set true by code that begins, false by code that ends or a
  /// constructor, or anything else.
  enum class Write { SetOnBegin, ClearedOnEnd, Other };

private:
  /// Per canonical declaration: whether every write seen so far fits, and whether one sets it.
  struct Record {
    bool Fits = true;
    bool SetSomewhere = false;
  };
  llvm::DenseMap<const clang::ValueDecl *, Record> Records;

  void note(const clang::ValueDecl *D, Write W);
  friend class CaptureFlagCollector;
};

} // namespace graphify
