// libFuzzer target: the rule-pack loader (StrictYaml + RuleSet) on arbitrary pack text, with the
// shipped tags.yaml. Every input must load or fail with a located llvm::Error; a crash, a
// sanitizer report or an escaped exception (yaml-cpp throws) is a bug.
#include "FuzzSupport.h"

#include "graphify/rules/RuleSet.h"

#include <llvm/Support/Error.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Pack = graphify::fuzz::writeScratch("pack.yaml", Data, Size);
  auto R = graphify::RuleSet::load(GRAPHIFY_FUZZ_RULES_DIR "/tags.yaml", {Pack});
  if (!R) {
    llvm::consumeError(R.takeError());
    return 0;
  }
  // Exercise the indexes built from whatever was accepted.
  for (const graphify::ApiEntry &E : R->entries()) {
    (void)R->lookupMethod(E.Name, 1);
    (void)R->lookupFunction(E.Name, 1);
  }
  return 0;
}
