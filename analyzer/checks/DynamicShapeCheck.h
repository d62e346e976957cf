#pragma once
/// \file
/// `graphify-dynamic-shape`: ops tagged `dynamic_output_shape` (`nonzero`, `masked_select`, one-argument `where`) and `bool_mask_index` ops indexed by a provable boolean mask.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class DynamicShapeCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
