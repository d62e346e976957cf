#pragma once
/// \file
/// Selections: calls whose result keeps as many elements as the data lets through. Shared by the
/// dynamic-shape check (which reports them) and the loop check (which recognises loops that
/// shrink a worklist by selecting from it).

#include "graphify/analyzer/AnalysisContext.h"

namespace graphify {

/// The pack entry that makes `Call` a selection — a `dynamic_output_shape` op (nonzero,
/// masked_select, one-argument where), or `bool_mask_index` indexing whose index list holds a
/// provable boolean mask — or null.
const ApiEntry *selectionEntry(const ApiCall &Call, const AnalysisContext &Ctx);

/// The tensor local that the loop `Loop` shrinks by selection, or null: its condition reads the
/// size of `order` (`order.numel() > 0`, `order.size(0)`, `order.sizes()[0]`) and its body
/// assigns `order` again from a selection, directly or through locals of the body
/// (`auto idx = (iou <= t).nonzero(); order = order.index_select(0, idx);`). Hand-written greedy
/// non-maximum suppression has this shape.
const clang::VarDecl *shrinkingSelection(const clang::Stmt &Loop, const AnalysisContext &Ctx);

} // namespace graphify
