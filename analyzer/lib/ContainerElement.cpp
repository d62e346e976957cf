// A container's element type, read from its own `value_type` typedef rather than from template
// arguments, so user containers that follow the convention are seen too.
#include "graphify/analyzer/ContainerElement.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>

using namespace clang;

namespace graphify {

QualType containerValueType(QualType T) {
  if (T.isNull())
    return {};
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return {};
  for (const NamedDecl *D : RD->lookup(&RD->getASTContext().Idents.get("value_type")))
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
      return TD->getUnderlyingType();
  return {};
}

} // namespace graphify
