#pragma once
// Builds a small translation unit with a mock tensor API (namespace at, torch, gfy) and runs
// the analysis on it; helpers find nodes by the text they start with.

#include "graphify/analyzer/Analysis.h"
#include "graphify/rules/RuleSet.h"

#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <string>

namespace graphify::test {

/// The shipped rule packs, loaded once.
const RuleSet &shippedRules();

/// A mock LibTorch subset: at::Tensor with item/sum/size/nonzero/index, comparisons,
/// torch::nn::Module, torch::zeros, torch::where.
extern const char *const MockTorch;

struct Analyzed {
  std::unique_ptr<clang::ASTUnit> Unit;
  AnalysisResult Result;

  /// The first expression (outermost) whose source text starts at `Needle` in the main file.
  const clang::Expr *exprAt(const std::string &Needle) const;
  /// Findings of one check, as "line:col" with lines counted from the start of `Code`.
  std::vector<std::string> findings(const std::string &CheckId) const;
};

/// Lines taken by the mock before the test's code.
unsigned mockLines();

/// Parses `Code` (appended to the mock) and analyzes it.
Analyzed analyze(const std::string &Code, AnalysisConfig Config = {});

} // namespace graphify::test
