#pragma once
/// \file
/// The whole public gfy:: API: tensors, ops, graph capture and nn modules.
///
/// \code
///   #include <graphify/graphify.h>
///   gfy::Tensor x = gfy::randn({3});
///   gfy::Tensor y;
///   gfy::Graph g = gfy::capture([&] { y = gfy::where(x.sum() > 0, x * 2, x + 2); });
///   g.replay();
/// \endcode

#include <graphify/core/Types.h>
#include <graphify/core/ArrayRef.h>
#include <graphify/core/Tensor.h>
#include <graphify/core/Indexing.h>
#include <graphify/core/Functions.h>
#include <graphify/core/Parallel.h>
#include <graphify/core/Backend.h>
#include <graphify/autograd/Autograd.h>
#include <graphify/core/Context.h>
#include <graphify/graph/Graph.h>
#include <graphify/nn/Module.h>
#include <graphify/nn/Layers.h>
#include <graphify/nn/Conv.h>
#include <graphify/nn/BatchNorm.h>
#include <graphify/nn/Pooling.h>
#include <graphify/nn/Upsampling.h>
#include <graphify/nn/Activations.h>
#include <graphify/nn/Containers.h>
#include <graphify/nn/Dropout.h>
#include <graphify/nn/Flatten.h>
#include <graphify/nn/FunctionalModule.h>
#include <graphify/nn/Functional.h>
#include <graphify/nn/Loss.h>
#include <graphify/nn/Init.h>
#include <graphify/nn/Attention.h>
#include <graphify/nn/ConvTranspose.h>
#include <graphify/nn/Normalization.h>
#include <graphify/nn/Padding.h>
#include <graphify/nn/RNN.h>
#include <graphify/nn/Serialize.h>
#include <graphify/nn/Utils.h>
#include <graphify/optim/Adam.h>
#include <graphify/optim/AdamW.h>
#include <graphify/optim/LRScheduler.h>
#include <graphify/optim/RMSprop.h>
#include <graphify/optim/SGD.h>
#include <graphify/data/Data.h>
