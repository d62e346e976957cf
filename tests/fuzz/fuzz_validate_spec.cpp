// libFuzzer target: graphify-validate's input grammar (`// graphify-entry:` comments and
// `--input name=dtype[shape]@lo:hi`) and the input generator on whatever parses. Specs must
// parse or fail with a located message; generated inputs must match their spec.
#include "graphify/validate/EntrySpec.h"
#include "graphify/validate/InputGenerator.h"

#include <llvm/Support/Error.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void generateSmall(const graphify::validate::InputSpec &S) {
  int64_t N = 1;
  for (int64_t D : S.Shape)
    N *= D; // parseable specs have checked products
  if (N > 4096)
    return; // large inputs only measure the machine's memory
  for (unsigned Trial = 0; Trial < 3; ++Trial) {
    graphify::validate::HostTensor T = graphify::validate::generateInput(S, 7, Trial, 0);
    if (T.Shape != S.Shape) {
      std::fprintf(stderr, "generated shape differs from the spec\n");
      std::abort();
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto List = graphify::validate::parseEntryComment(Text, "fuzz.cpp:1", 1);
  if (List) {
    for (const auto &S : *List)
      generateSmall(S);
  } else {
    llvm::consumeError(List.takeError());
  }
  auto One = graphify::validate::parseInputFlag(Text);
  if (One)
    generateSmall(*One);
  else
    llvm::consumeError(One.takeError());
  unsigned Column = 0;
  (void)graphify::validate::findEntryComment(Text, Column);
  return 0;
}
