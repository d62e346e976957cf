// The taint interpreter. Invariant: after run(), every host expression of every analyzed body
// that may depend on a value read from a tensor has an origin in TaintFacts, and every tensor
// expression that is provably a boolean mask is recorded as one. Tensor-typed values themselves
// are never tainted: they are device values and stay in the graph; only their boolean-ness is
// tracked. Shapes (`size`, `sizes`, `dim`, `numel`) come from tensor methods that are not
// `data_dependent_output` and so stay clean.
//
// The interpreter walks statements in order (not a CFG): structured control flow is joined
// explicitly, loops iterate to a fixpoint, and `break`/`continue`/`return` hand their states to
// the enclosing construct. That is exact for the structured code model authors write; `goto`
// is treated as falling through (FIXME: no CFG edge for goto; it is absent from model code).
#include "graphify/analyzer/TaintAnalysis.h"

#include "BodyInterpreter.h"

namespace graphify {

using namespace clang;
using taint::BodyInterpreter;
using taint::key;

void TaintAnalysis::Impl::analyzeFunction(const FunctionDecl *FD) {
  BodyInterpreter I(*this, FD, TaintState());
  I.seedParameters();
  I.seedFields();
  I.runConstructorInits();
  I.runBody(FD->getBody());
  Summaries[key(FD)].absorb(I.summarize());
}

TaintAnalysis::TaintAnalysis(ASTContext &Ctx, TaintFacts &Facts,
                             std::function<bool(const Decl *)> IsGraphRegion)
    : P(std::make_unique<Impl>(Ctx, Facts, std::move(IsGraphRegion))) {}

TaintAnalysis::~TaintAnalysis() = default;

void TaintAnalysis::run(llvm::ArrayRef<const FunctionDecl *> Functions) {
  // Every analyzed function starts with an empty summary, so that a call to a function not yet
  // analyzed in round 1 is not mistaken for an opaque call whose result joins its arguments.
  for (const FunctionDecl *FD : Functions)
    P->Summaries[key(FD)];
  // Iterate to the fixed point. Summaries, field and global taint only ever grow (joins), and
  // their weight is bounded by the functions' parameters, outputs and the program's fields, so
  // each round either adds weight or is the last: the loop ends without a cap. A call chain
  // written callers-first needs one round per level.
  unsigned Previous = ~0u;
  while (true) {
    P->Facts.clearExpressionFacts();
    for (const FunctionDecl *FD : Functions)
      P->analyzeFunction(FD);
    unsigned Now = P->weight();
    if (Now == Previous)
      break;
    assert((Previous == ~0u || Now > Previous) && "taint summaries must only grow");
    Previous = Now;
  }
}

} // namespace graphify
