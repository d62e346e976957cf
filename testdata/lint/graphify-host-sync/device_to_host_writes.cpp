// A beam search that records each step's results into tensors it made in host memory
// (`torch::zeros` given the CPU, or no device): writing a device tensor into one copies device
// values to pageable memory, which waits for the device. Writes of host values, of numbers, and
// into tensors made with the device's options copy nothing to the host.
// RUN-ARGS: --checks=-*,graphify-host-sync --graph-region=recordStep
#include <torch/torch.h>

// A field written is left out: a setter's sources are other objects' fields, host or device.
struct Record {
  torch::Tensor kept;
  void reset(int64_t n) { kept = torch::zeros({n}); }
  void keep(const torch::Tensor &step) { kept.copy_(step); }
};

torch::Tensor recordStep(const torch::Tensor &logp, const torch::Tensor &tokens, int64_t beams, Record &rec) {
  auto host = torch::TensorOptions(torch::kLong).device(torch::kCPU);
  auto chosen = torch::zeros({beams}, host);
  auto scores = torch::zeros({beams});
  auto [best, order] = logp.flatten().topk(beams);
  chosen.copy_(order);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'copy_' writes a tensor that may live on a device into a tensor in host memory ('zeros', line 17): a copy from the device to pageable memory, which waits for the device and cannot be captured in a CUDA graph (make it on the device, with the written tensor's options, or copy the results to the host once after the region) [graphify-host-sync]
  scores.index_put_({0}, best[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'index_put_' writes a tensor that may live on a device into a tensor in host memory ('zeros', line 18): a copy from the device to pageable memory, which waits for the device and cannot be captured in a CUDA graph (make it on the device, with the written tensor's options, or copy the results to the host once after the region) [graphify-host-sync]
  auto firsts = torch::zeros({beams, 2}, host);
  firsts.index_copy_(0, torch::arange(beams), tokens.narrow(1, 0, 2));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'index_copy_' writes a tensor that may live on a device into a tensor in host memory ('zeros', line 24): a copy from the device to pageable memory, which waits for the device and cannot be captured in a CUDA graph (make it on the device, with the written tensor's options, or copy the results to the host once after the region) [graphify-host-sync]
  scores.index_put_({1}, 0.5);
  chosen.copy_(torch::arange(beams));
  auto onDevice = torch::zeros({beams}, logp.options());
  onDevice.copy_(best);
  rec.reset(beams);
  rec.keep(best);
  return onDevice + best.sum();
}
