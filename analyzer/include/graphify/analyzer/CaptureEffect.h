#pragma once
/// \file
/// A function's capture effect: whether a call to it opens or closes stream capture for its
/// caller (CaptureWindows.h computes it; whole-program mode carries it between translation units,
/// ProgramFacts.h). Plain data.

#include <string>

namespace graphify {

/// What a call to a function does to stream capture, seen from its caller.
struct CaptureEffect {
  /// Returns with a capture open that it began (a begin call, or a call of a function that opens
  /// one, with no end call after it in source order).
  bool Opens = false;
  /// Ends a capture that was open on entry (its first capture call in source order is an end).
  bool Closes = false;
  /// The capture it opens is in relaxed mode.
  bool Relaxed = false;
  /// It opens the capture only on the paths that return true: every return before its begin
  /// call returns `false`, every one after it `true` (`if (!supported) return false; begin();
  /// return true;`), so a caller's `if (!beginIfSupported()) {...}` branch captures nothing.
  bool OpensOnTrue = false;
  /// The stream (or graph object) of the capture it opens, or else of the one it closes, as a
  /// caller can name it: the parameter at this index, or the field of this name of the object the
  /// function is called on. Neither: unknown (matched by the next end call at all).
  int StreamParam = -1;
  std::string StreamField;

  bool any() const { return Opens || Closes; }
  /// Joins the effect of another function the same call may run (an overrider of a virtual
  /// method): it opens or closes when either does, is relaxed only when both are, and names a
  /// stream only when both name the same one.
  void join(const CaptureEffect &O) {
    Opens |= O.Opens;
    Closes |= O.Closes;
    Relaxed &= O.Relaxed;
    OpensOnTrue &= O.OpensOnTrue;
    if (O.StreamParam != StreamParam || O.StreamField != StreamField) {
      StreamParam = -1;
      StreamField.clear();
    }
  }
  bool operator==(const CaptureEffect &O) const {
    return Opens == O.Opens && Closes == O.Closes && Relaxed == O.Relaxed && OpensOnTrue == O.OpensOnTrue &&
           StreamParam == O.StreamParam && StreamField == O.StreamField;
  }
  bool operator!=(const CaptureEffect &O) const { return !(*this == O); }
};

} // namespace graphify
