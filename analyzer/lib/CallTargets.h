#pragma once
/// \file
/// Where a call goes when it does not name its callee: a virtual call goes to the overriders of
/// the method defined in the analysed files, and a call through a `std::function`, a function
/// pointer or another library callable wrapper goes to the callables assigned to the variable,
/// field or parameter that holds it (lambdas, functions, `&f`, lambda variables). Region code that
/// makes such a call reaches those bodies; when graphify cannot tell what the holder runs, the
/// caller says so instead of passing the call over in silence.
///
/// \code
///   graphify::CallTargets Targets(Functions, Api);
///   if (const clang::ValueDecl *H = graphify::CallTargets::holderOf(CE)) {
///     graphify::CallTargets::Held Held = Targets.heldBy(H);
///     if (!Held.Unseen.empty()) ...   // "nothing is assigned to it in the checked files"
///   }
/// \endcode

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>

#include <string>
#include <vector>

namespace graphify {

class ApiResolver;

class CallTargets {
public:
  /// More callables than this in one holder are not followed (a dispatch table, a registry).
  static constexpr unsigned MaxHeld = 8;

  CallTargets(llvm::ArrayRef<const clang::FunctionDecl *> Functions, const ApiResolver &Api)
      : Functions(Functions), Api(Api) {}

  /// The methods among the analysed functions that override `MD`, directly or not.
  llvm::ArrayRef<const clang::CXXMethodDecl *> overriders(const clang::CXXMethodDecl *MD) const;

  /// What a holder runs: the bodies assigned to it, or why graphify cannot tell (Unseen).
  struct Held {
    std::vector<const clang::Decl *> Bodies;
    std::string Unseen;
    /// The holder and the holders it was given (`hook_ = h` of a parameter `h`): what another
    /// translation unit assigns to any of them, it runs too.
    std::vector<const clang::ValueDecl *> Through;
    bool Opaque = false; ///< it is given something that is not a callable graphify can name
  };
  Held heldBy(const clang::ValueDecl *Holder) const;

  /// What the checked files assign to `Holder`, before heldBy judges it (Unseen stays empty).
  Held assignedTo(const clang::ValueDecl *Holder) const;

  /// Why a holder given `Count` callables cannot be followed (`Opaque`: also something that is
  /// not one), or empty when it can.
  static std::string unseenReason(size_t Count, bool Opaque);

  /// The holders the checked files give callables or other holders to, in a stable order.
  std::vector<const clang::ValueDecl *> assignedHolders() const;

  /// The modules whose `forward` a call tagged `runs_held_modules` runs on `Object` (an
  /// `AnyModule`, a `Sequential`, a `ModuleHolder`): the module its type names, or, for a
  /// type-erased holder or a container, the modules given to the variable or field it names
  /// (constructor arguments, assignments, `push_back`), or why graphify cannot tell (Unseen).
  struct HeldModules {
    std::vector<const clang::CXXRecordDecl *> Modules;
    std::string Unseen;
  };
  HeldModules modulesRunBy(const clang::Expr *Object) const;

  /// Whether values of `T` are library containers of callables (`std::vector<std::function<...>>`,
  /// `std::map<std::string, Fn>`): their `value_type` is a callable holder, or a pair whose second
  /// member is one.
  static bool isCallableContainer(clang::QualType T);

  /// The object `E` names, through a holder's `operator->` and `*` (`seq` in `seq->forward(x)`).
  static const clang::Expr *throughAccess(const clang::Expr *E);

  /// The `forward` methods of a module class (its own, else its bases').
  static std::vector<const clang::CXXMethodDecl *> forwardsOf(const clang::CXXRecordDecl *Module);

  /// Whether `MCE` dispatches on the dynamic type: a virtual method called through a pointer or
  /// reference, not named with a qualifier (`Base::f()`) and not final.
  static bool dispatchesVirtually(const clang::CXXMemberCallExpr &MCE);

  /// The variable, field or parameter whose callable `CE` calls (`fn_(x)` on a std::function or
  /// a function pointer, `(*fp)(x)`), or null when `CE` is not such a call. `Indirect` is set
  /// when `CE` is an indirect call at all, even one whose holder has no name.
  static const clang::ValueDecl *holderOf(const clang::CallExpr &CE, bool &Indirect);

  /// How a message names a holder: its name, or for the hidden range of a range-based for the
  /// range as written (`Hooks()` of `for (auto &h : Hooks())`, not `__range1`).
  static std::string displayName(const clang::ValueDecl &Holder);

  /// The type of what a holder holds: an accessor declared here and defined in another file
  /// (`std::vector<Hook> &Hooks();`) stands for the registry it returns, of its return type.
  static clang::QualType heldType(const clang::ValueDecl &Holder);

  /// The body a callable expression runs: a lambda, a function, `&f`, a variable holding a
  /// lambda, also converted to std::function; with `Api`, also through the packs' wrappers that
  /// make a callable of one (`wraps_callable`: `std::bind(&Pool::trim, &pool, n)` runs trim).
  static const clang::Decl *callableBody(const clang::Expr *E, const ApiResolver *Api = nullptr);

  /// Every body a callable argument may run when a library function calls it (std::visit's
  /// visitor): callableBody's, or each call operator of a project's function object and of its
  /// bases (`overloaded{...}` inherits lambdas), with the instantiations of templated ones.
  static std::vector<const clang::Decl *> callOperators(const clang::Expr *E, const ApiResolver *Api = nullptr);

private:
  llvm::ArrayRef<const clang::FunctionDecl *> Functions;
  const ApiResolver &Api;
  mutable bool Scanned = false;
  mutable llvm::DenseMap<const clang::Decl *, std::vector<const clang::CXXMethodDecl *>> Overriders;
  struct Assigned {
    std::vector<const clang::Decl *> Bodies;
    std::vector<const clang::Decl *> Aliases; ///< holders it is given (`fn_ = f` of a parameter f)
    bool Opaque = false; ///< given something that is not a callable graphify can name
  };
  mutable llvm::DenseMap<const clang::Decl *, Assigned> Holders;
  /// Values given to variables and fields of library class types (an `AnyModule`, a
  /// `Sequential`): assigned, passed to their constructors or to their methods (`push_back`).
  mutable llvm::DenseMap<const clang::Decl *, std::vector<const clang::Expr *>> Given;

  void scan() const;
};

} // namespace graphify
