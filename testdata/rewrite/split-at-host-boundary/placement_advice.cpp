// split-at-host-boundary: advice on findings no rule rewrites. A module moved to its device inside
// the region is advised to move once, where it is loaded; the copies to the host made for the
// project's own copy of torchvision's CPU NMS kernel (in a header of its own) name that kernel.
#include "greedy_nms_kernel.h"

#include <torch/script.h>

torch::Tensor detect(torch::jit::script::Module &model, torch::Tensor image) {
  model.to(torch::kCUDA); // EXPECT-RECIPE: ^move the module to its device once, where it is loaded, before the graph region runs
  auto out = model.forward({image}).toTensor();
  auto boxes = out.slice(1, 0, 4).cpu(); // EXPECT-RECIPE: copied to host memory for 'greedy_nms' \(line 13\), the project's copy of torchvision's CPU NMS kernel
  auto scores = out.select(1, 4).cpu(); // EXPECT-RECIPE: copied to host memory for 'greedy_nms' \(line 13\), the project's copy of torchvision's CPU NMS kernel
  return boxes.index_select(0, greedy_nms(boxes, scores, 0.45f));
}
