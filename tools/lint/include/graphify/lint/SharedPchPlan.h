#pragma once
/// \file
/// The shared PCH plan of a run (docs/architecture.md, "The PCH cache"): files with identical flags
/// and the same first #include share one precompiled prefix of their leading includes, built once
/// per run or found in the cache an earlier run filled.
///
/// \code
///   graphify::planSharedPch(Jobs, Options, &Pool);   // sets Jobs[i].Pch where a prefix is shared
/// \endcode

#include "graphify/lint/LintJob.h"
#include "graphify/lint/Options.h"

#include <llvm/Support/ThreadPool.h>

#include <vector>

namespace graphify {

/// Groups files with identical flags and the same first #include, precompiles each group's
/// common leading includes once (or finds them in the cache from an earlier run), and records
/// the PCH in each job. A group of one file pays for the PCH once; every later run of it, or of
/// files sharing its leading includes, saves most of the parse.
void planSharedPch(std::vector<LintJob> &Jobs, const LintOptions &O, llvm::ThreadPoolInterface *Pool);

} // namespace graphify
