// Declared for other files: whatever they pass, captureHook may be given any Hook.
struct Hook;
void captureHook(Hook &hook, cudaStream_t s, cudaGraph_t *g);
