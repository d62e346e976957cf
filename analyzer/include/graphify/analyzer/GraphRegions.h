#pragma once
/// \file
/// Which code runs inside a traced or captured graph. Seeds: `forward` of classes derived from
/// a flavor's module base; functions, lambdas and lambda variables annotated
/// `graphify.graph_region`; qualified names matching the configured globs; callables passed to
/// `capture_entry` functions. The region is the seeds plus everything they call, transitively,
/// among the functions defined in the analyzed files. A lambda written inside a region is part
/// of it.
///
/// \code
///   graphify::GraphRegionFinder Finder(Api, Config.GraphRegionGlobs);
///   graphify::GraphRegions Regions = Finder.find(Functions);
///   if (Regions.contains(FD)) ...
/// \endcode

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/DenseSet.h>

#include <string>
#include <vector>

namespace graphify {

/// The set of bodies (functions and lambda call operators) that are graph regions.
class GraphRegions {
public:
  /// Whether `D` (a function, or a lambda's call operator) is a region body.
  bool contains(const clang::Decl *D) const;
  /// Marks `D` as a region body; returns false if it already was.
  bool insert(const clang::Decl *D);
  size_t size() const { return Bodies.size(); }

private:
  llvm::DenseSet<const clang::Decl *> Bodies;
};

/// Computes the graph regions of a translation unit.
class GraphRegionFinder {
public:
  GraphRegionFinder(const ApiResolver &Api, std::vector<std::string> Globs)
      : Api(Api), Globs(std::move(Globs)) {}

  /// `Functions` are the analyzed definitions (bodies in reported files); the closure of the
  /// call graph stays among them and the lambdas they contain.
  GraphRegions find(llvm::ArrayRef<const clang::FunctionDecl *> Functions) const;

  /// Whether `D` carries `[[clang::annotate("graphify.graph_region")]]`.
  static bool isAnnotatedRegion(const clang::Decl *D);

private:
  const ApiResolver &Api;
  std::vector<std::string> Globs;

  bool isSeed(const clang::FunctionDecl *FD) const;
  bool matchesGlob(const clang::FunctionDecl *FD) const;
};

} // namespace graphify
