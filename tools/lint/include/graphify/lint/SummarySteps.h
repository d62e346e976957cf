#pragma once
/// \file
/// The driver's steps of whole-program mode by summaries (docs/architecture.md): a job's unit
/// identity, which units a summaries directory spares a parse, writing the summaries an extraction
/// made, --depfile's inputs, and the lines an extraction or a check prints about them.
///
/// \code
///   auto Held = graphify::summariesStillHolding(Jobs, &Dir, Imported);   // no parse for these
///   ... parse the others with the pipeline ...
///   graphify::SummaryCounts Counts;
///   if (graphify::writeSummaries(O, Jobs, Results, Imported, &Dir, Counts, Err))
///     return graphify::finishExtraction(O, Results, Counts, Err);
/// \endcode

#include "graphify/lint/LintJob.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/Options.h"
#include "graphify/lint/SummaryDirectory.h"
#include "graphify/lint/SummaryFile.h"

#include <llvm/Support/raw_ostream.h>

#include <set>
#include <string>
#include <vector>

namespace graphify {

/// The summary identity of a job: what its unit summary says of it.
UnitSummary summaryOf(const LintJob &J);

/// With --emit-summaries: which units need no analysis, because the directory holds a summary of
/// theirs that is still of their sources and was analysed with facts equal, on every key it looked
/// up, to the program's (none before the first link): a parse would repeat it. As the single-process
/// mode's rounds, only the others are analysed (again).
std::vector<const UnitSummary *> summariesStillHolding(const std::vector<LintJob> &Jobs, SummaryDirectory *Dir,
                                                       const ProgramFacts *Program);

/// --depfile's inputs: the configuration files and rule packs each unit's configuration came from,
/// the shipped packs, the program summary, and, for an extraction, each unit's main file and
/// project files (those its summary lists when it was not parsed). A check leaves the sources out:
/// the program summary records their digests, so it changes when they do (a slice only when its
/// own file's do), and a file touched but not changed re-runs no check.
std::set<std::string> depfileInputs(const LintOptions &O, const std::vector<LintJob> &Jobs,
                                    const std::vector<LintUnitResult> &Results,
                                    const std::vector<const UnitSummary *> &Held, const std::string &RulesDir,
                                    bool WithSources);

/// What an extraction did to the summaries.
struct SummaryCounts {
  unsigned Written = 0, Unchanged = 0, Held = 0, Removed = 0;
};

/// Writes each parsed unit's summary: to `--emit-summary` (one unit) or into the --emit-summaries
/// directory `Dir`; a run over the whole build (no files named) then prunes the directory to its units.
bool writeSummaries(const LintOptions &O, const std::vector<LintJob> &Jobs, std::vector<LintUnitResult> &Results,
                    const ProgramFacts *Imported, SummaryDirectory *Dir, SummaryCounts &Counts,
                    llvm::raw_ostream &Err);

/// With --program-summary: names the units whose project files changed since their extraction
/// (their sources digest differs from the one the program summary recorded).
void warnOfEditedUnits(const std::vector<LintJob> &Jobs, const std::vector<LintUnitResult> &Results,
                       const ProgramSummary &Linked, const std::string &LinkedPath, llvm::raw_ostream &Err);

/// Ends an extraction (--emit-summary, --emit-summaries): compiler errors, then one line of what
/// was written. It checks nothing, so it reports no finding and never looks clean.
int finishExtraction(const LintOptions &O, const std::vector<LintUnitResult> &Results, const SummaryCounts &Counts,
                     llvm::raw_ostream &Err);

} // namespace graphify
