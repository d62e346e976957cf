// The lattice: taint joins as a union, mask-ness and emptied containers as an intersection,
// unreachable is bottom.
#include "lib/TaintState.h"

#include <gtest/gtest.h>

namespace graphify {
namespace {

TEST(TaintState, JoinKeepsTaintFromEitherSide) {
  TracedOrigin O;
  int A = 0, B = 0;
  TaintState L, R;
  L.Values[{&A, nullptr}] = {&O, 0, nullptr};
  R.Values[{&B, nullptr}] = {nullptr, 2, nullptr};
  TaintState J = joinStates(L, R);
  EXPECT_TRUE(J.get({&A, nullptr}).tainted());
  EXPECT_EQ(J.get({&B, nullptr}).Params, 2u);
}

TEST(TaintState, MasksMustHoldOnBothSides) {
  int M = 0, N = 0;
  TaintState L, R;
  L.Masks.insert(&M);
  L.Masks.insert(&N);
  R.Masks.insert(&M);
  TaintState J = joinStates(L, R);
  EXPECT_TRUE(J.Masks.contains(&M));
  EXPECT_FALSE(J.Masks.contains(&N));
}

TEST(TaintState, UnreachableIsBottom) {
  TracedOrigin O;
  int A = 0;
  TaintState Dead;
  Dead.Unreachable = true;
  Dead.Values[{&A, nullptr}] = {&O, 0, nullptr};
  TaintState Live;
  TaintState J = joinStates(Dead, Live);
  EXPECT_FALSE(J.get({&A, nullptr}).tainted());
  EXPECT_FALSE(J.Unreachable);
}

TEST(TaintState, SameFactsIgnoresWhichOriginExplainsTaint) {
  TracedOrigin O1, O2;
  int A = 0;
  TaintState L, R;
  L.Values[{&A, nullptr}] = {&O1, 0, nullptr};
  R.Values[{&A, nullptr}] = {&O2, 0, nullptr};
  EXPECT_TRUE(sameFacts(L, R));
  R.Values.clear();
  EXPECT_FALSE(sameFacts(L, R));
}

TEST(TaintState, EmptiedHoldsOnlyWhereBothPathsEmptiedAfterTheSameExits) {
  TracedOrigin Exit;
  int Kept = 0, OneSide = 0, OtherExits = 0;
  TaintState L, R;
  L.Emptied[&Kept] = {};
  R.Emptied[&Kept] = {};
  L.Emptied[&OneSide] = {};
  L.Emptied[&OtherExits] = {};
  R.Emptied[&OtherExits] = {TaintValue{&Exit, 0, nullptr}, TaintValue{}};
  TaintState J = joinStates(L, R);
  EXPECT_TRUE(J.Emptied.contains(&Kept));
  EXPECT_FALSE(J.Emptied.contains(&OneSide));    // the other path still holds what it had
  EXPECT_FALSE(J.Emptied.contains(&OtherExits)); // count from the declaration instead
  EXPECT_FALSE(sameFacts(L, R));
  EXPECT_TRUE(sameFacts(J, joinStates(J, J)));
}

} // namespace
} // namespace graphify
