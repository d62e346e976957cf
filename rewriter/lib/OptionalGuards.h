#pragma once
/// \file
/// Reads of an optional's value (`o.value()`, `*o`) that the condition around them guards with a
/// test for a value: they raise nothing where they run (rules/std.yaml and rules/libtorch.yaml tag
/// them raises_on_values), so a lifted condition may keep them.

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify::rewriter {

/// Whether `Call` reads the value of an optional (`o.value()`, `*o`) that the condition tests on
/// the left of an `&&` holding the call on its right (`o.has_value() && tok.item<int64_t>() ==
/// o.value()`; for `||`, a test for no value): the read runs only when `o` holds a value, in the
/// lifted condition (which keeps that host test in front) as in the original, so it raises nothing.
bool isCheckedOptionalRead(const clang::Expr *Call, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
