// Calls in capture windows that do not name their callee, with the CUDA prototypes declared by
// hand: a virtual forward through a base-class pointer reaches every overrider defined here, and
// a std::function or function-pointer member reaches the callables assigned to it. What graphify
// cannot resolve is named on stderr (tests/cli), never passed over.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);

struct Model {
  virtual ~Model() = default;
  virtual void forward(cudaStream_t s) = 0;
  virtual void warmup() {}
};

struct Decoder : Model {
  void forward(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  void warmup() override { cudaDeviceSynchronize(); } // called only before the window
};

struct Encoder final : Model {
  void forward(cudaStream_t) override {
    void *p = nullptr;
    cudaMalloc(&p, 64);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

void captureModel(std::unique_ptr<Model> &model, cudaStream_t s, cudaGraph_t *g) {
  model->warmup();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  model->forward(s);
  cudaStreamEndCapture(s, g);
}

// A value of the derived type calls that very method, and a qualified call names its method: no
// other overrider is reached.
struct Stage {
  virtual ~Stage() = default;
  virtual void run(cudaStream_t) {}
};
struct Pooler : Stage {
  void run(cudaStream_t s) override { Stage::run(s); }
};
struct Tiler : Pooler {
  void run(cudaStream_t) override { cudaDeviceSynchronize(); } // not reached below
};
void capturePooler(cudaStream_t s, cudaGraph_t *g) {
  Pooler pooler;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  pooler.run(s);
  cudaStreamEndCapture(s, g);
}

// An engine that enqueues through a std::function member set in its constructor.
class Engine {
public:
  explicit Engine(cudaStream_t s) : stream_(s), enqueue_([this] { launch(); }) {}
  void capture(cudaGraph_t *g) {
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    enqueue_();
    cudaStreamEndCapture(stream_, g);
  }

private:
  void launch() {
    cudaFree(scratch_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStream_t stream_;
  void *scratch_ = nullptr;
  std::function<void()> enqueue_;
};

// A function pointer assigned in two places: both targets are in the window.
static void stepA(cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
static void stepB(cudaStream_t) {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
static void stepUnused(cudaStream_t) { cudaDeviceSynchronize(); }

struct Runner {
  void (*step)(cudaStream_t) = nullptr;
  void choose(bool fast) { step = fast ? &stepA : stepB; }
  void capture(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step(s);
    cudaStreamEndCapture(s, g);
  }
};

// A callback parameter: the callables its callers pass.
static void captureWith(cudaStream_t s, cudaGraph_t *g, const std::function<void(cudaStream_t)> &body) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  body(s);
  cudaStreamEndCapture(s, g);
}
void captureLambda(cudaStream_t s, cudaGraph_t *g) {
  captureWith(s, g, [](cudaStream_t t) {
    cudaStreamSynchronize(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  });
}

// Callbacks registered from outside the checked files: graphify says it cannot see them.
struct Hooks {
  std::vector<std::function<void()>> before;
  std::function<void()> after;
  void capture(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (auto &hook : before)
      hook();
    after();
    cudaStreamEndCapture(s, g);
  }
};

// A std::function given a function object of the project: its call operator runs.
struct EnqueueExplicit {
  cudaStream_t stream;
  bool operator()() const {
    cudaStreamSynchronize(stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return true;
  }
};
struct Inference {
  using EnqueueFunction = std::function<bool()>;
  EnqueueFunction enqueue;
  void setUp(cudaStream_t s) { enqueue = EnqueueFunction(EnqueueExplicit{s}); }
  void capture(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    enqueue();
    cudaStreamEndCapture(s, g);
  }
};

// A backend interface of function pointers filled by an aggregate initialiser, and a dispatch
// table indexed by the op: the window reaches every function they hold.
struct BackendIface {
  const char *name;
  void (*graph_compute)(cudaStream_t);
};
static void cudaGraphCompute(cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
static const BackendIface cudaIface = {/*.name =*/"cuda", /*.graph_compute =*/cudaGraphCompute};
struct Backend {
  BackendIface iface;
};
static void opCopy(cudaStream_t) {}
static void opReduce(cudaStream_t) {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
static void (*const kOps[])(cudaStream_t) = {opCopy, opReduce};
void captureBackend(Backend *b, cudaStream_t s, cudaGraph_t *g, const int *ops, int n) {
  b->iface = cudaIface;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  b->iface.graph_compute(s);
  for (int i = 0; i < n; ++i)
    kOps[ops[i]](s);
  cudaStreamEndCapture(s, g);
}

// Containers of callables: hooks pushed into a vector and run in the window (a range-for over it,
// an element by position), a map of named steps run through its iterator. Each holds every
// callable it is given; hooks run only outside any window are not reported.
static void dumpStats(cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

struct ScratchHook {
  void operator()(cudaStream_t) const {
    void *p = nullptr;
    cudaMalloc(&p, 256);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

static void freeAll(cudaStream_t) {
  cudaFree(nullptr); // only in the eager hooks, never run in a window
}

struct HookedStep {
  std::vector<std::function<void(cudaStream_t)>> hooks;
  std::vector<std::function<void(cudaStream_t)>> eagerHooks{freeAll};
  cudaGraph_t graph = nullptr;
  HookedStep() {
    hooks.push_back(dumpStats);
    hooks.emplace_back(ScratchHook());
  }
  void capture(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (auto &hook : hooks)
      hook(s);
    hooks[0](s);
    cudaStreamEndCapture(s, &graph);
    for (const auto &hook : eagerHooks)
      hook(s);
  }
};

// A map of named steps, run through its iterator and by key in the window.
static void flushStep(cudaStream_t s) {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

struct NamedSteps {
  std::map<std::string, void (*)(cudaStream_t)> steps;
  cudaGraph_t graph = nullptr;
  NamedSteps() { steps.emplace("flush", &flushStep); }
  void capture(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (auto it = steps.begin(); it != steps.end(); ++it)
      it->second(s);
    steps.at("flush")(s);
    cudaStreamEndCapture(s, &graph);
  }
};

// The container no callable is given to in this file is named on stderr.
// CHECK-STDERR: graphify-lint: note: {{.*}}virtual_and_indirect_calls.cpp:{{[0-9]+}}:7: 'before' is called in a capture window through an element of a 'std::vector', and graphify cannot tell what it runs (no callable is assigned to it in the checked files); that code is not checked

// Lambdas written in a window run where they are used: one kept in a variable and called after
// the end call is not captured; one called, or handed to an algorithm, in the window is.
#include <algorithm>
void captureWithLocalLambdas(cudaStream_t s, cudaGraph_t *g, std::vector<void *> &scratch) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  auto drain = [&] { cudaStreamSynchronize(s); };
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  auto release = [](void *p) { cudaFree(p); };
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  auto report = [&] { cudaDeviceSynchronize(); };
  drain();
  std::for_each(scratch.begin(), scratch.end(), release);
  cudaStreamEndCapture(s, g);
  report();
}

// A registry behind an accessor (a function-local static): what is registered through it runs
// where the window iterates it.
using StepHook = std::function<void(cudaStream_t)>;
static std::map<std::string, StepHook> &stepHooks() {
  static std::map<std::string, StepHook> hooks;
  return hooks;
}

void registerStepHooks() {
  stepHooks()["trace"] = [](cudaStream_t s) { cudaStreamSynchronize(s); };
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  stepHooks().emplace("free", [](cudaStream_t) { cudaFree(nullptr); });
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

void captureWithRegistry(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (auto &entry : stepHooks())
    entry.second(s);
  cudaStreamEndCapture(s, g);
}

// A table of pointers to member functions, run through `->*`: each method in the table runs in
// the window; the one called through a pointer after the end does not.
class TableSteps {
public:
  using Step = void (TableSteps::*)(cudaStream_t);
  void capture(cudaStream_t s, cudaGraph_t *g) {
    static const Step kSteps[] = {&TableSteps::upload, &TableSteps::readBack};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (Step st : kSteps)
      (this->*st)(s);
    cudaStreamEndCapture(s, g);
    Step after = &TableSteps::finish;
    (this->*after)(s);
  }
  void upload(cudaStream_t) {}
  void readBack(cudaStream_t s) {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  void finish(cudaStream_t s) { cudaStreamSynchronize(s); }
};

// std::visit calls the visitor's operator for the variant's alternative (rules/std.yaml,
// runs_callables): every operator of a visitor object, and of the lambdas an `overloaded` set
// inherits, runs in the window; a visit after the end runs nothing captured.
struct UploadCmd { void *dst; };
struct FreeCmd { void *ptr; };
using Command = std::variant<UploadCmd, FreeCmd>;
struct Recorder {
  cudaStream_t s;
  void operator()(const UploadCmd &) const {}
  void operator()(const FreeCmd &c) const {
    cudaFree(c.ptr);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};
template <class... Fs> struct Overloaded : Fs... { using Fs::operator()...; };
template <class... Fs> Overloaded(Fs...) -> Overloaded<Fs...>;

void replayCommands(cudaStream_t s, cudaGraph_t *g, const std::vector<Command> &cmds) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (const Command &c : cmds)
    std::visit(Recorder{s}, c);
  for (const Command &c : cmds)
    std::visit(Overloaded{[](const UploadCmd &) {},
                          [&](const FreeCmd &) {
                            cudaStreamSynchronize(s);
                            // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
                          }},
               c);
  cudaStreamEndCapture(s, g);
  for (const Command &c : cmds)
    std::visit([&](const auto &) { cudaDeviceSynchronize(); }, c);
}

// Tasks made with std::bind and std::mem_fn (the packs' wraps_callable) run the member function
// they were made from: the one run in the window is checked, the one run after it is not.
class ScratchPool {
public:
  void regrow(unsigned long bytes) {
    cudaFree(base_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaMalloc(&base_, bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  void drain(cudaStream_t s) { cudaStreamSynchronize(s); }
  void reset() { cudaDeviceSynchronize(); }

private:
  void *base_ = nullptr;
};
void runBoundTasks(ScratchPool &pool, cudaStream_t s, cudaGraph_t *g) {
  std::function<void()> regrow = std::bind(&ScratchPool::regrow, &pool, 1ul << 20);
  std::function<void()> drain = std::bind(&ScratchPool::drain, &pool, s);
  std::function<void(ScratchPool &)> reset = std::mem_fn(&ScratchPool::reset);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  regrow();
  cudaStreamEndCapture(s, g);
  drain();
  reset(pool);
}

// A registry returned by value from the function that fills it, then given to a head's
// constructor: the copy holds every callable the local was given.
using Finisher = std::function<void(cudaStream_t)>;
static std::map<std::string, Finisher> makeFinishers() {
  std::map<std::string, Finisher> r;
  r["none"] = [](cudaStream_t) {};
  r["wait"] = [](cudaStream_t s) { cudaStreamSynchronize(s); };
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return r;
}

struct FinishingHead {
  Finisher finish;
  explicit FinishingHead(Finisher f) : finish(std::move(f)) {}
  void operator()(cudaStream_t s) { finish(s); }
};

void captureHead(cudaStream_t s, cudaGraph_t *g) {
  auto finishers = makeFinishers();
  FinishingHead head(finishers.at("wait"));
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  head(s);
  cudaStreamEndCapture(s, g);
}

// Stages held in a vector of owning pointers and run in a range-based for: the loop variable's
// object is any stage the vector holds (the iterator Clang reads it through says nothing of its
// class), so every overrider runs in the window.
struct PipelineStage {
  virtual ~PipelineStage() = default;
  virtual void run(cudaStream_t s) = 0;
};
struct ReadbackStage : PipelineStage {
  void run(cudaStream_t s) override { cudaStreamSynchronize(s); }
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
};
struct StagePipeline {
  std::vector<std::unique_ptr<PipelineStage>> stages;
  void capture(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (auto &st : stages)
      st->run(s);
    cudaStreamEndCapture(s, g);
  }
};

// Hooks run through registries this file only declares: a function's (keyed by the function in
// whole-program mode, cross_tu_registry.program) and a plugin object's method. The notes name
// what the loop runs over as written, not the range-based for's hidden variable.
std::vector<std::function<void(cudaStream_t)>> &externalHooks();
struct PluginHooks {
  std::vector<std::function<void(cudaStream_t)>> &all();
};
void runExternalHooks(PluginHooks &plugin, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (auto &hook : externalHooks())
    hook(s);
  for (auto &hook : plugin.all())
    hook(s);
  cudaStreamEndCapture(s, g);
}
// CHECK-STDERR: graphify-lint: note: {{.*}}virtual_and_indirect_calls.cpp:{{[0-9]+}}:5: 'externalHooks' is called in a capture window through an element of a 'std::vector', and graphify cannot tell what it runs (no callable is assigned to it in the checked files); that code is not checked
// CHECK-STDERR: graphify-lint: note: {{.*}}virtual_and_indirect_calls.cpp:{{[0-9]+}}:5: 'plugin.all()' is called in a capture window through an element of a 'std::vector', and graphify cannot tell what it runs (no callable is assigned to it in the checked files); that code is not checked
