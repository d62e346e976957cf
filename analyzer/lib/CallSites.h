#pragma once
/// \file
/// The calls of a function in the translation unit, when they are all the calls it can have: a
/// function no other file can name (declared only in the main file, or with internal linkage),
/// not virtual (a call of the method it overrides may run it), and never referred to other than
/// by a direct call (its address taken, handed over as a callable). Facts a function's
/// parameters take from its callers (the classes of the objects passed, a flag that is true in
/// every capture) hold only then.
///
/// One file checked alone (not whole-program mode), a method declared in a project header whose
/// every call in the unit is made on `this` by a method of its own class is taken for a helper of
/// the class (`detect()` calling `nms(host_boxes)`, `postprocess(outputs)`): its calls here are
/// taken to be all its calls. This is the one assumption of the list that another file could
/// break (a caller elsewhere passing a device tensor); whole-program mode does not make it.
///
/// \code
///   CallSites Sites(Ast);
///   if (auto Calls = Sites.allCallsOf(FD, /*WholeProgram=*/false))
///     for (const clang::CallExpr *CE : *Calls) ...
/// \endcode

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>

#include <optional>
#include <vector>

namespace graphify {

class CallSites {
public:
  explicit CallSites(clang::ASTContext &Ast) : Ast(Ast) {}

  /// Every call of `FD` there can be, or nothing when other calls may exist (see above; in
  /// whole-program mode, any function with external linkage may be called by other units).
  std::optional<llvm::ArrayRef<const clang::CallExpr *>> allCallsOf(const clang::FunctionDecl &FD,
                                                                   bool WholeProgram) const;

  /// The argument `CE` passes for `FD`'s parameter `Index` (an operator's call lists its object
  /// first), or null when a default argument stands for it.
  static const clang::Expr *argumentFor(const clang::CallExpr &CE, const clang::FunctionDecl &FD, unsigned Index);

private:
  /// Whether `Found`, the calls of the method `FD` in the unit, are all made on `this` by
  /// methods of its class.
  bool helperOfItsClass(const clang::FunctionDecl &FD, llvm::ArrayRef<const clang::CallExpr *> Found) const;

  clang::ASTContext &Ast;
  mutable llvm::DenseMap<const clang::CallExpr *, const clang::FunctionDecl *> Callers;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> Calls;
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> Escaped;
  mutable bool Indexed = false;

  void index() const;
};

} // namespace graphify
