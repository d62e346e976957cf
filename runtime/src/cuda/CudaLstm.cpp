// The cuDNN LSTM (cuDNN 9 RNN API). LibTorch keeps per-layer w_ih (4H, I), w_hh (4H, H), b_ih and
// b_hh with gate rows in the order i, f, g, o; cuDNN's weight space holds, per pseudo-layer, one
// matrix and one bias per linear-layer id, ids 0-3 applying to the layer input and 4-7 to the
// recurrent state, in the same gate order (input, forget, new memory, output). So every LibTorch
// gate block is one device-to-device copy into the address cudnnGetRNNWeightParams reports, with
// the matrix row-major (H, in) as in LibTorch. Copies are stream-ordered, so packing is capturable.
#include "CudaBackend.h"

#include <graphify/core/Functions.h>
#include <graphify/cuda/Cuda.h>

#ifdef GRAPHIFY_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace gfy::cuda {
namespace detail {

void throw_cudnn_error(int status, const char *expr, const char *file, int line) {
#ifdef GRAPHIFY_HAVE_CUDNN
  const char *what = cudnnGetErrorString(cudnnStatus_t(status));
#else
  const char *what = "cuDNN status";
#endif
  throw Error(std::string("cuDNN error: ") + what + " (" + std::to_string(status) + ") in " + expr + " at " + file + ":" +
              std::to_string(line));
}

} // namespace detail

using namespace detail;

#ifdef GRAPHIFY_HAVE_CUDNN

bool has_cudnn() { return true; }

struct CudnnLstm::Impl {
  int64_t input = 0, hidden = 0, layers = 0;
  ScalarType dtype = kFloat;
  LstmOptions opt;
  cudnnHandle_t handle = nullptr;
  cudnnRNNDescriptor_t rnn = nullptr;
  cudnnDropoutDescriptor_t dropout = nullptr;
  cudnnRNNDataDescriptor_t xdesc = nullptr, ydesc = nullptr;
  cudnnTensorDescriptor_t hdesc = nullptr, mdesc = nullptr, bdesc = nullptr;
  size_t weight_bytes = 0;
  Tensor weight_space; ///< bytes, as a 1-d uint8-sized (bool) tensor so the allocator owns it
  int64_t T = -1, B = -1; ///< shape the data descriptors and workspace were made for
  Tensor workspace, seq_lengths;
  bool weights_set = false;

  cudnnDataType_t data_type() const { return dtype == kDouble ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT; }

  ~Impl() {
    if (bdesc) cudnnDestroyTensorDescriptor(bdesc);
    if (mdesc) cudnnDestroyTensorDescriptor(mdesc);
    if (hdesc) cudnnDestroyTensorDescriptor(hdesc);
    if (ydesc) cudnnDestroyRNNDataDescriptor(ydesc);
    if (xdesc) cudnnDestroyRNNDataDescriptor(xdesc);
    if (rnn) cudnnDestroyRNNDescriptor(rnn);
    if (dropout) cudnnDestroyDropoutDescriptor(dropout);
    if (handle) cudnnDestroy(handle);
  }

  /// (Re)builds the data descriptors and workspace for a (T, B) input; no-op when unchanged.
  void prepare(int64_t t, int64_t b) {
    if (t == T && b == B) return;
    GFY_CHECK(cuda::is_stream_capturing() == false,
              "CudnnLstm::forward: the first call for a new (seq_len, batch) sizes cuDNN's workspace and must run "
              "before capture");
    T = t;
    B = b;
    const std::vector<int> lengths(static_cast<size_t>(b), static_cast<int>(t));
    // Always sequence-major packed (batch-first input is transposed, as LibTorch does): cuDNN's
    // unpacked layouts need padded I/O (CUDNN_RNN_PADDED_IO_ENABLED), which the H200's first run
    // answered with CUDNN_STATUS_BAD_PARAM when it was missing.
    const cudnnRNNDataLayout_t layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
    CUDNN_CHECK(cudnnSetRNNDataDescriptor(xdesc, data_type(), layout, int(t), int(b), int(input), lengths.data(), nullptr));
    CUDNN_CHECK(cudnnSetRNNDataDescriptor(ydesc, data_type(), layout, int(t), int(b), int(hidden), lengths.data(), nullptr));
    const int dims[3] = {int(layers), int(b), int(hidden)};
    const int strides[3] = {int(b * hidden), int(hidden), 1};
    CUDNN_CHECK(cudnnSetTensorNdDescriptor(hdesc, data_type(), 3, dims, strides));
    size_t work = 0, reserve = 0;
    CUDNN_CHECK(cudnnGetRNNTempSpaceSizes(handle, rnn, CUDNN_FWD_MODE_INFERENCE, xdesc, &work, &reserve));
    workspace = gfy::empty({int64_t(work > 0 ? work : 1)}, TensorOptions().dtype(kBool).device(kCUDA));
    seq_lengths = gfy::full({b}, t, TensorOptions().dtype(kInt).device(kCUDA));
  }
};

