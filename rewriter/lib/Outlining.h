#pragma once
/// \file
/// Outlining a run of top-level statements of a function body into a function of its own (the
/// capturable core of `split-at-host-boundary`): what the run reads from before it, what it
/// leaves to the code after it, and whether a free function can hold it at all.
///
/// \code
///   void f(torch::Tensor x) {      // Block: [a, b]      After: [c]
///     auto p = x.cuda();
///     auto a = p.sigmoid();        //   inputs: p (a local of the prologue), x is a parameter
///     auto b = a * 2;              //   outputs: b (declared here, read after)
///     auto c = b.cpu();
///   }
/// \endcode
///
/// Inputs reach the outlined function by reference, so what it writes to them is what the
/// original wrote; parameters are passed as declared, and a by-value parameter the run assigns
/// while the code after it reads it is refused (the wrapper would read its own, stale copy).
/// Fields of `*this` read or written in a method become reference parameters named after the
/// field. A free function cannot name what only the class scope can (its methods, static members,
/// nested types): a run that does is refused with the name.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <clang/Tooling/Transformer/RewriteRule.h>
#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphify::rewriter {

struct OutlinedBlock {
  /// Locals declared before the run (a prologue's) that it reads or writes, in order of first use.
  std::vector<const clang::VarDecl *> Locals;
  /// Fields of `*this` the run reads or writes, in order of first use.
  std::vector<const clang::FieldDecl *> Fields;
  /// Variables declared at the run's top level that the code after it reads.
  std::vector<const clang::VarDecl *> Outputs;
  /// The source text of every `this->field` (implicit or explicit) in the run, to replace by the
  /// parameter that carries the field.
  std::map<const clang::Stmt *, std::string> FieldUses;
};

/// How outlineBlock words its refusals and where the block ends.
struct OutlineOptions {
  /// Names the block in refusals.
  std::string Subject = "the statements before the host part";
  /// The block runs to the end of the function, so its returns are the core's own: the caller
  /// returns what the core returns. Otherwise a return in the block is refused.
  bool EndsFunction = false;
};

/// What `Block` (consecutive top-level statements of `F`'s body, followed by `After`) exchanges with the code around it; refuses, naming the construct, what a free function
/// placed before `F` cannot hold (a return inside it, `this` other than its fields, names of the
/// class scope, values of types it cannot name).
/// With `AssignedParams`, a by-value parameter the run assigns and the code after it reads is
/// listed there instead of refused: the caller returns the core's copy and assigns the wrapper's.
llvm::Expected<OutlinedBlock> outlineBlock(const clang::FunctionDecl &F, llvm::ArrayRef<const clang::Stmt *> Block,
                                           llvm::ArrayRef<const clang::Stmt *> After, clang::ASTContext &Ctx,
                                           std::vector<const clang::ParmVarDecl *> *AssignedParams = nullptr,
                                           const OutlineOptions &Options = {});

/// Why a core outlined from `F` cannot be a function placed where `F` is defined (a static
/// member when `F` is defined in its class, else a static function beside it): `F` is a
/// constructor, destructor, operator or variadic function, a lambda or a method of a local class,
/// or a method defined outside its class's namespace (the core would not see what that namespace
/// declares). Success otherwise.
llvm::Error checkCoreCanStandBeside(const clang::FunctionDecl &F);

/// The fields of `*this` that the body of the method `F` reads or writes, but for the statements
/// of `StayInMethod` (they run in the method, not in the core: a host epilogue's part), for a core
/// outside the class that takes each as a reference parameter named after it (FieldUses: the uses,
/// among them those written `this->field`); its returns stay where they are (Locals and Outputs
/// stay empty). Refused, with the construct named, as outlineBlock refuses, and when a parameter's
/// type is declared in the class or a variable of the body is named like a field it uses.
llvm::Expected<OutlinedBlock> outlineMethodBody(const clang::FunctionDecl &F, clang::ASTContext &Ctx,
                                                const std::set<const clang::Stmt *> &StayInMethod = {});

/// How a declaration of a value of `T` is written outside the function (fully qualified), or
/// empty when it cannot be (a lambda's closure, a local class, a type only the class scope names).
/// Written where the names of `In` are in scope (its parameters, its locals, its class's
/// members), a namespace one of them hides is named from the global scope: `::at::Tensor` beside
/// a parameter `int64_t &at`.
std::string nameableType(clang::QualType T, const clang::ASTContext &Ctx, const clang::FunctionDecl *In = nullptr);

/// The names of the fields of `Class` and of its bases (those with a definition): what a core
/// that takes fields as parameters of their names must not declare.
std::vector<std::string> fieldNames(const clang::CXXRecordDecl *Class);

/// The edit that adds `#include <Header>` to the main file among its includes (clang's
/// HeaderIncludes picks the place), or none when the file already includes it as written: what
/// the outlined code uses (std::tuple) must not depend on what another header happens to include.
std::optional<clang::transformer::Edit> includeEdit(llvm::StringRef Header, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
