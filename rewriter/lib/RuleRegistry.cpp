// The list of rewrite rules. One line per rule (alphabetical by id); a rule is one file in
// rewriter/rules/. When several rules match the same code, the runner keeps the one whose match
// is outermost, so the order here only matters for ties.
#include "RuleSupport.h"

namespace graphify::rewriter {

NamedRewriteRule makeEarlyExitLoopToMaskedRule(const ApiModel &Api);
NamedRewriteRule makeHostFactoryToDeviceRule(const ApiModel &Api);
NamedRewriteRule makeHostPositionToDeviceIndexRule(const ApiModel &Api);
NamedRewriteRule makeIfAssignToWhereRule(const ApiModel &Api);
NamedRewriteRule makeIfReturnToWhereRule(const ApiModel &Api);
NamedRewriteRule makeMaskedReduceToWhereRule(const ApiModel &Api);
NamedRewriteRule makeNonzeroIndexPutToMaskedFillRule(const ApiModel &Api);
NamedRewriteRule makePartitionToStableArgsortRule(const ApiModel &Api);
NamedRewriteRule makeScalarReadToDeviceRule(const ApiModel &Api);
NamedRewriteRule makeSelectionToPaddedRule(const ApiModel &Api);
NamedRewriteRule makeSplitAtHostBoundaryRule(const ApiModel &Api);
NamedRewriteRule makeTernaryToWhereRule(const ApiModel &Api);

std::vector<NamedRewriteRule> allRewriteRules(const ApiModel &Api) {
  std::vector<NamedRewriteRule> Rules;
  Rules.push_back(makeEarlyExitLoopToMaskedRule(Api));
  Rules.push_back(makeHostFactoryToDeviceRule(Api));
  Rules.push_back(makeHostPositionToDeviceIndexRule(Api));
  Rules.push_back(makeIfAssignToWhereRule(Api));
  Rules.push_back(makeIfReturnToWhereRule(Api));
  Rules.push_back(makeMaskedReduceToWhereRule(Api));
  Rules.push_back(makeNonzeroIndexPutToMaskedFillRule(Api));
  Rules.push_back(makePartitionToStableArgsortRule(Api));
  Rules.push_back(makeScalarReadToDeviceRule(Api));
  Rules.push_back(makeSelectionToPaddedRule(Api));
  Rules.push_back(makeSplitAtHostBoundaryRule(Api));
  Rules.push_back(makeTernaryToWhereRule(Api));
  return Rules;
}

} // namespace graphify::rewriter
