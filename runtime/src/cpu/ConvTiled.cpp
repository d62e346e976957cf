// conv2d as tiles: the CPU fast path for convolutions whose groups have several output channels.
//
// im2col + BLAS (ConvKernels.cpp) writes every window of the image into one large column matrix,
// then OpenBLAS copies that matrix once more into its packed panels before multiplying. For the
// narrow layers of a CNN (16 to 64 output channels) each column element is used only O times, so
// those two passes over memory cost more than the arithmetic. Here the output is cut into tiles
// of kTileVectors vectors of output positions of one image and group, and a register-blocked
// product multiplies each tile's windows by kTileRows output channels at a time. Where output
// rows are at least a vector wide, the windows are read in place from one zero-padded copy of the
// image (its rows split into stride phases, so every tap of a vector is a contiguous load);
// narrower rows get a small im2col panel per tile instead. The accumulators go from registers to
// the output, through the epilogue a captured graph may fuse in (ConvEpilogue). Tiles are
// independent, so they are spread over the intra-op pool (taken as threads come free) rather
// than over OpenBLAS's threads.
//
// Invariant: the result is the reference's sum (ConvKernels.cpp) in another order; every tile,
// including the partial ones at the end of an image or of a group's channels, computes a full
// tile from zero-padded operands and stores only its valid lanes and rows.
#include "BatchNormAffine.h"
#include "ConvKernels.h"
#include "Loops.h"
#include "Parallel.h"

#include <graphify/core/Functions.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

// The widest vector of the level this file is compiled for (IsaRegion.h), as a GCC/Clang vector
// extension (one register), and how many tile rows keep the accumulators plus the operands
// within the register file: 8 x 2 vectors of AVX-512's 32 registers, 4 x 2 of AVX2's 16.
constexpr int kVectorBytes = GFY_CPU_ISA_VECTOR_BYTES;
constexpr int kTileRows = kVectorBytes == 64 ? 8 : 4;
constexpr int kTileVectors = 2; ///< vectors of output positions per tile row

template <class T> struct VecOf;
template <> struct VecOf<float> { typedef float type __attribute__((vector_size(kVectorBytes))); };
template <> struct VecOf<double> { typedef double type __attribute__((vector_size(kVectorBytes))); };
template <class T> using Vec = typename VecOf<T>::type;
template <class T> constexpr int64_t kLanes = kVectorBytes / int64_t(sizeof(T));
/// Output positions per tile: 32 floats or 16 doubles with AVX-512.
template <class T> constexpr int64_t kTileCols = kLanes<T> * kTileVectors;

/// Where a tile's product finds its right operand: vector v of row k is the kLanes values at
/// src[v] + off[k] (unaligned). A panel has src[v] = panel + v * kLanes and off[k] = k * kTileCols;
/// a padded image has src[v] at the first tap of vector v's output positions and off[k] = the
/// tap's distance from there.
template <class T> struct Operand {
  const T *src[kTileVectors];
  const int64_t *off; ///< (K)
};

/// Where each vector of a tile belongs in an output plane: lanes [0, count[v]) of vector v are
/// positions pos[v] ... of (oH * oW); the other lanes are discarded.
struct TileSpots {
  int64_t pos[kTileVectors];
  int64_t count[kTileVectors];
};

/// y rows [0, rows) of planes of P positions, at the tile's spots:
///   y[r, spots] = epilogue((wp (K, kTileRows)^T @ b (K, kTileCols))[r] + bias[r])
/// The accumulators live in registers across the whole K loop: each operand vector is loaded
/// once per k and each weight, broadcast, feeds kTileVectors multiply-adds; they go from there
/// straight to the output, whole vectors at a time where all their lanes are valid.
/// Per output row of a block: its bias and epilogue (ConvEpilogue), each null when absent.
template <class T> struct RowsEpilogue {
  const T *bias, *scale, *shift;
  bool relu;
};

