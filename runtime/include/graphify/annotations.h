#pragma once
/// \file
/// Source annotations that graphify-lint understands.
///
/// \code
///   GRAPHIFY_GRAPH_REGION torch::Tensor step(torch::Tensor x);   // checked as graph code
/// \endcode

/// Marks a function or lambda as code that runs inside a traced or captured graph, so that
/// graphify-lint checks it (and everything it calls) under the default `--scope=graph`.
#if defined(__clang__)
#define GRAPHIFY_GRAPH_REGION [[clang::annotate("graphify.graph_region")]]
#else
#define GRAPHIFY_GRAPH_REGION
#endif
