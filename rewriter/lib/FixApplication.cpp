// Stub until fix application lands.
#include "graphify/rewriter/FixApplication.h"

namespace graphify {
llvm::Error applyFixes(llvm::ArrayRef<Finding>, const FixApplicationOptions &, llvm::raw_ostream &) {
  return llvm::Error::success();
}
llvm::Expected<std::string> applyFixesToText(llvm::ArrayRef<Finding>, llvm::StringRef,
                                             llvm::StringRef Original, const std::string &,
                                             std::vector<std::string> *) {
  return Original.str();
}
} // namespace graphify