template <class T>
void tile_product(int64_t K, const T *wp, const Operand<T> &b, const TileSpots &at, int64_t rows,
                  const RowsEpilogue<T> &e, int64_t P, T *y) {
  using V = Vec<T>;
  V acc[kTileRows][kTileVectors] = {};
  for (int64_t k = 0; k < K; ++k) {
    V bk[kTileVectors];
    for (int v = 0; v < kTileVectors; ++v) std::memcpy(&bk[v], b.src[v] + b.off[k], sizeof(V));
    for (int r = 0; r < kTileRows; ++r) {
      const T w = wp[k * kTileRows + r];
      for (int v = 0; v < kTileVectors; ++v) acc[r][v] += w * bk[v];
    }
  }
  for (int r = 0; r < kTileRows; ++r) {
    if (r == rows) break;
    const T add = e.bias ? e.bias[r] : T(0);
    for (int v = 0; v < kTileVectors; ++v) {
      V out = acc[r][v] + add;
      if (e.scale) out = out * e.scale[r] + e.shift[r]; // batch_norm_kernel's x * scale + shift
      if (e.relu) out = (out > V{} || out != out) ? out : V{}; // relu_fn, lane by lane
      T *dst = y + r * P + at.pos[v];
      if (at.count[v] == kLanes<T>) {
        std::memcpy(dst, &out, sizeof(V));
      } else {
        T lanes[kLanes<T>];
        std::memcpy(lanes, &out, sizeof(V));
        std::copy(lanes, lanes + at.count[v], dst);
      }
    }
  }
}

/// The output positions ow in [begin, end) whose tap offset `off` (iw = ow * stride + off) lands
/// inside [0, width): an interval (empty when lo == hi), since iw grows with ow.
std::pair<int64_t, int64_t> inside(int64_t begin, int64_t end, int64_t stride, int64_t off, int64_t width) {
  const int64_t lo = std::clamp(off >= 0 ? 0 : (-off + stride - 1) / stride, begin, end);
  const int64_t hi = width - 1 - off < 0 ? begin : (width - 1 - off) / stride + 1;
  return {lo, std::clamp(hi, lo, end)};
}

/// panel (Cg * kH * kW, kTileCols): row (ci, kh, kw), column j holds the input element that tap
/// meets at output position p0 + j of the image xg (Cg, H, W); 0 in the padding and past `count`.
template <class T> void fill_panel(const T *xg, const ConvGeometry &g, int64_t Cg, int64_t p0, int64_t count, T *panel) {
  constexpr int64_t cols = kTileCols<T>;
  for (int64_t ci = 0; ci < Cg; ++ci)
    for (int64_t kh = 0; kh < g.kH; ++kh)
      for (int64_t kw = 0; kw < g.kW; ++kw) {
        T *row = panel + ((ci * g.kH + kh) * g.kW + kw) * cols;
        const int64_t off = kw * g.dW - g.pW;
        // The tile's positions cover one or more output rows; walk them one row segment at a time.
        for (int64_t j = 0; j < count;) {
          const int64_t p = p0 + j, oh = p / g.oW, ow0 = p % g.oW, run = std::min(count - j, g.oW - ow0);
          const int64_t ih = oh * g.sH - g.pH + kh * g.dH;
          T *out = row + j; // out[i] is this segment's output position ow0 + i
          if (ih < 0 || ih >= g.H) {
            std::fill(out, out + run, T(0));
          } else {
            const T *xr = xg + (ci * g.H + ih) * g.W;
            const auto [lo, hi] = inside(ow0, ow0 + run, g.sW, off, g.W);
            std::fill(out, out + (lo - ow0), T(0));
            if (g.sW == 1) std::copy(xr + lo + off, xr + hi + off, out + (lo - ow0));
            else
              for (int64_t ow = lo; ow < hi; ++ow) out[ow - ow0] = xr[ow * g.sW + off];
            std::fill(out + (hi - ow0), out + run, T(0));
          }
          j += run;
        }
        std::fill(row + count, row + cols, T(0));
      }
}

