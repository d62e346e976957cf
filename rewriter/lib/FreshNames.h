#pragma once
/// \file
/// The names the rewrites invent (`cond`, `active`, a hoisted local renamed `t2`) are unique per
/// function across every fix of one pass, not only within one fix. Each fix avoids the names
/// its function's source declares or reads; without this registry two fixes in one function
/// would each pick `cond`, and the file with both would not compile:
///
/// \code
///   auto cond = x.sum() > 0;   // the first if-conversion
///   ...
///   auto cond = x.max() > 1;   // the second: "conflicting declaration"
/// \endcode
///
/// The registry lives for one run of findRewriteCandidates. Names are reserved by the candidate
/// being computed (its match root, the owner); a rule that analyses its match more than once
/// (once per edit it produces) is the same owner each time and gets the same names again.
/// Clang Transformer stencils take no context argument, so the registry and the owner reach
/// freshName() through thread-local scopes that the rule runner installs.

#include <clang/AST/Stmt.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <string>

namespace graphify::rewriter {

class FreshNameRegistry {
public:
  /// Whether a candidate other than the current owner reserved `Name` in the function `Body`.
  bool takenByOther(const clang::Stmt *Body, llvm::StringRef Name) const;
  /// Reserves `Name` in `Body` for the current owner.
  void reserve(const clang::Stmt *Body, llvm::StringRef Name);

  /// Makes `R` the registry freshName() consults on this thread while the scope lives.
  class Active {
  public:
    explicit Active(FreshNameRegistry &R);
    ~Active();
    Active(const Active &) = delete;
    Active &operator=(const Active &) = delete;

  private:
    FreshNameRegistry *Saved;
  };

  /// Makes `Root` (a candidate's match root) the owner of the names reserved while the scope lives.
  class Owner {
  public:
    explicit Owner(const clang::Stmt *Root);
    ~Owner();
    Owner(const Owner &) = delete;
    Owner &operator=(const Owner &) = delete;

  private:
    const clang::Stmt *Saved;
  };

  /// The registry of the enclosing Active scope, or none (a rule run outside the runner, as in
  /// unit tests: names are then unique within one fix only).
  static FreshNameRegistry *current();

private:
  /// function body -> name -> the candidate that reserved it
  std::map<const clang::Stmt *, std::map<std::string, const clang::Stmt *, std::less<>>> Reserved;
};

} // namespace graphify::rewriter
