// libFuzzer target: the .graphify.yaml configuration parser (Checks globs, profiles, scopes,
// RulePacks, header filters, severities) and its dump, on arbitrary text.
#include "graphify/lint/Config.h"

#include <llvm/Support/Error.h>

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto C = graphify::parseConfig(Text, "/fuzz/.graphify.yaml", "/fuzz");
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  const std::string Dumped = graphify::dumpConfig(*C);
  // What the tool prints must read back (--dump-config output is a valid configuration).
  auto Again = graphify::parseConfig(Dumped, "/fuzz/dumped.yaml", "/fuzz");
  if (!Again) {
    std::fprintf(stderr, "dumped configuration does not parse: %s\n%s\n", llvm::toString(Again.takeError()).c_str(),
                 Dumped.c_str());
    std::abort();
  }
  for (const char *Name : {"graphify-host-sync", "graphify-data-dependent-branch", "x"})
    (void)graphify::matchesGlob(Text.substr(0, 64), Name);
  return 0;
}
