#pragma once
/// \file
/// What a run tells the user besides its findings, computed over every unit's result: globs and
/// bounds that name nothing, code that went unchecked, an --export-fixes target that is an input.
///
/// \code
///   for (const std::string &Glob : graphify::unmatchedRegionGlobs(Results, Linked))
///     Err << "graphify-lint: warning: the graph-region glob '" << Glob << "' names no function ...";
/// \endcode

#include "graphify/lint/LintJob.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/SummaryFile.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// Which file read by a unit `--export-fixes=Target` would overwrite, as a message; none when the
/// target is no unit's input (a header included by a linted file is an input too).
std::optional<std::string> inputOverwrittenByExport(llvm::StringRef Target, const std::vector<LintJob> &Jobs,
                                                    const std::vector<LintUnitResult> &Results);

/// The graph-region globs of parsed units that named no function in any of them, nor in any unit
/// of the program summary (`Linked`) when there is one, in the order first given.
std::vector<std::string> unmatchedRegionGlobs(const std::vector<LintUnitResult> &Results,
                                              const ProgramSummary *Linked);

/// The configured static bounds that named no variable of a function in any parsed unit, nor in
/// any unit of the program summary (`Linked`) when there is one, and the malformed bound
/// annotations, once each: a bound that names nothing leaves its loop unbounded.
std::vector<std::string> staticBoundWarnings(const std::vector<LintUnitResult> &Results,
                                             const ProgramSummary *Linked);

/// The notes on code that went unchecked (calls no unit could follow, unpaired captures), once
/// each, in unit order.
std::vector<std::string> uncheckedCode(const std::vector<LintUnitResult> &Results);

} // namespace graphify
