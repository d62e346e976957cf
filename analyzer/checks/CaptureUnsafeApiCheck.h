#pragma once
/// \file
/// `graphify-capture-unsafe-api`: calls of CUDA runtime, driver or framework functions tagged `capture_unsafe` in the rule packs (`cudaMalloc`, `cudaDeviceSynchronize`, `torch::cuda::synchronize`) inside graph regions.

#include "graphify/analyzer/AnalysisContext.h"
#include "graphify/analyzer/Check.h"

namespace graphify {

class CaptureUnsafeApiCheck : public Check {
public:
  static const CheckInfo &checkInfo();
  const CheckInfo &info() const override { return checkInfo(); }
  void run(AnalysisContext &Ctx) override;
};

} // namespace graphify
