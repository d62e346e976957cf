#pragma once
/// \file
/// What the rule packs say about an expression: is its type a tensor (and of which flavor), and
/// which pack entries (with their tags: pure, in_place, bool_output, ...) describe a call. The
/// rewriter never keeps API name lists of its own, nor its own call lookup: it asks this model,
/// which asks the analyzer's ApiResolver, so a call means the same to the checks and the rules.
///
/// \code
///   ApiModel Api(Rules);
///   if (Api.callHasTag(Call, "in_place")) ...
///   std::string Where = Api.spell(SomeTensorExpr, "where"); // "torch::where"
/// \endcode

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Type.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphify {
class DataFacts;
}

namespace graphify::rewriter {

class ApiModel {
public:
  /// `Facts` may be null (no analysis ran); the model then answers from the RuleSet alone.
  /// `Ctx` (optional) lets refusals name lines.
  ApiModel(const RuleSet &Rules, const DataFacts *Facts, const clang::ASTContext *Ctx = nullptr)
      : Rules(Rules), Facts(Facts), Ctx(Ctx), Resolver(Rules) {}

  /// The flavor of a tensor type (references, cv and sugar stripped), or null.
  const ApiFlavor *tensorFlavor(clang::QualType T) const;
  bool isTensor(clang::QualType T) const { return tensorFlavor(T) != nullptr; }
  /// Whether the expression (implicit nodes stripped) has a tensor type.
  bool isTensorExpr(const clang::Expr *E) const;

  /// Whether `D` is declared in a tensor library's own namespace: the outermost namespace of a
  /// flavor's tensor types or of its spelling (`at`, `torch`, `gfy`).
  bool isLibraryDecl(const clang::Decl *D) const;

  /// The pack entries describing a call, member call or operator call (empty if none).
  std::vector<const ApiEntry *> entriesFor(const clang::Expr *Call) const;
  bool callHasTag(const clang::Expr *Call, llvm::StringRef Tag) const;
  /// What the pack says to do by hand about a finding at the call (an entry's `recipe`), or empty.
  std::string packRecipe(const clang::Expr *Call) const;

  /// The call that reads one element of a tensor to the host when `E` (implicit nodes stripped)
  /// is such a read as a number: `t.item<float>()` itself, or the Scalar of `t.item()` converted
  /// by a method tagged scalar_conversion (`t.item().toFloat()`, `t.item().to<double>()`, the
  /// same value item<T>() returns), for which it is the inner `t.item()`. Null otherwise. The
  /// read's type is `E`'s; the tensor read is the returned call's object.
  const clang::CXXMemberCallExpr *elementRead(const clang::Expr *E) const;

  /// The argument of a call at pack position `Pos` (self is position 0 for methods), or null.
  const clang::Expr *argAt(const clang::Expr *Call, unsigned Pos) const;

  /// How code of `TensorExpr`'s flavor spells the function `Name` (`torch::where`); falls back
  /// to the first flavor when the expression's flavor is unknown.
  std::string spell(const clang::Expr *TensorExpr, llvm::StringRef Name) const;
  /// The flavor's spelling prefix for a dtype constant (`torch::kInt`).
  std::string spellConstant(const clang::Expr *TensorExpr, llvm::StringRef Name) const;

  const RuleSet &rules() const { return Rules; }
  /// The analyzer's view of calls, for the analyses the checks and the rules share
  /// (HostOrigin.h).
  const ApiResolver &resolver() const { return Resolver; }
  const DataFacts *facts() const { return Facts; }
  const clang::ASTContext *context() const { return Ctx; }

  /// Purity summaries of user functions (Safety.h, calleeImpurity), computed once per TU.
  using PuritySummaries = std::map<const clang::FunctionDecl *, std::optional<std::string>>;
  PuritySummaries &purityCache() const { return Purity; }

private:
  const RuleSet &Rules;
  const DataFacts *Facts;
  const clang::ASTContext *Ctx;
  mutable PuritySummaries Purity;
  ApiResolver Resolver;
};

} // namespace graphify::rewriter
