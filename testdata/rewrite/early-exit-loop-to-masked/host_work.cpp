// early-exit-loop-to-masked: loops and reads whose graph form is a move out of the region, not a
// mask. A loop whose body holds no tensor (drawing, host buffers) is refused for that, whatever
// its bound; a decode loop that stops on a host string looked up from a token id is refused for
// the string, not for the comparison operator; an id read on the host to pick a name from a host
// table gets the lookup recipe; a host-built tensor made of values read from tensors is a round
// trip, whose recipe keeps the values on the device; a branch that runs host code is refused for
// that code, whatever its condition; a decode loop that grows its output by concatenation is
// refused for the growth (a preallocated buffer is its form), not for its exit.
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

void draw_box(const int *box, int label);
std::string token_of(int id);

std::vector<int> boxes_to_ints(const torch::Tensor &boxes) {
  auto cpu = boxes.cpu();
  auto acc = cpu.accessor<float, 2>();
  int n = (cpu.select(1, 4) > 0.5f).sum().item<int>();
  std::vector<int> out;
  for (int i = 0; i < n; ++i) { // EXPECT-NO-FIX: the loop's body works on host values only \('out.push_back' \(line 24\) fills a host container\).*move the loop out of the graph region
    out.push_back(static_cast<int>(acc[i][0]));
    out.push_back(static_cast<int>(acc[i][1]));
  }
  return out;
}

std::string decode(torch::Tensor logits, int max_len) {
  std::string text;
  std::string token;
  for (int i = 0; i < max_len && token != "</s>"; ++i) { // EXPECT-NO-FIX: depends on 'token', a host string computed from a value read from a tensor \(line 35\)
    auto step = logits[i];
    int id = step.argmax().item<int>();
    token = token_of(id);
    text += token;
  }
  return text;
}

struct Detection {
  float score;
  std::string name;
};

void label_of(Detection &d, torch::Tensor probs, const std::vector<std::string> &names) {
  d.score = probs.max().item<float>();
  int k = probs.argmax().item<int>(); // EXPECT-RECIPE: picks an entry of a host container
  d.name = names[k];
}

torch::Tensor gather_kept(torch::Tensor boxes, torch::Tensor order) {
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < 4; ++i)
    keep.push_back(order[i].item<int64_t>());
  auto idx = torch::tensor(keep).to(boxes.device()); // EXPECT-RECIPE: holds values read from tensors \(line 56\), a round trip
  return boxes.index_select(0, idx);
}

void write_image(int image);

torch::Tensor scaled_or_saved(torch::Tensor probs, int image) {
  const float threshold = 0.25f;
  if ((probs > threshold).sum().item<int>() == 0) { // EXPECT-NO-FIX: the branch runs host code: 'write_image' \(line 66\) is host code
    write_image(image);
    return probs;
  }
  return probs * 2;
}

// A per-class list built in host vectors, as hand-written class grouping does: the loops over and
// into the host container are refused for the container, the inner exit names the host flag it
// sets.
std::vector<torch::Tensor> unique_classes(torch::Tensor pred, float conf) {
  auto dets = pred.index({pred.select(1, 4) > conf});
  std::vector<torch::Tensor> classes;
  for (int64_t m = 0, len = dets.size(0); m < len; ++m) { // EXPECT-NO-FIX: the loop appends to the host container 'classes' \(line 88\)
    bool found = false;
    for (size_t n = 0; n < classes.size(); ++n) { // EXPECT-NO-FIX: the loop runs over the host container 'classes'
      auto same = dets[m][5] == classes[n];
      if (torch::nonzero(same).size(0) > 0) { // EXPECT-NO-FIX: the 'break' ends the loop.*the host flag 'found' \(line 83\) becomes a boolean tensor
        found = true;
        break;
      }
    }
    if (!found) // EXPECT-NO-FIX: the branch runs host code: 'classes.push_back' \(line 88\)
      classes.push_back(dets[m][5]);
  }
  return classes;
}

// A while loop and a range-for whose bodies hold no tensor get the move, as index loops do: there
// is no trip count to bound, only host code to run after the replay.
void halvings(torch::Tensor x, std::vector<int> &out) {
  int n = x.sum().item<int>();
  while (n > 1) { // EXPECT-RECIPE: the loop's body works on host values only \(it holds no tensor\).*move the loop
    out.push_back(n);
    n /= 2;
  }
}

// A tensor's memory copied into a host buffer (a function of no tensor API given a pointer it may
// write through, told by its signature) moves out with the code that reads the buffer, whatever
// the buffer's values decide later.
void copy_bytes(void *dst, const void *src, size_t n);

int count_on(torch::Tensor kernels) {
  auto c = kernels.to(torch::kInt).contiguous();
  std::vector<int> buf(c.numel());
  copy_bytes(buf.data(), c.data_ptr(), sizeof(int) * buf.size()); // EXPECT-RECIPE: the tensor's memory is copied into a host buffer \(a memcpy of data_ptr\(\)\).*move the copy, and the host code that reads the buffer
  int on = 0;
  for (int v : buf)
    on += v;
  return on;
}

// A value logged through a logger object's method (no tensor among the logger's fields, its
// arguments taken by forwarding reference): handed to host code, moved out with its read.
struct Log {
  template <typename... A> void info(const char *fmt, A &&...args);
};
extern Log *log_sink;

void log_scores(torch::Tensor scores) {
  for (int64_t i = 0; i < scores.size(0); ++i)
    log_sink->info("{} {}", i, scores[i].item<float>()); // EXPECT-RECIPE: the value is handed to host code
}

void log_kept(torch::Tensor scores, float t) {
  auto kept = scores.index({scores > t});
  for (int64_t i = 0; i < kept.size(0); ++i) // EXPECT-NO-FIX: the loop's body does host work \('Log::info'
    log_sink->info("{}", kept[i].item<float>()); // EXPECT-RECIPE: the value is handed to host code
}
