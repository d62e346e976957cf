#pragma once
/// \file
/// Capture guards held by a library holder (`std::unique_ptr<Guard>`, `std::optional<Guard>`,
/// a `std::unique_ptr` with a deleter that ends the capture): which of the project's functions
/// run when the holder makes or destroys the object it owns. The holders' calls are the packs'
/// (tags constructs_held, destroys_held in rules/std.yaml); this file only reads the holder's
/// template arguments and the library's instantiated bodies.

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/STLFunctionalExtras.h>

namespace graphify {

/// The function that destroys what an object of type `Holder` owns: the call operator of its
/// deleter when that is one of `Keep`'s functions (a class's, or a function pointer given to the
/// holder variable `Var`'s initialiser; a lambda's is analysed where it is written), else the
/// held class's destructor; null when `Holder` holds no class.
const clang::FunctionDecl *heldDestroyer(clang::QualType Holder, const clang::VarDecl *Var,
                                         llvm::function_ref<bool(const clang::FunctionDecl *)> Keep);

/// The constructor that `Call`, a library call making the object a holder owns
/// (`std::make_unique<Guard>(s)`, `opt.emplace(s)`), runs on it: found in the call's
/// instantiated library body; null when it cannot be told.
const clang::CXXConstructorDecl *heldConstructor(const clang::CallExpr &Call);

/// Whether `Call`, an assignment to a holder, empties it: the right-hand side is neither a
/// holder of the same type nor the held object (`p = nullptr`, `opt = std::nullopt`).
bool assignmentEmpties(const clang::CallExpr &Call);

} // namespace graphify
