#pragma once
/// \file
/// Source annotations that graphify-lint understands.
///
/// \code
///   GRAPHIFY_GRAPH_REGION torch::Tensor step(torch::Tensor x);   // checked as graph code
///   GRAPHIFY_HOST_EPILOGUE torch::Tensor detect(torch::Tensor x); // host code between regions
///   GRAPHIFY_GRAPH_REGION GRAPHIFY_STATIC_BOUND(len, 64)            // 'len' never exceeds 64
///   torch::Tensor decode(torch::Tensor memory, torch::Tensor lengths);
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
/// code. A documentation comment starting with `graphify: host epilogue` means the same, as does
/// one starting with `graphify: host prologue` (a wrapper that copies host data to the device,
/// then calls its core: what `--fix` writes when the copies are a function's only host work).
#if defined(__clang__)
#define GRAPHIFY_HOST_EPILOGUE [[clang::annotate("graphify.host_epilogue")]]
#else
#define GRAPHIFY_HOST_EPILOGUE
#endif

/// Promises that the parameter or local `name` of the function it is written on never exceeds
/// `bound` (a positive integer constant), so that `--fix` can run a loop bounded by `name` to
/// `bound` iterations and mask those past `name` (docs/rewrites.md, "Static bounds"). Several may
/// be written on one function; `StaticBounds:` in .graphify.yaml says the same from outside.
#if defined(__clang__)
#define GRAPHIFY_STATIC_BOUND(name, bound) [[clang::annotate("graphify.static_bound", #name, bound)]]
#else
#define GRAPHIFY_STATIC_BOUND(name, bound)
#endif
