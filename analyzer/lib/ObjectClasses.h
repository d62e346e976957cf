#pragma once
/// \file
/// The classes an object reached by a virtual call may have, when the translation unit shows
/// how it is made: a local of a class type, `new D`, `std::make_unique<D>()` (any call whose
/// result is a `D`, a `D*` or a smart pointer to `D`: then `D` or a class derived from it), a
/// local pointer or reference initialised from one and never assigned again, and a parameter of
/// a function every call of which in the unit passes such an object. A virtual call on it runs
/// only the overriders those classes may have, not every overrider in the program
/// (`captureNet(Net &net)` called with a `Gpt` runs `Gpt::forward`, not `Debug::forward`).
/// Anything else is unknown: `this`, fields, globals, a function whose address is taken, a
/// virtual function, one without a call in the unit, or one other files may call (declared in a
/// header, or in whole-program mode any with external linkage).
///
/// \code
///   ObjectClasses Classes(Ast, /*WholeProgram=*/Program != nullptr);
///   for (const CXXMethodDecl *O : Classes.mayRun(MCE, Targets.overriders(MCE->getMethodDecl())))
/// \endcode

#include "CallSites.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>
#include <vector>

namespace graphify {

class ObjectClasses {
public:
  ObjectClasses(clang::ASTContext &Ast, bool WholeProgram) : WholeProgram(WholeProgram), Sites(Ast) {}

  /// Of `Overriders` (of the method `Call` names), those that may run on its object: each
  /// overrider defined in one of the object's possible classes or below, and the final
  /// overrider each such class inherits. All of them when the object's classes are unknown.
  std::vector<const clang::CXXMethodDecl *> mayRun(const clang::CXXMemberCallExpr &Call,
                                                  llvm::ArrayRef<const clang::CXXMethodDecl *> Overriders) const;

  /// The classes `Object` may have at run time, each standing for itself and the classes
  /// derived from it; nothing when unknown.
  std::optional<llvm::SmallVector<const clang::CXXRecordDecl *, 2>> of(const clang::Expr *Object,
                                                                       unsigned Depth = 0) const;

private:
  bool WholeProgram;
  CallSites Sites;

  std::optional<llvm::SmallVector<const clang::CXXRecordDecl *, 2>> ofParameter(const clang::ParmVarDecl &P,
                                                                                unsigned Depth) const;
};

} // namespace graphify
