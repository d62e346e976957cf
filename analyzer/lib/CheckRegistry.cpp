// The registry of checks: one line per check, kept alphabetical by id. Adding a check is adding
// its class in analyzer/checks/ and one line here.
#include "graphify/analyzer/Check.h"

#include "checks/CaptureUnsafeApiCheck.h"
#include "checks/DataDependentBranchCheck.h"
#include "checks/DataDependentLoopCheck.h"
#include "checks/DataDependentPositionCheck.h"
#include "checks/DataDependentSizeCheck.h"
#include "checks/DynamicShapeCheck.h"
#include "checks/HostSyncCheck.h"

#include <memory>
#include <vector>

namespace graphify {

namespace {

struct Registration {
  const CheckInfo &(*Info)();
  std::unique_ptr<Check> (*Create)();
};

template <typename CheckT> Registration registration() {
  return {&CheckT::checkInfo, [] { return std::unique_ptr<Check>(std::make_unique<CheckT>()); }};
}

const std::vector<Registration> &registry() {
  static const std::vector<Registration> Registry = {
      registration<CaptureUnsafeApiCheck>(),    // graphify-capture-unsafe-api
      registration<DataDependentBranchCheck>(), // graphify-data-dependent-branch
      registration<DataDependentLoopCheck>(),   // graphify-data-dependent-loop
      registration<DataDependentPositionCheck>(), // graphify-data-dependent-position
      registration<DataDependentSizeCheck>(),   // graphify-data-dependent-size
      registration<DynamicShapeCheck>(),        // graphify-dynamic-shape
      registration<HostSyncCheck>(),            // graphify-host-sync
  };
  return Registry;
}

} // namespace

llvm::ArrayRef<CheckInfo> allChecks() {
  static const std::vector<CheckInfo> Infos = [] {
    std::vector<CheckInfo> V;
    for (const Registration &R : registry())
      V.push_back(R.Info());
    return V;
  }();
  return Infos;
}

std::vector<std::unique_ptr<Check>> createChecks() {
  std::vector<std::unique_ptr<Check>> Checks;
  for (const Registration &R : registry())
    Checks.push_back(R.Create());
  return Checks;
}

const CheckInfo *findCheck(llvm::StringRef Id) {
  for (const CheckInfo &C : allChecks())
    if (C.Id == Id)
      return &C;
  return nullptr;
}

} // namespace graphify
