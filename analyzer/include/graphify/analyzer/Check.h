#pragma once
/// \file
/// The registry of checks: stable ids and their documentation. A check is one class in
/// analyzer/checks/<Name>Check.{h,cpp} and one line in CheckRegistry.cpp (alphabetical).
///
/// \code
///   for (const graphify::CheckInfo &C : graphify::allChecks())
///     llvm::outs() << C.Id << "\n";
/// \endcode

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <memory>
#include <string>
#include <vector>

namespace graphify {

class AnalysisContext;

/// What a check is, for --list-checks, --explain and SARIF rule metadata.
struct CheckInfo {
  std::string Id;          ///< stable id, e.g. "graphify-host-sync"
  std::string Summary;     ///< one line (SARIF shortDescription)
  std::string Description; ///< what it finds and why it blocks tracing or capture (fullDescription)
  std::string Help;        ///< how to fix it (SARIF help)
  bool InTraceProfile = true; ///< reported under --profile=trace
};

/// A check inspects one translation unit through the shared analysis and reports findings.
class Check {
public:
  virtual ~Check() = default;
  virtual const CheckInfo &info() const = 0;
  /// Reports findings into the context; called once per translation unit, after the data-flow
  /// analysis of every graph region has run.
  virtual void run(AnalysisContext &Ctx) = 0;
};

/// Every registered check's metadata, sorted by id.
llvm::ArrayRef<CheckInfo> allChecks();
/// Instantiates every registered check (sorted by id).
std::vector<std::unique_ptr<Check>> createChecks();
/// The check info for `Id`, or null.
const CheckInfo *findCheck(llvm::StringRef Id);

} // namespace graphify
