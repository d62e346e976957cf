#pragma once
/// \file
/// The taint interpreter of one body (a function, or a lambda in the state it captures): it walks
/// statements in order, joins structured control flow explicitly and runs loops to a fixpoint
/// (TaintAnalysis.cpp says why not a CFG). Its parts, one concept per file:
/// BodyInterpreter.cpp (entry points, origins, storage), BodyInterpreterTensors.cpp (masks,
/// value-dependent shapes, host residency), BodyInterpreterExprs.cpp (expressions, calls,
/// lambdas), BodyInterpreterContainers.cpp (host containers, writes through pointers, callee
/// summaries), BodyInterpreterStmts.cpp (statements, branches and loops).
///
/// \code
///   BodyInterpreter I(Impl, FD, TaintState());
///   I.seedParameters(); I.seedFields(); I.runConstructorInits(); I.runBody(FD->getBody());
///   Impl.Summaries[taint::key(FD)].absorb(I.summarize());
/// \endcode

#include "TaintProgram.h"

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/TaintFacts.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphify::taint {

/// `E` without the copies and moves that construct it from a value (`return output;` of a local
/// list is a move construction of it).
const clang::Expr *withoutCopy(const clang::Expr *E);

class BodyInterpreter {public:
  BodyInterpreter(TaintAnalysis::Impl &A, const clang::FunctionDecl *FD, TaintState Init)
      : A(A), Facts(A.Facts), Api(A.Api), FD(FD), S(std::move(Init)) {
    InRegion = A.IsRegion(FD);
  }

  /// Seeds parameter i with its call-site taint and the summary bit i.
  void seedParameters();

  void runConstructorInits();

  void runBody(const clang::Stmt *Body);

  /// The tensor fields of `*this` start as every function of the TU leaves them. A field's
  /// in-class initialiser is what a constructor that does not name the field leaves in it.
  void seedFields();

  FunctionSummary summarize() const;

  /// The state where the body ends (joined over returns), for by-reference captures.
  const TaintState &exitState() const;

  TaintState S;

private:
  TaintAnalysis::Impl &A;
  TaintFacts &Facts;
  const ApiResolver &Api;
  const clang::FunctionDecl *FD;
  bool InRegion = false;
  TaintState Exit = TaintState::unreachable();
  /// The tensor fields of `*this` this body rebinds (what it leaves in them is recorded at exit).
  llvm::DenseSet<const clang::FieldDecl *> WrittenFields;
  TaintValue Ret;
  TaintValue RetShape;
  /// The length of the returned host container, when the function returns one.
  TaintValue RetSize;
  /// The elements and the length of host containers returned by calls evaluated here, each as
  /// the callee leaves it (the expression's own taint joins both).
  llvm::DenseMap<const clang::Expr *, std::pair<TaintValue, TaintValue>> ReturnedContainers;
  /// The conditions of the enclosing branches and loops, outermost first (structured control;
  /// the exits that outlive their construct are in the state: LoopExits, FunctionExits).
  std::vector<TaintValue> Control;
  /// Where a local container was declared: how deep in Control, and the exits taken before.
  /// Conditions that enclose the declaration too do not make its length vary.
  struct Declaration {
    size_t Depth = 0;
    TaintValue LoopExits, FunctionExits;
  };
  llvm::DenseMap<const clang::VarDecl *, Declaration> Declared;
  /// The depths of Control that hold a loop's trip count. Inside the body a counter follows
  /// the iteration; the loop's data-dependent trip count reaches it when the loop ends.
  llvm::SmallDenseSet<size_t, 4> LoopDepths;
  /// Per enclosing loop, innermost last: the local host scalars its body writes (`++n`, `n += w`,
  /// `best = i`).
  std::vector<llvm::SmallDenseSet<TaintKey, 4>> WrittenInLoop;
  /// Per enclosing loop: the data-dependent conditions of the `break`s that leave it (part of its
  /// trip count).
  std::vector<TaintValue> BreakConditions;
  /// Per enclosing loop: the tensor variables it grows onto themselves (`ys = torch::cat({ys, tok},
  /// 1)`), with the dimension: after a loop whose trip count follows the data, their size does.
  std::vector<llvm::SmallDenseMap<const clang::VarDecl *, bool, 2>> GrownInLoop;
  /// Per enclosing loop: its condition and increment. The variables they read step the loop
  /// (`i` of `for (i = 0; i < 8; ++i)`); the loop's own finding covers them.
  std::vector<llvm::SmallVector<const clang::Stmt *, 2>> LoopHeads;
  /// Per enclosing try block, innermost last: when its accesses raise (the value-dependent
  /// shapes, lengths and positions they depend on). Its handlers run under that condition.
  std::vector<TaintValue> RaiseConditions;
  bool SawReturn = false;
  bool AllReturnsMask = true;
  bool AllReturnsHost = true;

  struct JumpTargets {
    std::vector<TaintState> Breaks, Continues;
  };
  std::vector<JumpTargets> Jumps;

  // --- origins ---------------------------------------------------------------------------

  const TracedOrigin *extend(const TracedOrigin *O, clang::SourceLocation Loc, const clang::Stmt *At,
                             const std::string &Msg);

  TaintValue step(TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At, const std::string &Msg);

  TracedOrigin *source(const ApiCall &C, const ApiEntry &Entry);

  /// A host value reaches the graph here (tensor math, a branch, a loop, a size, a return).
  void use(TaintValue V);

  // --- storage -----------------------------------------------------------------------------

  TaintValue readVar(const clang::VarDecl *VD);

  TaintValue fieldTaint(const clang::FieldDecl *F);

  /// How many elements a container field holds: data-dependent when it grew under a
  /// data-dependent condition (or by a data-dependent count) anywhere in the TU.
  TaintValue fieldSize(const clang::FieldDecl *F);

  /// Whether control reaches here depending on tensor data: the enclosing conditions, and the
  /// data-dependent exits taken earlier on this path.
  TaintValue reached() const;

  /// The same, counting only what happened since `D`: a container declared inside a branch or
  /// a loop body has the same length on every path through it.
  TaintValue reachedSince(const Declaration &D, bool SkipLoops = false) const;

  /// Whether control reaches here depending on tensor data, since local `VD` was declared (the
  /// exits: since it was last emptied on every path here, `v.clear()`). `SkipLoops`: as the
  /// body of each enclosing loop sees it, whatever the loop's trip count.
  TaintValue reachedSince(const clang::VarDecl *VD, bool SkipLoops = false) const;

  /// The conditions under which local container `VD` is replaced as a whole here: those since its
  /// declaration but the trip counts of enclosing loops, which reach it when the loop ends.
  TaintValue replacedUnder(const clang::VarDecl *VD);

  /// Writes variable `VD`; `Note` replaces the default "assigned to 'v' here" step (empty: the
  /// caller already recorded the step).
  void setVar(const clang::VarDecl *VD, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At, bool Strong,
              std::optional<std::string> Note = std::nullopt);

  void writeKey(TaintKey K, TaintValue V, bool Strong);

  /// `v[i] = s`, `v.at(i) = s`, `v[i].score = s`: the elements of local `VD` may now hold `V`;
  /// how many elements there are does not change.
  void storeElement(const clang::VarDecl *VD, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At);

  /// The container field `F` may now hold a different number of elements, depending on `V`.
  void growField(const clang::FieldDecl *F, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At);

  /// Writes field `F` of `Base` (null: *this). `Whole`: the field is replaced, not one of its
  /// elements, so a container's number of elements comes with the value.
  void writeField(const clang::VarDecl *Base, const clang::FieldDecl *F, TaintValue V, clang::SourceLocation Loc,
                  const clang::Stmt *At, bool Strong, bool Whole, const char *Verb = "stored in field");

  /// Stores a host value into the lvalue `LHS`. Whole variables and fields are overwritten
  /// (a clean value clears their taint); elements of containers and pointees are joined.
  void assign(const clang::Expr *LHS, TaintValue V, const clang::Stmt *At);

  // --- masks -------------------------------------------------------------------------------

  bool isMask(const clang::Expr *E);

  /// The dimension `E` names when it is a constant (`1`, `-1`), through conversions.
  std::optional<int64_t> constantDim(const clang::Expr *E);
  /// Whether dimension `Dim` (an expression) of a shape may follow the values: a constant one
  /// that is not among the shape's followed dimensions does not; an unknown or negative one may.
  bool followsDim(const TaintValue &Shape, const clang::Expr *Dim);
  /// The local host container a condition tests for emptiness (`v.empty()`, `!v.empty()`), and
  /// whether the test is negated; null when it is no such test.
  std::pair<const clang::VarDecl *, bool> emptinessTest(const clang::Expr *Cond);
  /// Whether `E` is the constant dimension 0.
  bool isLeadingDim(const clang::Expr *E);
  clang::ASTContext &Ctx();

  /// The selection that makes `C` a value-dependent shape: a `dynamic_output_shape` entry, or
  /// indexing with a mask.
  const ApiEntry *selectionEntry(const ApiCall &C);

  /// Whether the shape of `E` (a tensor, or a value holding tensors) may follow tensor values,
  /// and why: a selection (a `dynamic_output_shape` op, indexing with a mask), anything
  /// computed from one (views, casts, arithmetic, `index_select` by a selection's indices, a
  /// `cat` with a selected part), a local, field or container holding one, a function returning
  /// one. A tensor parameter's shape is its bit (and the shape passed in at a region's call
  /// site); so is a tensor sized by a host value read from tensor data (sizedByData). Full
  /// reductions, rank queries and factories built from untainted host sizes do not carry it.
  TaintValue dynamicShape(const clang::Expr *E, unsigned Depth = 0);

  /// Whether the call picks one position of self's dimension 0, dropping it: select(0, i)
  /// (drops_dim with a position), or an integer first index of a bool_mask_index entry (`x[i]`,
  /// `x.index({i, j})`).
  bool dropsLeadingDim(const ApiCall &C);

  /// Whether an operand other than self whose leading dimension follows the data gives the
  /// result's leading dimension: elementwise ops, indexing by a tensor, rows gathered along
  /// dimension 0 (gathers_rows with a constant 0).
  bool keepsOperandLeading(const ApiCall &C);

  /// The shape of a library call that moves, adds or replaces dimensions in a way the packs
  /// describe, with the followed dimensions moved along: a transpose (swaps_dims), rows gathered
  /// along a constant dimension (gathers_rows), a stack or concatenation whose parts' number
  /// follows the data (joins_inputs of a host container whose length does). None when the call
  /// is none of these or a dimension is not a constant.
  std::optional<TaintValue> movedShape(const ApiCall &C, unsigned Depth);

  /// The tensor whose memory a host view shows (`t` of `auto a = t.accessor<float, 2>()`, at `a`
  /// or at the call), or null when `View` is none.
  const clang::Expr *viewedTensor(const clang::Expr *View, unsigned Depth = 0);
  /// A size read through a host view (`a.size(0)`, a shape_query member of a non-tensor class):
  /// the viewed tensor's size, or a view parameter's leading size as the caller's argument has it.
  TaintValue viewedSize(const ApiCall &C, const clang::Expr *E);
  /// The leading size of the tensor a host view argument shows, when it follows the data.
  TaintValue viewedLength(const clang::Expr *Arg);

  /// The shape of a reshape whose sizes are a braced list (`sel.view({-1, 6})`, an entry tagged
  /// size_argument and same_elements) when no listed size follows tensor data: its inferred
  /// dimensions (negative constants) follow self's data, the listed ones are fixed. None when
  /// the call is no such reshape.
  std::optional<TaintValue> listedShape(const ApiCall &C, unsigned Depth);

  /// The shape a call's size arguments (`size_args` of an entry tagged size_argument:
  /// `torch::zeros({n})`, `x.view({n, -1})`, `x.narrow(0, 0, n)`) give its result where a size is
  /// a host value read from tensor data (evaluated already: its taint is in Facts). Only the
  /// leading dimension follows the data when the sizes are a braced list whose first element
  /// alone is tainted.
  TaintValue sizedByData(const ApiCall &C, const clang::Expr *At);

  /// The host container an argument passes its elements from (`keep` of `torch::tensor(keep)`,
  /// through the conversions to ArrayRef or TensorDataContainer), or null.
  static const clang::Expr *hostData(const clang::Expr *Arg);

  /// The number of elements of the host data a call builds a tensor from (`length_args`:
  /// `torch::tensor(keep)` has keep.size() elements), where it follows tensor data. `Record`:
  /// the evaluation of the call, which records it for the size check and as a use.
  TaintValue dataLength(const ApiCall &C, const clang::Expr *At, bool Record);

  const TracedOrigin *fieldShape(const clang::FieldDecl *F);

  /// Host scalar fields this body writes, itself or through its calls (FunctionSummary::WritesFields).
  llvm::SmallVector<const clang::FieldDecl *, 4> FieldsWritten;
  void noteFieldWritten(const clang::FieldDecl *F);
  /// A call of a body that writes fields, made when a condition that follows tensor data holds:
  /// those fields now follow it (an implicit flow through the call).
  void fieldsWrittenUnderControl(const ApiCall &C, const FunctionSummary &Sum);

  /// The key under which the shape of `ME`'s field is tracked along the flow, in
  /// TaintState::DynamicShapes, when ME's object is a local struct of this function that nothing
  /// but member accesses and a return reach (`Out out; out.boxes = cat(..); f(out.boxes);
  /// out.boxes = out.boxes.index_select(0, keep);`); null otherwise, and the field's shape is the
  /// TU-wide one (BodyInterpreterLocalFields.cpp).
  const void *localFieldKey(const clang::MemberExpr *ME);
  bool tracksFieldsLocally(const clang::VarDecl *VD);
  llvm::DenseMap<const clang::VarDecl *, bool> FieldsTrackedLocally;
  std::map<std::pair<const void *, const void *>, std::unique_ptr<char>> LocalFieldKeys;

  /// Tensor fields this body rebinds, itself or through its calls, and whether it may rebind any
  /// (FunctionSummary::RebindsTensorFields).
  llvm::SmallVector<const clang::FieldDecl *, 4> TensorFieldsRebound;
  bool MayRebindAnyTensorField = false;
  void noteTensorFieldRebound(const clang::FieldDecl *F);
  /// The shape `ME` holds when it is a tensor field of *this this body rebound on every path
  /// (TaintState::ThisFieldShapes); none otherwise.
  std::optional<TaintValue> reboundThisFieldShape(const clang::MemberExpr *ME) const;
  /// `ME = value` rebinds a tensor field: of *this, tracked along the flow from here.
  void rebindThisFieldShape(const clang::MemberExpr *ME, TaintValue V);
  /// A call that may rebind fields: the rebound fields it may touch hold the TU-wide shape again.
  /// `C` is null for a call graphify cannot resolve (through a pointer, dependent): it may
  /// rebind any.
  void forgetFieldShapesCallMayRebind(const ApiCall *C);

  /// The value `Target` (a local or a field) now holds has the shape of `Value`. Locals are
  /// overwritten (`Strong`) or joined (an element stored into a container); fields are joined
  /// TU-wide.
  void setShape(const clang::Expr *Target, const clang::Expr *Value, const clang::Stmt *At, bool Strong);

  void setShapeOf(const clang::VarDecl *VD, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At,
                  bool Strong);

  /// Whether `E` is a braced list (or a TensorList built from one) of masks only.
  bool listsOnlyMasks(const clang::Expr *E, unsigned Depth = 0);

  /// Whether an argument of a conversion can choose the element type: a tensor (`to(other)`),
  /// an enumeration that has a `Bool` enumerator (a dtype), or options with a `dtype` (told by
  /// the written argument's type, before conversions, and by structure, not by name).
  bool mayNameDtype(const clang::Expr *Arg);

  bool indexHasMask(const clang::Expr *E, unsigned Depth = 0);
  /// The dimensions of the result that a boolean-mask index `Index` selects along: a mask after
  /// k slices (`x.index({Slice(), mask})`) selects along dimension k; an integer removes its
  /// dimension. Unknown items (an ellipsis, None, an index tensor) make it any dimension.
  TaintValue maskedDims(TaintValue Selection, const clang::Expr *Index);
  /// `x.index({Slice(), idx})` with no mask: a slice keeps self's dimension where it stands, an
  /// integer drops it, one index tensor (taken as a vector) puts its length there. Not followed
  /// (nullopt): several index tensors, a followed dimension of self after an index (whose rank
  /// decides where it lands), an ellipsis, None.
  std::optional<TaintValue> indexedShape(const ApiCall &C, const clang::Expr *Index, unsigned Depth);

  llvm::DenseMap<const clang::Expr *, const TracedOrigin *> DynamicSources;

  /// The tensor local `D` is given the value `Init`: whether it is a mask, whether it is in host
  /// memory.
  void rebindTensor(const clang::Decl *D, const clang::Expr *Init);

  /// Notes `VD = Value` when `Value` concatenates `VD` with more (a tensor the enclosing loop grows).
  void noteGrowth(const clang::VarDecl *VD, const clang::Expr *Value);

  /// After `Loop`, whose trip count depends on `Trip`: the tensors it grew have a value-dependent
  /// size along the dimension they grew on.
  void endGrowth(const llvm::SmallDenseMap<const clang::VarDecl *, bool, 2> &Grown, TaintValue Trip,
                 const clang::Stmt *Loop);

  // --- host residency ----------------------------------------------------------------------

  /// The call that put the tensor `E` evaluates to in pageable host memory, or null.
  const clang::Expr *hostResident(const clang::Expr *E);

  /// What the local or field of `*this` read by `Read` holds here, as this path left it (a field
  /// starts as every function of the TU leaves it).
  const clang::Expr *heldInHost(const clang::Expr *Read);

  /// Notes which tensor arguments of a call of the program's own function are in host memory
  /// here, before the call may rebind them (alwaysGivenHost).
  void noteHostArguments(const ApiCall &C, unsigned First);

  /// `host += operand` (a compound tensor operator) with an operand not known to be in host
  /// memory: on a GPU the two cannot meet, so a pipeline that runs this keeps `host` where the
  /// operand is, as far as the analysis can tell (`symbols_added += no_blank` of a model's result
  /// into a counter built by a factory given no device).
  void forgetHostIfMixed(const clang::Expr *Target, const clang::Expr *Operand);

  /// Which arm of an if the CPU device takes when its condition tests the device
  /// (`device.is_cpu()`: the then-arm; `!t.is_cuda()`: the then-arm too; tags cpu_device_test and
  /// accelerator_device_test), or nothing.
  std::optional<bool> cpuDeviceTest(const clang::Expr *Cond);

  /// After `if (!device.is_cpu()) t = t.cpu();`: a tensor the other arm leaves in host memory is
  /// in host memory on the arm the CPU device takes as well, where the code needed no copy.
  void holdCopiesOnCpuPath(TaintState &OnCpu, const TaintState &Elsewhere);

  /// The local list `List` (storedOnlyVisibly) is declared: in host memory when every tensor it
  /// starts with is (none: a null origin).
  void startListOfStores(const clang::VarDecl *List);

  /// A tensor is stored into the local list `List` here (`push_back`, `parts[i] = t`): the list
  /// stays in host memory when it was (or was empty and every store is seen: storedOnlyVisibly)
  /// and `Value` is too.
  void storeIntoList(const clang::VarDecl *List, const clang::Expr *Value);

  /// The stores of a method called on a local list (`parts.push_back(t)`), as storeIntoList.
  void noteListMethodStores(const ApiCall &C);

  /// A tensor field of `*this` is given `Value` here.
  void rebindField(const clang::FieldDecl *F, const clang::Expr *Value);

  /// Host records: a plain struct of the program's whose fields hold tensors
  /// (`struct Outputs { Tensor boxes, scores; };`), and which has no method that could rebind
  /// them. A local or parameter of such a type is in HostTensors when every tensor field of it
  /// is in pageable host memory (built from host copies, returned so by a helper, passed so by
  /// every call); `out.boxes` is then a host tensor.
  bool isTensorRecord(clang::QualType T);
  /// Whether `Callee`, defined in no unit the analysis sees, returns a tensor it can only have
  /// built in host memory (given host data, no tensor and no placement).
  bool buildsFromHostDataElsewhere(const clang::FunctionDecl *Callee);
  bool decideTensorRecord(clang::QualType T, const clang::CXXRecordDecl *RD);
  llvm::DenseMap<const clang::CXXRecordDecl *, bool> TensorRecords;
  /// The call that put every tensor of the record value `E` in host memory, or null.
  const clang::Expr *hostRecord(const clang::Expr *E);
  /// The tensor field `Target` (`out.boxes = v`) of a local host record is given `Value`.
  void rebindRecordField(const clang::MemberExpr *Target, const clang::Expr *Value);
  /// A call may rebind the fields of the records it is given by non-const reference.
  void forgetRecordsPassed(const ApiCall &C, unsigned First);
  /// `register_buffer("pe", pe_)` (the packs' module_state): the field now moves with the module,
  /// wherever the tensor it holds was made.
  void noteModuleState(const ApiCall &C);

  void noteFieldAtExit(const clang::FieldDecl *F, const clang::Expr *HostOrigin);
  /// Whether the host factory `HostOrigin` builds a tensor of no elements (`zeros({0})`).
  bool buildsNothing(const clang::Expr *HostOrigin);

  void recordFieldExits();

  /// Another method of this object may rebind the fields some function leaves off the host.
  void forgetFieldsOthersRebind();

  /// A user function taking `Tensor&` may rebind what is passed to it: a field (a method of this
  /// object may rebind any field), or a local or parameter, which then holds what the callee's
  /// summary says it leaves there (`to_tensor(img, out)` leaves `out` in host memory), resolved
  /// against the arguments as they are before the call.
  void notePassedForRebinding(const ApiCall &C, unsigned First);

  // --- expressions -------------------------------------------------------------------------

public:
  TaintValue eval(const clang::Expr *E);

private:
  TaintValue evalChildren(const clang::Stmt *E);

  TaintValue evalImpl(const clang::Expr *E);

  /// A field read as a whole: a container field also brings how many elements it holds.
  TaintValue evalMember(const clang::MemberExpr *ME);

  TaintValue evalMemberElements(const clang::MemberExpr *ME);

  TaintValue evalBinary(const clang::BinaryOperator *BO);

  TaintValue evalConditional(const clang::AbstractConditionalOperator *CO);

  TaintValue evalOverloadedAssignment(const clang::CXXOperatorCallExpr *Op);

  /// Whether `C.Args` begins with the object of an instance method's call (the callee's
  /// parameters are then matched from the second argument on).
  static bool passesObject(const ApiCall &C);
  /// Whether the keyed subscript `Subscript` (`Obj[KeyArg]`) runs only where an enclosing if has
  /// found the key in the container: it reads an element then, it does not insert one.
  bool lookedUpBefore(const clang::Expr *Subscript, const clang::Expr *Obj, const clang::Expr *KeyArg);

  TaintValue evalCall(const clang::Expr *E);

  /// The variable an argument object wraps for writing, or null: a temporary built by a
  /// constructor that takes it by non-const reference (`cv::OutputArray` made from a
  /// `std::vector<float>&` or a `cv::Mat&`), through which the callee writes its output.
  const clang::Expr *wrappedForWriting(const clang::Expr *Arg);

  /// The result of an opaque function that a selection's size reaches only inside host objects
  /// (`cv::minAreaRect(points)`, the points a cv::Mat shaped by `p.size(0)`): a struct computed
  /// from them depends on the data, but none of its members is that size any more. A size passed
  /// as a number (`std::make_pair(sel.size(0), k)`) stays one.
  TaintValue computedFromObjects(const ApiCall &C, const clang::Expr *E, llvm::ArrayRef<TaintValue> ArgV,
                                 TaintValue All);

  /// `V` without the mark of being a selection's size: a value computed from one (a struct a
  /// host library builds, a flag set when a size test holds) still follows the data, but is no
  /// count of rows to keep padded.
  TaintValue notTheSize(TaintValue V);

  /// `V` as an implicit flow (TaintOrigin::ThroughControl); a flag or a count is no selection's
  /// size unless `KeepSize` (the trip count of a loop over a selection counts its rows).
  TaintValue throughControl(TaintValue V, bool KeepSize);

  TaintValue relabel(TaintValue V, bool ThroughControl, bool KeepSize = false);

  /// A container or object now holds host data: a local (`v.push_back(s)`) or a field
  /// (`history_.push_back(s)`, `stats.values.push_back(s)`).
  void taintObject(const clang::Expr *Obj, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At);

  /// A method of a host container. A size query reads how many elements there are; an element
  /// read reads one element; a non-const method may store its arguments into the elements and
  /// change how many there are, by its count arguments (integers by value: `resize(n)`) or
  /// because it runs a data-dependent number of times. Other const methods (`begin`, `data`,
  /// `find`) see both: nullopt, the caller joins everything.
  std::optional<TaintValue> containerCall(const ApiCall &C, const clang::Expr *E, llvm::ArrayRef<TaintValue> ArgV);

  /// `v.clear()` (a call tagged empties_container): local `v` holds no elements now, and adds
  /// after this count their data-dependent exits from here. The length still follows the
  /// conditions under which the emptying runs (`if (s > t) v.clear();`). Fields keep their
  /// TU-wide facts: they are emptied and filled by any method, in any order.
  void emptyContainer(const clang::Expr *Obj, clang::SourceLocation Loc, const clang::Stmt *At);

  /// The data-dependent conditions under which a mutation of `Obj` runs here, since the
  /// container was declared (a local) or at all (a field, an element).
  TaintValue countSince(const clang::Expr *Obj);

  /// How many elements the container `Obj` holds (`ObjV`: its value as a whole).
  TaintValue sizeOf(const clang::Expr *Obj, TaintValue ObjV);
  /// Whether `E` is a shape query's list (`x.sizes()`, `x.strides()`): as many elements as the
  /// tensor has dimensions, which no data changes, whatever sizes it holds.
  bool isRankLong(const clang::Expr *E) const;
  /// What a local struct, replaced or filled whole, holds: the length of its container fields.
  TaintValue wholeLocalObject(const clang::MemberExpr *ME);

  /// What the elements of the container `Obj` hold (`ObjV`: its value as a whole).
  TaintValue elementsOf(const clang::Expr *Obj, TaintValue ObjV);

  /// The container `Obj` now may hold `Stored` in its elements and a number of elements that
  /// depends on `Count`.
  void growContainer(const clang::Expr *Obj, TaintValue Stored, TaintValue Count, clang::SourceLocation Loc,
                     const clang::Stmt *At);

  /// `dets.push_back(sel)`, `boxes_.emplace_back(sel)`: a container of tensors now may hold a
  /// tensor of a value-dependent shape (an element access stores nothing).
  void noteStoredShapes(const ApiCall &C, const clang::Expr *E);

  /// The container a tensor element of it is stored into may hold `V`'s shape (joined).
  void storeShapeInto(const clang::Expr *Container, TaintValue V, clang::SourceLocation Loc, const clang::Stmt *At);

  /// The container of `E` when `E` is an element of a host container of tensors reached by an
  /// element access (`out[b]`, `out.at(b)`: a reference to the element), or null; a tensor's
  /// own `t[i]` is a view of it, not a container's element.
  const clang::Expr *containerOfElement(const clang::Expr *E);

  void assignWeak(const clang::Expr *LHS, TaintValue V, const clang::Stmt *At, clang::SourceLocation Loc,
                  std::string Note);

  /// Host data written through the pointer `Ptr` lands in the elements of the variable it points
  /// into (`buf.data()`, `&arr[0]`, `mat.data`); a container keeps its number of elements.
  void writeElementsThrough(const clang::Expr *Ptr, TaintValue V, const clang::Stmt *At, clang::SourceLocation Loc,
                            std::string Note);

  TaintValue applySummary(const ApiCall &C, const FunctionSummary &Sum,
                          llvm::ArrayRef<TaintValue> ArgV, unsigned First);

  /// The elements and the length of the host container `E` evaluates to, when they are known
  /// apart: a local container, or one returned by a function of the code.
  std::optional<std::pair<TaintValue, TaintValue>> containerParts(const clang::Expr *E);
  /// `this->field = From` for a host container or array field whose parts containerParts knows
  /// (a helper's returned image): its elements are written as any write of the field, its length
  /// or shape apart (FieldSizes), so that an image built on a tensor's memory at a configured size
  /// keeps a clean shape. False when it does not apply.
  bool setContainerField(const clang::Expr *Target, const clang::Expr *From, const clang::Stmt *At);

  // --- raising accesses in try blocks (BodyInterpreterRaises.cpp) ---------------------------

  /// A try statement: its handlers run when an access in the block raised, a branch on what
  /// that depends on (recorded for the handlers, and their writes follow it).
  void tryStatement(const clang::CXXTryStmt &Try);
  /// Joins into the innermost try block's raise condition what call `C` (`E`, its arguments'
  /// values `ArgV`) raises on: an element position out of a tensor whose shape follows the data
  /// (`sel.index({0})`, `select`, `narrow`), an element of a host container whose length does
  /// (`raises_out_of_range`: `v.at(0)`), a position read from a tensor.
  void noteRaise(const ApiCall &C, const clang::Expr *E, llvm::ArrayRef<TaintValue> ArgV);

  // --- host arrays (BodyInterpreterHostArrays.cpp) -------------------------------------------
  /// The local host array whose region of interest `E` is (`dst(roi)`, `dst(cv::Rect(...))`: a
  /// view sharing dst's pixels), or null.
  const clang::VarDecl *hostArrayViewed(const clang::Expr *E);
  /// Whether a parameter of type `Param` is a plain non-const reference to a host array (`Mat&`),
  /// which a call the packs shape (host_array_shape) only writes.
  bool isOutputArrayParam(clang::QualType Param) const;
  /// Whether a parameter of type `Param` is an output wrapper (cv::OutputArray: a class that
  /// wraps a non-const host array), whatever constructor converted the argument.
  bool writesThroughWrapper(clang::QualType Param) const;

  /// The shape of argument `Arg` when it is a host array whose parts are known (also handed
  /// over as cv::InputArray), else its whole value `Whole`.
  TaintValue shapeOfArgument(const clang::Expr *Arg, TaintValue Whole);
  /// The shape of the host arrays call `C` writes or returns, when a pack tags it
  /// host_array_shape: its shape_args (and fallback_shape_args unless every shape argument is a
  /// nonzero constant).
  std::optional<TaintValue> writtenShape(const ApiCall &C, llvm::ArrayRef<TaintValue> ArgV);
  /// A host array built by a constructor (not a copy): its elements are everything given, its
  /// shape what is given beside the pointers to its memory; recorded for containerParts.
  void noteConstructedArray(const ApiCall &C, const clang::Expr *E, llvm::ArrayRef<TaintValue> ArgV, TaintValue All);
  /// Replaces the local host array `Target` (under cv::OutputArray) with `Elements` and `Shape`;
  /// false when `Target` is not one.
  bool writeHostArray(const clang::Expr *Target, TaintValue Elements, TaintValue Shape, const clang::Stmt *At,
                      clang::SourceLocation Loc, const std::string &Note);
  /// `m.rows` of a local host array, or of an element of a local list of them (`planes[0].rows`):
  /// its shape (a pointer field, `m.data`, is not).
  std::optional<TaintValue> hostArrayField(const clang::MemberExpr *ME);

  // A list of host arrays (Api.holdsHostArrays: `cv::Mat planes[3]`, `std::vector<cv::Mat>`)
  // keeps its elements' shapes under its length key: `planes[i].rows` reads that key, what is
  // stored into an element writes it too.

  /// The local list of host arrays `Element` is an element of (`planes[i]`, `mats.at(i)`,
  /// `mats.back()`), or null.
  const clang::VarDecl *hostArrayListOf(const clang::Expr *Element);
  /// Whether the elements of `VD` have shapes of their own that its length key holds.
  bool keepsElementShapes(const clang::VarDecl *VD) const;
  /// A library call writes host arrays into the local list `Target` (`cv::split(m, planes)`
  /// through a `cv::Mat*`, or under cv::OutputArrayOfArrays) with `Elements` and `Shape`; false
  /// when `Target` is not one.
  bool writeHostArrayList(const clang::Expr *Target, TaintValue Elements, TaintValue Shape, const clang::Stmt *At,
                          clang::SourceLocation Loc, const std::string &Note);

  /// Gives the local container `VD` the value of `From` when its elements and length are known
  /// apart (`auto rows = helper(x);`); false when `From` is one value.
  bool setContainer(const clang::VarDecl *VD, const clang::Expr *From, clang::SourceLocation Loc,
                    const clang::Stmt *At);

  /// A lambda body runs later, but reads its captures as they are where it is created (by
  /// value) or as they will be (by reference): analyzing it here, in the current state, covers
  /// both for straight-line code; what it writes through reference captures is joined back.
  void analyzeLambda(const clang::LambdaExpr *LE);

  /// What a lambda's results take from what it captured (its parameters aside): a comparator
  /// or a predicate handed to an algorithm (`std::partial_sort(..., [&](a, b) { return s[a] >
  /// s[b]; })`, `std::count_if`) makes what the algorithm computes or reorders follow them.
  TaintValue capturedResult(const clang::LambdaExpr *LE);

  void analyzeLambdaBody(const clang::LambdaExpr *LE, const clang::FunctionDecl *Call, const TaintState &Init);

  // --- statements --------------------------------------------------------------------------

  void declare(const clang::VarDecl *VD);

  /// Whether `Init` builds a container from a braced list of elements (`{a, b}`, also through
  /// the std::initializer_list constructor): its length is the list's, fixed in the code.
  static bool isBracedList(const clang::Expr *Init);

  /// A local number, flag or enumerator: what counts, remembers or chooses on the host (`n` of
  /// `++n`, `found` of `found = true`, `best` of `best = i`).
  static bool isHostScalar(const clang::VarDecl *VD);

  /// A local struct of host values (`Beam b;` whose `b.width` counts): not a tensor, a container
  /// or anything holding tensors.
  bool isHostRecord(const clang::VarDecl *VD);
  /// What the fields of the local record `E` names hold, joined: a struct returned whole
  /// (`Step s; s.accepted++; ...; return s;`) carries them to its caller, which reads the
  /// result's fields as the whole value (one summary value per return).
  TaintValue recordFields(const clang::Expr *E);

  /// `++n`, `n += w`, `found = true` on a local host scalar `Target` (`Verb`: "advanced", "set"):
  /// after the data-dependent conditions around the write (since the variable was declared) it
  /// holds how often they held, or whether they did — an implicit flow. The enclosing loops'
  /// trip counts join when each loop ends (endLoop).
  TaintValue writtenUnderControl(const clang::Expr *Target, const clang::Stmt *At, const char *Verb);

  /// `mask.at<uchar>(r, c) = 255`, `keep[i] = 1` under a condition that follows tensor data: the
  /// elements of the host container or array (a local, or a parameter the caller passed) now say
  /// whether it held, as a scalar does (writtenUnderControl); its length stays.
  TaintValue elementWrittenUnderControl(const clang::Expr *Target, const clang::Stmt *At, const char *Verb);

  /// After a loop whose trip count `Trip` follows tensor data: the host scalars its body wrote
  /// that were declared before it (not those a loop head reads: stepsALoop) now depend on how
  /// often it ran.
  void endLoop(const llvm::SmallDenseSet<TaintKey, 4> &Counters, TaintValue Trip, size_t Depth,
               const clang::Stmt *Loop);

  bool stepsALoop(const clang::VarDecl *VD) const;
  /// Whether the innermost loop `VD` steps (stepsALoop) encloses the loop being walked.
  bool steppedOutside(const clang::VarDecl *VD) const;

  static bool refersTo(const clang::Stmt *S, const clang::VarDecl *VD);

  /// Evaluates the condition of `Owner` and returns what it depends on. The condition of an
  /// assertion (`assert(c)`, `TORCH_CHECK(c)`) decides nothing for the code that goes on.
  TaintValue condition(const clang::Expr *Cond, const clang::VarDecl *CondVar, const clang::Stmt *Owner);

  /// Runs a loop body to a fixpoint. `Head` evaluates the condition (and is re-run each round)
  /// and returns what the trip count depends on; `Inc` likewise. The body runs under those
  /// conditions (`Control`), and under the data-dependent exits taken in it (`LoopExits`),
  /// which end with the loop.
  template <typename HeadFn, typename BodyFn, typename IncFn>
  void loop(HeadFn Head, BodyFn Body, IncFn Inc, bool BodyFirst, const clang::Stmt *Loop,
            llvm::ArrayRef<const clang::Stmt *> HeadStmts);

  void stmt(const clang::Stmt *St);

  std::vector<const TaintState *> SwitchEntry;};

} // namespace graphify::taint
