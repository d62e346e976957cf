// The translation unit that builds the precompiled <torch/torch.h> the seed models' compile
// tests reuse (tests/differential/CMakeLists.txt, models.compile.libtorch.*). Nothing else.