/// wp (groups, row blocks, K, kTileRows): w's rows in blocks of kTileRows, transposed within a
/// block so that the product reads one block's weights for one k as consecutive values; rows past
/// Og are zero.
template <class T> void pack_weights(const T *w, const ConvGeometry &g, int64_t Og, int64_t K, std::vector<T> &wp) {
  const int64_t blocks = (Og + kTileRows - 1) / kTileRows;
  // Written in the packed order, each value once (no zero fill first): these are rewritten on
  // every call, as the weights may have changed since the last.
  if (wp.size() < size_t(g.groups * blocks * K * kTileRows)) wp.resize(size_t(g.groups * blocks * K * kTileRows));
  for (int64_t grp = 0; grp < g.groups; ++grp)
    for (int64_t blk = 0; blk < blocks; ++blk) {
      T *dst = wp.data() + (grp * blocks + blk) * K * kTileRows; // dst: (K, kTileRows)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t r = 0; r < kTileRows; ++r) {
          const int64_t o = blk * kTileRows + r; // output channel grp * Og + o, if o < Og
          dst[k * kTileRows + r] = o < Og ? w[(grp * Og + o) * K + k] : T(0);
        }
    }
}

/// Runs f(t0, t1) over [0, tiles) in small ranges that the intra-op threads take as they come
/// free, rather than one fixed share each: on a machine shared with other work a thread that is
/// descheduled for a while does not hold up the whole convolution, the others take its tiles.
/// Tiles write disjoint outputs, so the order does not change the result.
template <class F> void for_tiles(int64_t tiles, const F &f) {
  constexpr int64_t kTake = 4;
  std::atomic<int64_t> next{0};
  parallel_for(std::min<int64_t>(get_num_threads(), (tiles + kTake - 1) / kTake), 1, [&](int64_t, int64_t) {
    for (int64_t t0; (t0 = next.fetch_add(kTake, std::memory_order_relaxed)) < tiles;)
      f(t0, std::min(t0 + kTake, tiles));
  });
}

/// What one conv2d call's tiles share: its geometry and operands, the packed weights.
template <class T> struct TiledConv {
  ConvGeometry g;
  int64_t Cg, Og, K, P, blocks;
  const T *x, *wp, *bias, *scale, *shift;
  bool relu;
  T *y;

  /// The products and stores of one tile of image n, group grp, whose operand is b.
  void run_tile(int64_t n, int64_t grp, const Operand<T> &b, const TileSpots &at) const {
    T *yg = y + (n * g.O + grp * Og) * P; // yg: (Og, P)
    for (int64_t blk = 0; blk < blocks; ++blk) {
      const int64_t o0 = blk * kTileRows;
      const int64_t o = grp * Og + o0; // the block's first output channel
      const RowsEpilogue<T> e{bias ? bias + o : nullptr, scale ? scale + o : nullptr, shift ? shift + o : nullptr,
                              relu};
      tile_product(K, wp + (grp * blocks + blk) * K * kTileRows, b, at, std::min<int64_t>(kTileRows, Og - o0), e, P,
                   yg + o0 * P);
    }
  }
};

