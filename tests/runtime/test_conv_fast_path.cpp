// The CPU conv2d kernel runs one of two fast paths, tiles (src/cpu/ConvTiled.cpp) or im2col +
// GEMM; the reference is the definition as plain loops (src/cpu/ConvKernels.h). Each fast path
// is run here against the reference on the same calls, over the cases where their index
// arithmetic differs from the loops': strides, padding, dilation, groups (including depthwise),
// the 1x1 shortcut that skips im2col, a window that sees only padding at the border, an empty
// batch, and for the tiles, partial tiles (output positions spanning rows and ending inside a
// tile, channel counts that are not a multiple of the block of rows, rows that end inside a
// vector), a wide reduction, and both of their operands (panels, the padded image). They run at
// the kernels' level in use (cpu::kernels()); ctest runs this binary again at every other level
// the CPU has (runtime.isa.* in CMakeLists.txt).
#include "TestUtil.h"

#include "cpu/KernelTable.h"

#include <cmath>

using namespace gfy;
using namespace gfy::testing;

namespace {

struct ConvCase {
  std::vector<int64_t> x, w; ///< input (N, C, H, W), weight (O, C / groups, kH, kW)
  std::vector<int64_t> stride, padding, dilation;
  int64_t groups;
  bool bias;
};

/// An OpCall as the front-end builds it, with the output sized by LibTorch's formula.
OpCall make_call(const ConvCase &cc, ScalarType dt) {
  Tensor x = randn(cc.x, dtype(dt)), w = randn(cc.w, dtype(dt));
  Tensor b = cc.bias ? randn({cc.w[0]}, dtype(dt)) : Tensor();
  auto out = [&](size_t i) {
    return (cc.x[i + 2] + 2 * cc.padding[i] - cc.dilation[i] * (cc.w[i + 2] - 1) - 1) / cc.stride[i] + 1;
  };
  OpCall c;
  c.op = OpId::conv2d;
  c.in = {x, w, b};
  c.out = {empty({cc.x[0], cc.w[0], out(0), out(1)}, dtype(dt))};
  c.ints = {cc.stride[0], cc.stride[1], cc.padding[0], cc.padding[1], cc.dilation[0], cc.dilation[1]};
  c.k = cc.groups;
  return c;
}

class ConvFastPath : public ::testing::TestWithParam<ConvCase> {};

/// Runs `fast_path` and the reference loops on the same call, for float and double.
void expect_matches_reference(const ConvCase &cc, void (*fast_path)(const OpCall &)) {
  for (ScalarType dt : {kFloat, kDouble}) {
    manual_seed(11);
    OpCall fast = make_call(cc, dt);
    OpCall ref = fast;
    ref.out = {empty(fast.out[0].sizes(), dtype(dt))};
    fast.out[0].fill_(std::nan("")); // every output element must be written
    fast_path(fast);
    cpu::kernels().conv2d_reference(ref);
    ASSERT_EQ(shape(fast.out[0]), shape(ref.out[0]));
    expect_near(fast.out[0], values(ref.out[0]), dt == kFloat ? 1e-4 : 1e-10);
  }
}

TEST_P(ConvFastPath, Im2colMatchesReferenceLoops) {
  expect_matches_reference(GetParam(), cpu::kernels().conv2d_im2col);
}
TEST_P(ConvFastPath, TilesMatchReferenceLoops) {
  expect_matches_reference(GetParam(), [](const OpCall &c) { cpu::kernels().conv2d_tiled(c, {}); });
}

// The epilogue a captured graph fuses into the tiles (graph/FuseConvEpilogues.cpp): out =
// relu(conv * scale + shift) per output channel, against the reference loops followed by the
// same map as tensor ops.
TEST_P(ConvFastPath, TilesApplyTheirEpilogue) {
  for (ScalarType dt : {kFloat, kDouble})
    for (bool relu : {false, true}) {
      manual_seed(12);
      OpCall fast = make_call(GetParam(), dt);
      OpCall ref = fast;
      ref.out = {empty(fast.out[0].sizes(), dtype(dt))};
      const int64_t O = fast.out[0].size(1);
      Tensor scale = randn({O}, dtype(dt)), shift = randn({O}, dtype(dt));
      fast.out[0].fill_(std::nan(""));
      cpu::kernels().conv2d_tiled(fast, cpu::ConvEpilogue{scale.data_ptr(), shift.data_ptr(), relu});
      cpu::kernels().conv2d_reference(ref);
      Tensor expected = ref.out[0] * scale.view({1, O, 1, 1}) + shift.view({1, O, 1, 1});
      if (relu) expected = gfy::relu(expected);
      expect_near(fast.out[0], values(expected), dt == kFloat ? 1e-4 : 1e-10);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Conv2d, ConvFastPath,
    ::testing::Values(ConvCase{{2, 3, 7, 6}, {4, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // plain
                      ConvCase{{1, 4, 9, 8}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {1, 2}, 2, true},   // everything at once
                      ConvCase{{2, 6, 5, 5}, {6, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 6, false},  // depthwise
                      ConvCase{{2, 5, 4, 3}, {7, 5, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // 1x1: no im2col
                      ConvCase{{1, 2, 6, 6}, {3, 2, 1, 1}, {2, 2}, {0, 0}, {1, 1}, 1, false},  // strided 1x1
                      ConvCase{{1, 1, 2, 2}, {2, 1, 3, 3}, {3, 3}, {2, 2}, {1, 1}, 1, true},   // border windows
                      ConvCase{{3, 2, 10, 1}, {4, 2, 4, 1}, {3, 1}, {2, 0}, {2, 1}, 1, true},  // 1-d shaped
                      ConvCase{{0, 3, 5, 5}, {2, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // empty batch
                      ConvCase{{2, 5, 13, 11}, {19, 5, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, true}, // partial tiles, rows
                      ConvCase{{1, 8, 9, 40}, {16, 4, 3, 5}, {2, 3}, {2, 1}, {1, 1}, 2, false}, // strided, wide rows
                      ConvCase{{1, 70, 6, 6}, {9, 70, 3, 3}, {1, 1}, {1, 1}, {2, 2}, 1, true},  // K = 630, dilated
                      ConvCase{{2, 24, 8, 8}, {32, 24, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true}, // 1x1, full tiles
                      // Rows of at least a vector: the tiles read the zero-padded image in place.
                      ConvCase{{2, 6, 7, 37}, {10, 3, 3, 3}, {2, 1}, {1, 2}, {2, 1}, 2, true},  // partial vectors
                      ConvCase{{1, 4, 5, 64}, {16, 4, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, false}, // 1x1, whole rows
                      ConvCase{{3, 3, 4, 20}, {8, 3, 3, 3}, {1, 1}, {0, 1}, {1, 1}, 1, true},   // last tile half used
                      // Strided rows of at least a vector: the padded rows split into phases.
                      ConvCase{{2, 4, 9, 70}, {6, 4, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 1, true},   // stride 2, Wp even
                      ConvCase{{1, 3, 6, 69}, {5, 3, 3, 3}, {1, 2}, {0, 1}, {1, 1}, 1, false},  // stride 2, Wp odd
                      ConvCase{{1, 6, 8, 80}, {4, 3, 3, 4}, {2, 3}, {1, 2}, {1, 2}, 2, true},   // stride 3, dilated
                      ConvCase{{2, 8, 6, 66}, {8, 8, 1, 1}, {2, 2}, {0, 0}, {1, 1}, 1, false})); // 1x1 stride 2

} // namespace
