#pragma once
/// \file
/// User-written lazy initialisation: code that runs the first time a function runs on an object,
/// and not again, because it sets the state its guard tests. Engines allocate workspaces, create
/// communicators and grow caches that way (`if (!comm_) ncclCommInitRank(&comm_, ...);`,
/// `if (!ws_) cudaMalloc(&ws_, n);`, `if (batch <= kv_batch_) return; cudaFree(kv_); cudaMalloc(&kv_,
/// ...); kv_batch_ = batch;`). Reached from a capture window, such a call is illegal only when no
/// warm-up ran the function before the capture began, which FirstCallsInWindows decides as it
/// does for the packs' `first_call_allocates` calls.
///
/// A guard is an `if` whose branch holding the call makes or grows a field of `this` or a global
/// that its condition asks about, or an `if (...) return;` before the call, in the same block,
/// whose condition asks about one that the rest of the block makes or grows. Asking is testing it
/// for truth or against zero/null (`!ws_`, `comm_ == nullptr`: making it is assigning it, taking
/// its address, incrementing it), or comparing it (`bytes <= capacity_`: growing it is assigning
/// it something that is not a constant, so a counter compared and reset to zero runs again and
/// is no guard); an operand of `&&`/`||` counts.
///
/// C++'s own lazy initialisation counts too: a call in the initialiser of a function's static
/// local (`static Handle h = makeHandle();`), or in the constructor of a singleton (constructors
/// all private or protected, its methods making it only as a static local: `static Ctx
/// &Instance() { static Ctx c; return c; }`), runs on the function's first call; its State is
/// that static local.
///
/// \code
///   if (auto Lazy = lazyInitOf(*Call, Ast)) ... Lazy->Owner, Lazy->State
/// \endcode

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <string>

namespace graphify {

struct LazyInit {
  const clang::FunctionDecl *Owner = nullptr; ///< the function whose first run initialises
  const clang::ValueDecl *State = nullptr;    ///< the field or global the guard tests, or the static local
  /// How warm-ups name it: the owner's qualified name.
  std::string key() const;
};

/// The lazy initialisation `S` belongs to, if it is guarded as above.
std::optional<LazyInit> lazyInitOf(const clang::Stmt &S, clang::ASTContext &Ast);

} // namespace graphify