/// Every vector of kLanes output positions within one output row reads, for each tap, kLanes
/// consecutive values of the zero-padded input, once each padded row is split into its sW phases
/// (columns w with w % sW == phase, in order): output ow meets padded column ow * sW + kw * dW,
/// which is entry ow + kw * dW / sW of phase kw * dW % sW. With stride 1 a row is its only phase.
/// The padded copy is the only pass over memory besides the output; the product reads it in place.
template <class T> void tiles_from_padded_image(const TiledConv<T> &cv) {
  const ConvGeometry &g = cv.g;
  constexpr int64_t lanes = kLanes<T>;
  const int64_t Hp = g.H + 2 * g.pH, Wp = g.W + 2 * g.pW;
  const int64_t Wq = (Wp + g.sW - 1) / g.sW, row_len = g.sW * Wq, plane = Hp * row_len;
  // xp: (N, C, Hp, sW, Wq) and `lanes` values of slack, which the last row's partial vector may
  // read; entries past Wp (when sW does not divide it) are zero like the padding.
  // (A thread_local named inside a lambda is the running thread's own: workers get pointers.)
  thread_local std::vector<T> xp_buffer;
  xp_buffer.resize(size_t(g.N * g.C * plane + lanes));
  T *xp = xp_buffer.data();
  parallel_for(g.N * g.C, std::max<int64_t>(1, 4096 / plane), [&](int64_t c0, int64_t c1) {
    for (int64_t nc = c0; nc < c1; ++nc) {
      T *dst = xp + nc * plane;
      const T *src = cv.x + nc * g.H * g.W;
      std::fill(dst, dst + g.pH * row_len, T(0));
      for (int64_t h = 0; h < g.H; ++h) {
        T *row = dst + (g.pH + h) * row_len;
        const T *xr = src + h * g.W;
        if (g.sW == 1) {
          std::fill(row, row + g.pW, T(0));
          std::copy(xr, xr + g.W, row + g.pW);
          std::fill(row + g.pW + g.W, row + row_len, T(0));
          continue;
        }
        for (int64_t phase = 0; phase < g.sW; ++phase) {
          // Entry j of this phase is input column j * sW + phase - pW; those inside are [lo, hi).
          T *out = row + phase * Wq;
          const int64_t shift = phase - g.pW;
          const auto [lo, hi] = inside(0, Wq, g.sW, shift, g.W);
          std::fill(out, out + lo, T(0));
          for (int64_t j = lo; j < hi; ++j) out[j] = xr[j * g.sW + shift];
          std::fill(out + hi, out + Wq, T(0));
        }
      }
      std::fill(dst + (g.pH + g.H) * row_len, dst + plane, T(0));
    }
  });
  std::fill(xp_buffer.end() - lanes, xp_buffer.end(), T(0));
  // off (K): tap (ci, kh, kw)'s distance from the window's first tap in xp.
  thread_local std::vector<int64_t> taps_buffer;
  taps_buffer.resize(size_t(cv.K));
  int64_t *taps = taps_buffer.data();
  for (int64_t ci = 0, k = 0; ci < cv.Cg; ++ci)
    for (int64_t kh = 0; kh < g.kH; ++kh)
      for (int64_t kw = 0; kw < g.kW; ++kw)
        taps[k++] = ci * plane + kh * g.dH * row_len + kw * g.dW % g.sW * Wq + kw * g.dW / g.sW;
  const int64_t per_row = (g.oW + lanes - 1) / lanes, vectors = g.oH * per_row;
  const int64_t tiles = (vectors + kTileVectors - 1) / kTileVectors;
  for_tiles(g.N * g.groups * tiles, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t n = t / (g.groups * tiles), grp = t / tiles % g.groups;
      const T *image = xp + (n * g.C + grp * cv.Cg) * plane; // image: (Cg, Hp, sW, Wq)
      Operand<T> b{{}, taps};
      TileSpots at{};
      for (int64_t v = 0; v < kTileVectors; ++v) {
        const int64_t q = t % tiles * kTileVectors + v; // the image's q-th vector
        if (q >= vectors) {
          b.src[v] = image; // read, never stored
          continue;
        }
        const int64_t oh = q / per_row, ow0 = q % per_row * lanes;
        b.src[v] = image + oh * g.sH * row_len + ow0;
        at.pos[v] = oh * g.oW + ow0;
        at.count[v] = std::min(lanes, g.oW - ow0);
      }
      cv.run_tile(n, grp, b, at);
    }
  });
}

