#include "AnalyzerTestSupport.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace graphify::test {

using namespace clang;

const RuleSet &shippedRules() {
  static RuleSet *Rules = [] {
    auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return static_cast<RuleSet *>(nullptr);
    }
    return new RuleSet(std::move(*R));
  }();
  return *Rules;
}

const char *const MockTorch = R"cpp(
namespace c10 { enum class ScalarType { Float, Long, Bool }; constexpr auto kBool = ScalarType::Bool;
  enum class DeviceType { CPU, CUDA }; constexpr DeviceType kCPU = DeviceType::CPU; }
namespace at {
using c10::kBool; using c10::kCPU;
class Tensor {
public:
  template <typename T> T item() const;
  Tensor sum() const; Tensor max() const; Tensor argmax() const; Tensor nonzero() const;
  long size(long dim) const; long dim() const;
  Tensor index(const Tensor &i) const;
  Tensor to(c10::ScalarType t) const; Tensor to(c10::DeviceType d) const;
  Tensor operator~() const;
  Tensor view(long a, long b) const;
};
Tensor operator>(const Tensor &a, double b);
Tensor operator*(const Tensor &a, double b);
Tensor operator&(const Tensor &a, const Tensor &b);
Tensor zeros(long n);
Tensor where(const Tensor &c);
Tensor where(const Tensor &c, const Tensor &a, const Tensor &b);
}
namespace torch { using namespace at; namespace nn { class Module { public: virtual ~Module(); }; } }
namespace std { template <class T> const T &max(const T &a, const T &b); }
)cpp";

unsigned mockLines() {
  return unsigned(std::count(MockTorch, MockTorch + std::strlen(MockTorch), '\n'));
}

Analyzed analyze(const std::string &Code, AnalysisConfig Config) {
  Analyzed A;
  std::string Source = std::string(MockTorch) + Code;
  A.Unit = tooling::buildASTFromCodeWithArgs(
      Source, {"-std=c++17", "-resource-dir=" GRAPHIFY_CLANG_RESOURCE_DIR}, "input.cpp");
  if (!A.Unit) {
    ADD_FAILURE() << "does not parse";
    return A;
  }
  Config.Rules = &shippedRules();
  A.Result = analyzeTranslationUnit(A.Unit->getASTContext(), Config);
  return A;
}

const Expr *Analyzed::exprAt(const std::string &Needle) const {
  ASTContext &Ctx = Unit->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t Offset = Buffer.find(Needle, std::string(MockTorch).size() - 10);
  if (Offset == llvm::StringRef::npos)
    return nullptr;
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    size_t Offset;
    const Expr *Found = nullptr;
    Finder(const SourceManager &SM, size_t Offset) : SM(SM), Offset(Offset) {}
    bool VisitExpr(Expr *E) {
      if (!Found && E->getBeginLoc().isValid() && SM.isInMainFile(E->getBeginLoc()) &&
          SM.getFileOffset(E->getBeginLoc()) == Offset)
        Found = E;
      return true;
    }
  } F(SM, Offset);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}

std::vector<std::string> Analyzed::findings(const std::string &CheckId) const {
  std::vector<std::string> Out;
  for (const Finding &F : Result.Findings)
    if (F.CheckId == CheckId)
      Out.push_back(std::to_string(F.Where.Line - mockLines()) + ":" +
                    std::to_string(F.Where.Column));
  return Out;
}

} // namespace graphify::test
