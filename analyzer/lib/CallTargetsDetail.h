#pragma once
/// \file
/// What CallTargets.cpp (callables and virtual calls) and CallTargetsModules.cpp (the modules a
/// holder runs) share: how a value names the holder it is stored in, and which types are library
/// objects that may hold modules. Internal to the analyzer.

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace graphify::calltargets {

/// The canonical declaration, or null.
const clang::Decl *canon(const clang::Decl *D);

/// The initialiser written with a holder's declaration, or null (a parameter's are its callers'
/// arguments).
const clang::Expr *declaredInit(const clang::Decl *H);

/// The variable, field or parameter `E` names (through `*`, casts, elements and accessors), or null.
const clang::ValueDecl *namedHolder(const clang::Expr *E, unsigned Depth = 0);

/// The holder an accessor returns a reference to, or a copy of, when every return names the same
/// one (`Registry &hooks() { static Registry h; return h; }`), or null.
const clang::ValueDecl *returnedHolder(const clang::FunctionDecl *FD, unsigned Depth = 0);

/// Whether `E` holds no callable (`nullptr`, `{}`, a default-constructed wrapper).
bool isEmptyCallable(const clang::Expr *E);

/// Whether values of `T` are objects of a library class, which may hold modules given to them.
bool isLibraryObject(clang::QualType T, const ApiResolver &Api);

/// Whether values of `T` can hold modules whose forward a call runs: modules, their holders and
/// pointers, and library objects that run the modules they hold (an `AnyModule`). A tensor or a
/// device given to a module's method is no module.
bool mayHoldModules(clang::QualType T, const ApiResolver &Api);

} // namespace graphify::calltargets