/// Output rows narrower than a vector: each tile's kTileCols consecutive output positions (across
/// rows) get their im2col panel, built in the layout the product reads.
template <class T> void tiles_from_panels(const TiledConv<T> &cv) {
  const ConvGeometry &g = cv.g;
  constexpr int64_t cols = kTileCols<T>;
  const int64_t tiles = (cv.P + cols - 1) / cols;
  thread_local std::vector<int64_t> rows_buffer;
  rows_buffer.resize(size_t(cv.K));
  int64_t *rows = rows_buffer.data();
  for (int64_t k = 0; k < cv.K; ++k) rows[k] = k * cols;
  for_tiles(g.N * g.groups * tiles, [&](int64_t t0, int64_t t1) {
    thread_local std::vector<T> panel;
    panel.resize(size_t(cv.K * cols));
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t n = t / (g.groups * tiles), grp = t / tiles % g.groups, p0 = t % tiles * cols;
      const int64_t count = std::min(cols, cv.P - p0);
      fill_panel(cv.x + (n * g.C + grp * cv.Cg) * g.H * g.W, g, cv.Cg, p0, count, panel.data());
      Operand<T> b{{}, rows};
      TileSpots at{};
      for (int64_t v = 0; v < kTileVectors; ++v) {
        b.src[v] = panel.data() + v * kLanes<T>;
        at.pos[v] = p0 + v * kLanes<T>;
        at.count[v] = std::clamp<int64_t>(count - v * kLanes<T>, 0, kLanes<T>);
      }
      cv.run_tile(n, grp, b, at);
    }
  });
}

template <class T> void tiled(const OpCall &c, const ConvEpilogue &epilogue) {
  const ConvGeometry g = conv_geometry(c);
  TiledConv<T> cv{};
  cv.g = g;
  cv.Cg = g.C / g.groups;
  cv.Og = g.O / g.groups;
  cv.P = g.oH * g.oW;
  cv.scale = static_cast<const T *>(epilogue.scale);
  cv.shift = static_cast<const T *>(epilogue.shift);
  cv.relu = epilogue.relu;
  cv.K = cv.Cg * g.kH * g.kW;
  cv.blocks = (cv.Og + kTileRows - 1) / kTileRows;
  if (g.N * g.O * cv.P == 0) return;
  cv.x = reinterpret_cast<const T *>(I(c.in[0]).data());
  cv.bias = c.in[2].defined() ? reinterpret_cast<const T *>(I(c.in[2]).data()) : nullptr;
  cv.y = reinterpret_cast<T *>(I(c.out[0]).data());
  // Host scratch, not tensors: replay must not allocate tensors, and these only grow to the
  // largest convolution the thread has run.
  thread_local std::vector<T> wp;
  pack_weights(reinterpret_cast<const T *>(I(c.in[1]).data()), g, cv.Og, cv.K, wp);
  cv.wp = wp.data();
  // Rows narrower than a vector would leave most lanes of the padded image's vectors unused.
  if (g.oW >= kLanes<T>) tiles_from_padded_image(cv);
  else tiles_from_panels(cv);
}

} // namespace

// Below half a block of rows per group (depthwise convolutions) most of each product would
// multiply padding; those keep im2col.
bool conv2d_tiled_suits(const ConvGeometry &g) { return g.O / g.groups >= kTileRows / 2; }

void conv2d_tiled(const OpCall &c, const ConvEpilogue &epilogue) {
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() { tiled<T>(c, epilogue); });
}

void conv2d_batch_norm(const OpCall &c, double eps, bool relu) {
  dispatch_float(I(c.out[0]).dtype, [&]<class T>() {
    const int64_t C = I(c.out[0]).sizes[1];
    thread_local std::vector<T> affine; // scale (C) then shift (C); host scratch, as in tiled()
    affine.resize(size_t(2 * C));
    auto param = [&](size_t i) {
      const Tensor &t = c.in[i];
      return t.defined() ? reinterpret_cast<const T *>(I(t).data()) : nullptr;
    };
    batch_norm_affine<T>(C, param(3), param(4), param(5), param(6), eps, affine.data(), affine.data() + C);
    tiled<T>(c, ConvEpilogue{affine.data(), affine.data() + C, relu});
  });
}
GFY_CPU_ISA_END

} // namespace gfy::cpu