CudnnLstm::CudnnLstm(int64_t input_size, int64_t hidden_size, int64_t num_layers, ScalarType dtype, LstmOptions options)
    : impl_(std::make_unique<Impl>()) {
  GFY_CHECK(input_size > 0 && hidden_size > 0 && num_layers > 0, "CudnnLstm: sizes must be positive");
  GFY_CHECK(isFloatingType(dtype), "CudnnLstm: dtype must be Float or Double, got ", to_string(dtype));
  cuda_backend();
  Impl &m = *impl_;
  m.input = input_size;
  m.hidden = hidden_size;
  m.layers = num_layers;
  m.dtype = dtype;
  m.opt = options;
  CUDNN_CHECK(cudnnCreate(&m.handle));
  CUDNN_CHECK(cudnnSetStream(m.handle, detail::current_stream()));
  CUDNN_CHECK(cudnnCreateDropoutDescriptor(&m.dropout));
  // No dropout at inference: a zero-probability descriptor needs no state buffer.
  CUDNN_CHECK(cudnnSetDropoutDescriptor(m.dropout, m.handle, 0.0f, nullptr, 0, 0));
  CUDNN_CHECK(cudnnCreateRNNDescriptor(&m.rnn));
  // Float: FMA keeps exact fp32 (no TF32) unless allowed. Double has only the default math.
  const cudnnMathType_t math =
      dtype == kDouble || options.allow_tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
  CUDNN_CHECK(cudnnSetRNNDescriptor_v8(m.rnn, CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS,
                                       CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, m.data_type(), m.data_type(), math,
                                       int32_t(input_size), int32_t(hidden_size), int32_t(hidden_size),
                                       int32_t(num_layers), m.dropout, CUDNN_RNN_PADDED_IO_DISABLED));
  CUDNN_CHECK(cudnnCreateRNNDataDescriptor(&m.xdesc));
  CUDNN_CHECK(cudnnCreateRNNDataDescriptor(&m.ydesc));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&m.hdesc));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&m.mdesc));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&m.bdesc));
  CUDNN_CHECK(cudnnGetRNNWeightSpaceSize(m.handle, m.rnn, &m.weight_bytes));
  m.weight_space = gfy::zeros({int64_t(m.weight_bytes)}, TensorOptions().dtype(kBool).device(kCUDA));
}

CudnnLstm::~CudnnLstm() = default;

void CudnnLstm::set_weights(const std::vector<Tensor> &weights) {
  Impl &m = *impl_;
  GFY_CHECK(int64_t(weights.size()) == 4 * m.layers, "CudnnLstm::set_weights: expected ", 4 * m.layers,
            " tensors (w_ih, w_hh, b_ih, b_hh per layer), got ", int64_t(weights.size()));
  CUDNN_CHECK(cudnnSetStream(m.handle, detail::current_stream()));
  const int64_t H = m.hidden, es = int64_t(element_size(m.dtype));
  void *space = m.weight_space.unsafeGetTensorImpl()->data();
  for (int64_t l = 0; l < m.layers; ++l) {
    const int64_t in = l == 0 ? m.input : H;
    const int64_t expect[4][2] = {{4 * H, in}, {4 * H, H}, {4 * H, 1}, {4 * H, 1}};
    Tensor w[4];
    for (int k = 0; k < 4; ++k) {
      const Tensor &src = weights[size_t(4 * l + k)];
      GFY_CHECK(src.defined() && src.is_cuda() && src.scalar_type() == m.dtype, "CudnnLstm::set_weights: weight ",
                4 * l + k, " must be a ", to_string(m.dtype), " CUDA tensor");
      GFY_CHECK(src.numel() == expect[k][0] * expect[k][1], "CudnnLstm::set_weights: layer ", l, " tensor ", k,
                " has ", src.numel(), " elements, expected ", expect[k][0] * expect[k][1]);
      w[k] = src.contiguous();
    }
    for (int id = 0; id < 8; ++id) {
      void *maddr = nullptr, *baddr = nullptr;
      CUDNN_CHECK(cudnnGetRNNWeightParams(m.handle, m.rnn, int32_t(l), m.weight_bytes, space, id, m.mdesc, &maddr,
                                          m.bdesc, &baddr));
      const int gate = id % 4;
      const Tensor &mat = id < 4 ? w[0] : w[1];
      const Tensor &bias = id < 4 ? w[2] : w[3];
      const int64_t cols = id < 4 ? in : H;
      const char *msrc = static_cast<const char *>(mat.unsafeGetTensorImpl()->data()) + gate * H * cols * es;
      const char *bsrc = static_cast<const char *>(bias.unsafeGetTensorImpl()->data()) + gate * H * es;
      GFY_CHECK(maddr != nullptr && baddr != nullptr, "CudnnLstm: cuDNN reported no weight for layer ", l, " id ", id);
      CUDA_CHECK(cudaMemcpyAsync(maddr, msrc, size_t(H * cols * es), cudaMemcpyDeviceToDevice, detail::current_stream()));
      CUDA_CHECK(cudaMemcpyAsync(baddr, bsrc, size_t(H * es), cudaMemcpyDeviceToDevice, detail::current_stream()));
    }
  }
  m.weights_set = true;
}

