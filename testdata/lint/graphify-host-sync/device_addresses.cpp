// data_ptr() of a tensor handed to device code only — the device pointers of a stream-ordered
// copy or memset — is the tensor's device address: nothing is read on the host. Handed to a copy
// to the host, or read through on the host as well, it is reported.
#include <cuda_runtime.h>
#include <torch/torch.h>

struct Decoder : torch::nn::Module {
  torch::Tensor scores;
  float *engine_out = nullptr;

  torch::Tensor forward(torch::Tensor x, cudaStream_t s) {
    float *dst = scores.data_ptr<float>();
    cudaMemcpyAsync(dst, engine_out, scores.numel() * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaMemsetAsync(x.data_ptr<float>() + 4, 0, 16, s);
    cudaMemcpyAsync(engine_out, static_cast<const void *>(x.data_ptr<float>()), 16, cudaMemcpyDeviceToDevice, s);
    float host[4];
    cudaMemcpyAsync(host, x.data_ptr<float>(), sizeof(host), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    float *p = x.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    cudaMemcpyAsync(dst, p, 16, cudaMemcpyDeviceToDevice, s);
    return scores.softmax(-1) * p[0];
  }
};

// The destination of a copy to the device is device memory: a tensor filled from host ids the
// caller keeps (in pinned memory, say) is written on the device, not read on the host. Its source
// in a copy to the host is read there.
struct Lookup : torch::nn::Module {
  torch::Tensor forward(torch::Tensor table, const int64_t *ids, int64_t n, int64_t *out, cudaStream_t s) {
    auto idx = torch::empty({n}, table.options().dtype(torch::kLong));
    cudaMemcpyAsync(idx.data_ptr<int64_t>(), ids, n * sizeof(int64_t), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(out, idx.data_ptr<int64_t>(), n * sizeof(int64_t), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return table.index_select(0, idx);
  }
};

// A launcher the file cannot see into, given a stream beside the address (a collective, a
// project's kernel wrapper): it enqueues device work on the memory. One given no stream may read
// it on the host.
void launchAllReduce(void *buf, int64_t n, cudaStream_t s);
void dumpValues(const float *values, int64_t n);
struct Collective : torch::nn::Module {
  torch::Tensor forward(torch::Tensor t, cudaStream_t s) {
    launchAllReduce(t.data_ptr(), t.numel(), s);
    dumpValues(t.data_ptr<float>(), t.numel());
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return t;
  }
};

// A launcher given no stream but memory the body allocated on the device (cudaMalloc, the packs'
// device_allocation) beside the tensors' addresses (a project's flow-following kernel): it
// enqueues device work on all of them, and reads none on the host.
void launchFlow(const float *flow, const float *mask, int64_t n, float *out);
struct Flow : torch::nn::Module {
  torch::Tensor forward(torch::Tensor flow, torch::Tensor mask) {
    auto *d_flow = flow.data_ptr<float>();
    auto *d_mask = mask.data_ptr<float>();
    float *d_out;
    cudaMalloc(&d_out, sizeof(float) * flow.numel());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    launchFlow(d_flow, d_mask, flow.numel(), d_out);
    dumpValues(mask.data_ptr<float>(), mask.numel());
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return flow;
  }
};
