#pragma once
/// \file
/// The rewrite-soundness fuzzer's program generator (Csmith/YARPGen-style): from a seed, a small
/// LibTorch-style translation unit of `torch::nn::Module`s whose `forward` mixes the control flow
/// `graphify-lint --fix` rewrites (data-dependent ifs, else-if chains, ternaries, early returns,
/// early-exit loops, masked reductions, `nonzero` + `index_put_`, partitions, host positions) with
/// what makes a rewrite unsound when it is overlooked: ops that raise on values inside the arm a
/// condition guards, branch locals named like fields, macros and `#ifdef` in branches, truncating
/// scalar reads, short-circuit guards.
///
/// Every module is generated from its own stream (seed, index), so `Picked` reproduces some
/// modules of a program byte for byte (one module: a reproducer; the modules of a seed that agree
/// with their rewrite: a CI corpus entry). Each module carries a `// graphify-entry:` comment with
/// its input shapes (the grammar of graphify-validate), which the driver generator reads.
///
/// \code
///   graphify::soundness::GeneratorOptions O;
///   O.Seed = 42;
///   std::string Program = graphify::soundness::generateProgram(O);
/// \endcode

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace graphify::soundness {

struct GeneratorOptions {
  uint64_t Seed = 1;                  ///< the program's seed; equal seeds give equal programs
  unsigned Modules = 6;               ///< modules per translation unit (one compile covers them all)
  std::vector<unsigned> Picked;       ///< emit only these modules `Case<N>` (empty: all of them)
  /// Features left out (swarm testing: once a bug class is known, leaving out the feature that
  /// triggers it lets runs find the next one): guarded-raise, macro-condition, ifdef,
  /// shadow-field, nonzero-put, f64, two-rows, ids-leaf, int-read (item<int64_t> of floating
  /// tensors), host-read (scalar reads and host positions inside expressions).
  std::set<std::string> Without;
};

/// The whole translation unit: the include, then each module with its entry comment.
std::string generateProgram(const GeneratorOptions &Options);

} // namespace graphify::soundness
