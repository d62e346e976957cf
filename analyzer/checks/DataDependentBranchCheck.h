#pragma once
/// \file
/// `graphify-data-dependent-branch`: `if`, `?:`, `switch` conditions and `&&`/`||` left operands that depend on a value read from a tensor on the host.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class DataDependentBranchCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
