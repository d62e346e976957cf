// selection-to-padded: shapes it does not rewrite. The finding keeps its by-hand recipe, which
// ends with the construct that blocks the automatic padded form when the function has the shape
// the split covers.
#include <torch/torch.h>

torch::Tensor total_of_kept(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: .*'kept.sum\(0\)' \(line 8\) works along dimension 0
  return kept.sum(0);
}

torch::Tensor count_into_host(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: 'n' holds the row count of a value-dependent selection, which the padded form reads only in the test of a return or a 'continue'; line 14 reads it otherwise
  int64_t n = kept.size(0);
  return torch::ones({n});
}

torch::Tensor two_filters(torch::Tensor x, torch::Tensor y) {
  auto a = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: .*combines the rows of two different selections
  auto b = y.index({y > 0}); // EXPECT-RECIPE: not rewritten automatically: .*combines the rows of two different selections
  return a + b;
}

// A loop is outside the shapes the split covers: the recipe stays the by-hand one, without a
// reason that would name the loop rather than what blocks the selection.
torch::Tensor in_a_loop(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: ^keep fixed shapes[^()]*(\([^()]*\)[^()]*)*$
  for (int i = 0; i < 3; ++i)
    kept = kept * 2;
  return kept;
}

// A tuple built before the return cannot be taken apart into the core's outputs.
std::tuple<torch::Tensor, torch::Tensor> tuple_from_local(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: 'both' \(line 35\) gathers tensors of a value-dependent selection before the return
  auto both = std::make_tuple(kept, kept * 2);
  return both;
}

// A cap that tests one selection's rows and slices another's.
torch::Tensor cap_of_other(torch::Tensor x, torch::Tensor y) {
  auto a = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: the cap at line 43 tests the rows of 'a' but slices 'b'
  auto b = y.index({y > 0}); // EXPECT-RECIPE: not rewritten automatically: the cap at line 43 tests the rows of 'a' but slices 'b', which comes from another selection
  if (a.size(0) > 3) // EXPECT-NO-FIX: the condition depends on 'a.size\(0\)', the size of a value-dependent selection
    b = b.slice(0, 0, 3);
  return b;
}

// A slice with a step keeps every other row, not a prefix: not a cap (the if is out of scope).
torch::Tensor strided_cap(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: ^keep fixed shapes[^()]*(\([^()]*\)[^()]*)*$
  if (kept.size(0) > 4) // EXPECT-NO-FIX: the condition depends on 'kept.size\(0\)', the size of a value-dependent selection
    kept = kept.slice(0, 0, 4, 2);
  return kept;
}

// A maximum over the selected rows with no test for none: the original raises on an empty
// selection, and the padded rows would give it a value.
torch::Tensor unguarded_max(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: 'max' \(line 60\) reduces the rows of a value-dependent selection that may have none
  return kept / kept.max();
}

// A sum over every selected row: the padded rows would take part.
torch::Tensor share_of_total(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: 'sum' \(line 68\) reduces every row of a value-dependent selection
  if (kept.size(0) == 0) // EXPECT-NO-FIX: the condition depends on 'kept.size\(0\)', the size of a value-dependent selection: the early return
    return x;
  return kept / kept.sum();
}

namespace vision {
namespace ops {
at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold);
} // namespace ops
} // namespace vision

// Positions selected by a mask: their padded rows hold positions the original never used.
torch::Tensor gather_by_selected_positions(torch::Tensor x, torch::Tensor order) {
  auto picked = order.index({order > 2}); // EXPECT-RECIPE: not rewritten automatically: 'x.index_select\(0, picked\)' \(line 80\) gathers at positions held by a value-dependent selection
  return x.index_select(0, picked);
}

// Boxes and scores filtered by different masks do not line up once padded.
torch::Tensor nms_of_two_filters(torch::Tensor boxes, torch::Tensor scores) {
  auto b = boxes.index({boxes.select(1, 0) > 0}); // EXPECT-RECIPE: not rewritten automatically: the boxes and scores given to 'nms' \(line 87\) do not come from the same rows
  auto s = scores.index({scores > 0}); // EXPECT-RECIPE: not rewritten automatically: the boxes and scores given to 'nms' \(line 87\)
  auto keep = vision::ops::nms(b, s, 0.5); // EXPECT-RECIPE: greedy suppression has an exact fixed-size form.*not rewritten automatically: the boxes and scores
  return b.index_select(0, keep);
}

// Each image's rows copied to the host before they are selected: a core holding the copy would
// wait for the device, which no capture holds, so the split is not offered.
std::vector<torch::Tensor> kept_per_image_on_host(torch::Tensor preds, double threshold) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    torch::Tensor pred = preds.select(0, i);
    pred = pred.to(torch::kCPU);
    pred = pred.index_select(0, torch::nonzero(pred.select(1, 4) > threshold).select(1, 0));
    if (pred.size(0) == 0) // EXPECT-NO-FIX: ^the condition depends on 'pred.size\(0\)', the size of a value-dependent selection
      continue;
    out.push_back(pred * 2);
  }
  return out;
}