std::tuple<Tensor, Tensor, Tensor> CudnnLstm::forward(const Tensor &x, const Tensor &h0, const Tensor &c0) {
  Impl &m = *impl_;
  GFY_CHECK(m.weights_set, "CudnnLstm::forward: call set_weights first");
  GFY_CHECK(x.defined() && x.is_cuda() && x.dim() == 3 && x.scalar_type() == m.dtype,
            "CudnnLstm::forward: x must be a 3-d ", to_string(m.dtype), " CUDA tensor");
  GFY_CHECK(x.size(2) == m.input, "CudnnLstm::forward: x has ", x.size(2), " features, expected ", m.input);
  const int64_t T = m.opt.batch_first ? x.size(1) : x.size(0), B = m.opt.batch_first ? x.size(0) : x.size(1);
  const Tensor xc = m.opt.batch_first ? x.transpose(0, 1).contiguous() : x.contiguous(); // (T, B, in)
  m.prepare(T, B);
  CUDNN_CHECK(cudnnSetStream(m.handle, detail::current_stream()));
  const TensorOptions o = TensorOptions().dtype(m.dtype).device(kCUDA);
  Tensor y = gfy::empty({T, B, m.hidden}, o);
  Tensor hn = gfy::empty({m.layers, B, m.hidden}, o), cn = gfy::empty({m.layers, B, m.hidden}, o);
  auto state = [&](const Tensor &s, const char *name) -> Tensor {
    if (!s.defined()) return Tensor();
    GFY_CHECK(s.is_cuda() && s.scalar_type() == m.dtype && s.dim() == 3 && s.size(0) == m.layers && s.size(1) == B &&
                  s.size(2) == m.hidden,
              "CudnnLstm::forward: ", name, " must be a (", m.layers, ", ", B, ", ", m.hidden, ") ", to_string(m.dtype),
              " CUDA tensor");
    return s.contiguous();
  };
  const Tensor hx = state(h0, "h0"), cx = state(c0, "c0");
  auto ptr = [](const Tensor &t) -> void * { return t.defined() ? t.unsafeGetTensorImpl()->data() : nullptr; };
  CUDNN_CHECK(cudnnRNNForward(m.handle, m.rnn, CUDNN_FWD_MODE_INFERENCE,
                              static_cast<const int32_t *>(ptr(m.seq_lengths)), m.xdesc, ptr(xc), m.ydesc, ptr(y),
                              m.hdesc, ptr(hx), ptr(hn), m.hdesc, ptr(cx), ptr(cn), m.weight_bytes, ptr(m.weight_space),
                              size_t(m.workspace.numel()), ptr(m.workspace), 0, nullptr));
  return {m.opt.batch_first ? y.transpose(0, 1) : y, hn, cn};
}

#else // no cuDNN in this build

bool has_cudnn() { return false; }
struct CudnnLstm::Impl {};
namespace {
[[noreturn]] void no_cudnn() {
  throw Error("the cuDNN LSTM is not available: this build of the graphify runtime found no cuDNN (cudnn.h and "
              "libcudnn) when it was configured");
}
} // namespace
CudnnLstm::CudnnLstm(int64_t, int64_t, int64_t, ScalarType, LstmOptions) { no_cudnn(); }
CudnnLstm::~CudnnLstm() = default;
void CudnnLstm::set_weights(const std::vector<Tensor> &) { no_cudnn(); }
std::tuple<Tensor, Tensor, Tensor> CudnnLstm::forward(const Tensor &, const Tensor &, const Tensor &) { no_cudnn(); }

#endif

std::tuple<Tensor, Tensor, Tensor> lstm_forward(const Tensor &x, const std::vector<Tensor> &weights, int64_t num_layers,
                                                const Tensor &h0, const Tensor &c0, LstmOptions options) {
  GFY_CHECK(x.defined() && x.dim() == 3, "lstm_forward: x must be a 3-d tensor");
  GFY_CHECK(!weights.empty() && weights[1].defined() && weights[1].dim() == 2, "lstm_forward: weights[1] must be w_hh");
  const int64_t hidden = weights[1].size(1);
  CudnnLstm lstm(x.size(2), hidden, num_layers, x.scalar_type(), options);
  lstm.set_weights(weights);
  return lstm.forward(x, h0, c0);
}

} // namespace gfy::cuda
