#pragma once
/// \file
/// `graphify-data-dependent-position`: arguments at the `position_args` of pack entries (the
/// position of `x[i]`, `select(d, i)`, `index({i})`, `index_put_({i}, v)`) that depend on a value
/// read from a tensor, and positions read from tensors that pick a tensor out of a host list of
/// them (`candidates[order[k]]`), and host lists of tensors sorted by such values
/// (`std::sort(beams.begin(), beams.end(), by_score)`, the packs' `orders_range`).

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class DataDependentPositionCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;

private:
  bool reportHostListPick(AnalysisContext &Ctx, const ApiCall &Call);
  bool reportHostListOrder(AnalysisContext &Ctx, const ApiCall &Call);
};

} // namespace graphify
