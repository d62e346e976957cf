// libgraphify-tidy.so: graphify's checks as a clang-tidy module, for
//   clang-tidy --load=libgraphify-tidy.so --checks='-*,graphify-*' model.cpp -- <flags>
// The module registers every check of graphify's registry under its stable id. It links no
// clang-tidy library: the clang-tidy that loads it provides the module registry and the check
// base class, so there is one registry (docs/ci.md, "Inside clang-tidy").
#include "GraphifyCheck.h"

#include "graphify/analyzer/Check.h"

#include <clang-tidy/ClangTidyModule.h>
#include <clang-tidy/ClangTidyModuleRegistry.h>

namespace graphify::tidy {
namespace {

class GraphifyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckInfo &C : allChecks())
      Factories.registerCheckFactory(C.Id, [](llvm::StringRef Name, clang::tidy::ClangTidyContext *Context) {
        return std::make_unique<GraphifyCheck>(Name, Context);
      });
  }
};

} // namespace
} // namespace graphify::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<graphify::tidy::GraphifyModule>
    GraphifyModuleRegistration("graphify-module", "graphify: what blocks tracing and CUDA-graph capture.");
