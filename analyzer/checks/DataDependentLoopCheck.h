#pragma once
/// \file
/// `graphify-data-dependent-loop`: `while`, `do`, `for` conditions (and range-`for` ranges) that depend on a value read from a tensor on the host.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class DataDependentLoopCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
