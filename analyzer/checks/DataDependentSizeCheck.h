#pragma once
/// \file
/// `graphify-data-dependent-size`: arguments at the `size_args` positions of pack entries (sizes, shapes, bounds, `k`) that depend on a value read from a tensor.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class DataDependentSizeCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
