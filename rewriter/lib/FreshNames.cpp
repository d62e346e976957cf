// Thread-local rather than passed: the stencils that call freshName() are built once per rule
// and called by Clang's Transformer with the match alone. The runner analyses one TU per
// thread, so a thread-local scope is exactly one pass of findRewriteCandidates.
#include "FreshNames.h"

namespace graphify::rewriter {

namespace {
thread_local FreshNameRegistry *CurrentRegistry = nullptr;
thread_local const clang::Stmt *CurrentOwner = nullptr;
} // namespace

bool FreshNameRegistry::takenByOther(const clang::Stmt *Body, llvm::StringRef Name) const {
  auto InBody = Reserved.find(Body);
  if (InBody == Reserved.end())
    return false;
  auto It = InBody->second.find(Name);
  return It != InBody->second.end() && It->second != CurrentOwner;
}

void FreshNameRegistry::reserve(const clang::Stmt *Body, llvm::StringRef Name) {
  Reserved[Body].try_emplace(Name.str(), CurrentOwner);
}

FreshNameRegistry::Active::Active(FreshNameRegistry &R) : Saved(CurrentRegistry) { CurrentRegistry = &R; }
FreshNameRegistry::Active::~Active() { CurrentRegistry = Saved; }

FreshNameRegistry::Owner::Owner(const clang::Stmt *Root) : Saved(CurrentOwner) { CurrentOwner = Root; }
FreshNameRegistry::Owner::~Owner() { CurrentOwner = Saved; }

FreshNameRegistry *FreshNameRegistry::current() { return CurrentRegistry; }

} // namespace graphify::rewriter
