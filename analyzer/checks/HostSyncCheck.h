#pragma once
/// \file
/// `graphify-host-sync`: calls tagged `host_sync` (`item`, `equal`, `cpu`, printing a tensor) and `device_transfer` calls whose destination is the CPU. Calls that carry `dynamic_output_shape` or `capture_unsafe` are reported by those checks instead, once per call.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class HostSyncCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
