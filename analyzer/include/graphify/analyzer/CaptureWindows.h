#pragma once
/// \file
/// Capture windows: the code of a function between a call that begins stream capture and the
/// call that ends it (`cudaStreamBeginCapture(s, mode)` ... `cudaStreamEndCapture(s, &g)`,
/// `graph.capture_begin()` ... `graph.capture_end()`). That code is recorded into a CUDA graph,
/// so it is checked as a graph region; which calls open and close a window is the rule packs'
/// `capture_begin` / `capture_end` tags.
///
/// Windows are found in source order within one body, which is the order of execution for the
/// straight-line code capture is written in. A begin call is closed by the next end call on the
/// same stream (its `stream_arg`, compared as written), else by the next end call, else by the
/// end of the body. An end call with no begin before it opens nothing.
///
/// \code
///   for (const graphify::CaptureWindow &W : graphify::findCaptureWindows(*FD, Api, SM))
///     if (W.contains(S->getBeginLoc(), SM)) ...
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

#include <string>
#include <vector>

namespace graphify {

struct CaptureWindow {
  const clang::FunctionDecl *Function = nullptr;
  /// The last character of the begin call (of the macro invocation that wraps it, if any):
  /// code after it is captured.
  clang::SourceLocation Open;
  /// The first character of the end call (or its macro invocation); invalid when the window
  /// runs to the end of the body.
  clang::SourceLocation Close;
  /// Whether the begin call selected relaxed capture mode (its `relaxed_modes`).
  bool Relaxed = false;

  /// Whether `Loc` (any location, macro or file) lies strictly between Open and Close.
  bool contains(clang::SourceLocation Loc, const clang::SourceManager &SM) const;
};

/// The windows in `FD`'s body, in source order.
std::vector<CaptureWindow> findCaptureWindows(const clang::FunctionDecl &FD, const ApiResolver &Api,
                                              const clang::SourceManager &SM);

} // namespace graphify
