// Stub until the rules land: attaches nothing.
#include "graphify/rewriter/Rewriter.h"

namespace graphify {
void attachFixes(clang::ASTContext &, AnalysisResult &, const RuleSet &) {}
} // namespace graphify
