#pragma once
// LibTorch's memory-overlap rule for kernels that write (ATen's MemoryOverlap): an output may not
// name one element twice (internal overlap), and may not share some but not all of its memory
// with an input (partial overlap). Full overlap — same storage, same first element, same extent
// and strides, e.g. `x.add_(x)` or `x.copy_(x.view(...))` — is an elementwise read-before-write
// and is allowed. Where the layouts are not dense (a strided slice of a matrix), LibTorch calls
// the question too hard and allows the launch; so does this.
#include <graphify/core/Backend.h>

namespace gfy::detail {

/// Throws LibTorch's messages unless every output of `call` is free of internal overlap (skipped
/// for ops that write through broadcast outputs on purpose, ops.def's writes_broadcast) and
/// shares no memory partially with an input. Inputs are judged as the caller gave them: the
/// stride-0 dims a front-end added to broadcast an input to the output's shape are dropped first.
void check_write_overlap(const OpCall &call);

} // namespace gfy::detail
