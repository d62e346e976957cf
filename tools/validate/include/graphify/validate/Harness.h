#pragma once
/// \file
/// Source generation for the per-(entry, version) harness: a `main` that `#include`s the model
/// file, reads each trial's inputs from the inputs file (Values.h) when that trial runs, calls the
/// entry and writes its outputs to a results file. Tensors travel as binary records (Values.h):
/// payloads are read straight into the input tensors and written straight from the outputs.
/// The same source compiles against the bundled runtime (through
/// the compat `<torch/torch.h>`) and against LibTorch; capture and trace exist only with the
/// former (`#ifdef GRAPHIFY_TORCH_COMPAT`).
///
/// Harness command line: `HARNESS MODE INPUTS RESULTS DEVICE SEED` with MODE one of
///  - `eager`:   every trial, eagerly: `eager <t> ok <n>` + n tensor records, or `eager <t> error <msg>`;
///  - `capture`: `gfy::capture` at trial 0, then for t = 1..K-1 copy trial t's inputs into the
///               captured inputs and `replay()`: `capture ok` + `replay <t> ...`, or
///               `capture refused <line>\t<op>\t<file>\t<msg>` / `capture failed <msg>`;
///               With a CaptureName, the core is captured instead, and each replay line is
///               followed by `reference <t> ok <n>`: the core run eagerly on the same inputs;
///  - `trace`:   the same with `gfy::trace` (host reads frozen), plus `warning <msg>` lines;
///  - `grad`:    `params <n>`, then every trial with grad mode on: the floating inputs made leaves
///               that require grad (the model gets clones, so in-place ops on inputs stay legal),
///               each floating output that requires grad seeded with a fixed pseudo-random upstream
///               gradient, and `torch::autograd::grad` w.r.t. the inputs and the module's
///               parameters: `grad <t> ok <n> <s>` + s `<output>\t<why skipped>` lines + n
///               `input <k>|parameter <name>\t<tensor record>`, or `grad <t> error <msg>`;
///  - `grad-if-params`: the same, but stops after `params 0` when the entry has no parameters.
/// Every mode but `grad` runs under `NoGradGuard`. Every mode ends with `done`. DEVICE is `cpu` or `cuda` (exit 3 and `nodevice <why>` when no
/// CUDA device is usable); SEED seeds the runtime generator before the module is constructed, so
/// that both versions start from identical parameters.
///
/// \code
///   graphify::validate::HarnessSpec H{"NonTraceableModel", EntryKind::Module, 1,
///                                     "/abs/non_traceable.cpp", "original"};
///   std::string Source = graphify::validate::generateHarness(H);
/// \endcode

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace graphify::validate {

/// How the harness calls an entry.
enum class EntryKind {
  Function, ///< `name(in0, in1, ...)`
  Module    ///< a default-constructed `nn::Module` subclass or TORCH_MODULE holder; `->forward(...)`
};

/// What one harness is for.
struct HarnessSpec {
  std::string EntryName;  ///< name usable at global scope (qualified if in a namespace)
  EntryKind Kind = EntryKind::Module;
  unsigned NumInputs = 0; ///< tensors passed, in parameter order
  std::string ModelPath;  ///< absolute path of the model file to include
  std::string Version;    ///< "original" or "rewritten", for the banner comment only
  /// The function `capture` mode captures instead of the entry, with the entry's arguments: the
  /// padded core of an entry that selection-to-padded split into a core and a host epilogue
  /// (the epilogue reads counts on the host, the core is what a user captures). Empty: the entry.
  std::string CaptureName;
  /// For a module entry whose forward was split: the fields of the module the core takes after
  /// the inputs (by reference, named after them); CaptureName is then the core's unqualified name,
  /// a static member of the module's class.
  std::vector<std::string> CaptureFields;
  /// For an entry split into a host prologue and a core: a function (StageText defines it after
  /// the model's include) that makes the prologue's copies and returns the core's arguments as a
  /// tuple. Capture mode runs it once before capturing CaptureName on them.
  std::string StageFunction, StageText;
};

/// How the harness captures the core of an entry split into a host prologue and a core.
struct PrologueStage {
  std::string Core;     ///< the core's name, qualified as the entry's
  std::string Function; ///< the stage function's name, qualified as the entry's
  std::string Text;     ///< its definition: the prologue's text, returning the core's arguments
};

/// The stage of the free-function entry `CallName` when the rewrite made it a host prologue
/// (`/// graphify: host prologue of 'f_graph' ...` above it in `Rewritten`), else nothing: the
/// wrapper's text renamed, with its call of the core replaced by a tuple of the call's arguments.
std::optional<PrologueStage> prologueStageOf(llvm::StringRef CallName, llvm::StringRef Rewritten);

/// Process exit codes of a harness (besides 0 and crashes).
enum HarnessExit { HarnessNoDevice = 3, HarnessUsage = 64, HarnessFatal = 70 };

/// The harness's C++ source.
std::string generateHarness(const HarnessSpec &Spec);

} // namespace graphify::validate
