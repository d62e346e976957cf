#pragma once
// Folding the findings inside a construct into the construct's finding (Finding::Construct).

#include "graphify/analyzer/Analysis.h"

namespace graphify {

/// Removes every finding that lies inside a construct finding's range (same file, its caret in
/// [FoldBegin, FoldEnd)) and adds it to the widest such construct as a note: one note per
/// distinct message, at its first place, saying how many places share it. Nested constructs
/// fold into the outermost. Findings and Anchors stay parallel.
void foldConstructs(AnalysisResult &R);

} // namespace graphify
