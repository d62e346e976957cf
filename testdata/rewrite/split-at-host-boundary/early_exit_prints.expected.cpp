// split-at-host-boundary at an early return that prints why it gives up, ahead of host logging
// after the branch, as instance segmentation post-processing does when no instance passes a
// filter. The split moves the test to the host part; the by-hand advice for keeping the branch in
// the graph names the print inside it (what no graph holds), not the log that follows.
#include <torch/torch.h>

#include <iostream>
#include <string>

void log_count(const std::string &what, int64_t n);

static at::Tensor keep_instances_graph(torch::Tensor &masks,
                                       const torch::Tensor &areas,
                                       double min_area) {
  auto keep = areas > min_area;
  return keep;
}

/// graphify: host epilogue of 'keep_instances_graph' (runs the host part, from
/// line 14, on the core's results; not a graph region)
void keep_instances(torch::Tensor &masks, const torch::Tensor &areas,
                    double min_area) {
  at::Tensor keep = keep_instances_graph(masks, areas, min_area);
  if (keep.sum(0).item<int64_t>() ==
      0) { // EXPECT-RECIPE: ^the branch runs host code: 'std::cerr <<' \(line
           // 15\) prints on the host
    std::cerr << "no instance is large enough" << std::endl;
    return;
  }
  masks = masks * keep.unsqueeze(1);
  log_count("instances", masks.size(0));
}
