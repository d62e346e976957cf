// if-return-to-where: code the preprocessor made. A fix is computed from one configuration's
// AST and spliced into the unpreprocessed file: a directive in the replaced code, a macro the
// rewrite would take apart, or one that expands to nothing is refused with its name and line.
#include "mock_torch.h"

#define POSITIVE(t) (t.sum().item<float>() > 0)
#define TRACE(t)

torch::Tensor macro_condition(torch::Tensor x) {
  if (POSITIVE(x)) // EXPECT-NO-FIX: ^the code it replaces reads tensor values inside the macro 'POSITIVE' \(line 10\), which a rewrite cannot take apart; expand it by hand first$
    return x;
  return -x;
}

torch::Tensor directive_in_branch(torch::Tensor x) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the code it replaces holds the preprocessor directive '#ifdef' \(line 17\): a rewrite made for one configuration would drop the others$
#ifdef GRAPHIFY_TEST_DOUBLE
    return x * 3;
#else
    return x * 2;
#endif
  }
  return -x;
}

torch::Tensor macro_expanding_to_nothing(torch::Tensor x) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the code it replaces uses the macro 'TRACE' \(line 28\), which the rewrite cannot see through$
    TRACE(x);
    return x * 2;
  }
  return -x;
}

#define PLUS_ONE + 1

torch::Tensor split_expansion(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the code it replaces splits the expansion of the macro 'PLUS_ONE' \(line 38\), whose pieces have no source text of their own$
    return x PLUS_ONE;
  return -x;
}
