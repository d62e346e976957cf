// HostRead. The search follows calls into the user's functions because real post-processing
// hides its host reads in helpers (a hand-written `nms` that reads `order[0].item()`): a statement
// calling one reads on the host as surely as one calling `item()` itself. Three calls deep
// covers helpers of helpers without walking a whole program through recursion.
#include "HostRead.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/HostOrigin.h"

#include <clang/Basic/SourceManager.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

std::optional<HostRead> search(const Stmt *S, const FunctionDecl *Self, const ApiModel &Api, ASTContext &Ctx,
                               int Depth) {
  if (!S || Depth > 3)
    return std::nullopt;
  if (const auto *E = dyn_cast<Expr>(S))
    if (auto Call = Api.resolver().resolve(E))
      if (Call->hasTag("host_sync") || Call->hasTag("data_dependent_output") ||
          (Call->hasTag("device_transfer") && copiesToHost(*Call)))
        return HostRead{E, E};
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = CE->getDirectCallee();
        Callee && Callee != Self && Callee->hasBody() && !Api.isLibraryDecl(Callee) &&
        !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
      if (auto Inner = search(Callee->getBody(), Self, Api, Ctx, Depth + 1))
        return HostRead{CE, Inner->Read};
  for (const Stmt *C : S->children())
    if (auto R = search(C, Self, Api, Ctx, Depth))
      return R;
  return std::nullopt;
}

} // namespace

std::optional<HostRead> firstHostRead(const Stmt *S, const FunctionDecl *Self, const ApiModel &Api, ASTContext &Ctx) {
  return search(S, Self, Api, Ctx, 0);
}

bool readsTensorOnHost(const Expr *E, const ApiModel &Api) {
  if (const DataFacts *Facts = Api.facts())
    return Facts->taintOf(E) != nullptr;
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *X = dyn_cast_or_null<Expr>(S); X && Api.callHasTag(X, "data_dependent_output"))
      return true;
    if (S)
      for (const Stmt *C : S->children())
        Work.push_back(C);
  }
  return false;
}

} // namespace graphify::rewriter
