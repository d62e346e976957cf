#pragma once
/// \file
/// Source annotations that graphify-lint understands.
///
/// \code
///   GRAPHIFY_GRAPH_REGION torch::Tensor step(torch::Tensor x);   // checked as graph code
///   GRAPHIFY_HOST_EPILOGUE torch::Tensor detect(torch::Tensor x); // host code between regions
/// \endcode

/// Marks a function or lambda as code that runs inside a traced or captured graph, so that
/// graphify-lint checks it (and everything it calls) under the default `--scope=graph`.
#if defined(__clang__)
#define GRAPHIFY_GRAPH_REGION [[clang::annotate("graphify.graph_region")]]
#else
#define GRAPHIFY_GRAPH_REGION
#endif

/// Marks a function as the host epilogue of a graph region: it reads counts on the host and
/// slices fixed-size outputs (what `--fix` writes when it splits a function into a padded core
/// and an epilogue). graphify-lint does not check its body, and checks what it calls as region
/// code. A documentation comment starting with `graphify: host epilogue` means the same.
#if defined(__clang__)
#define GRAPHIFY_HOST_EPILOGUE [[clang::annotate("graphify.host_epilogue")]]
#else
#define GRAPHIFY_HOST_EPILOGUE
#endif
