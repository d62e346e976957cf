#!/usr/bin/env python3
"""Seed-001 stacked LSTM LM in PyTorch on the GPU: the peer the graphify CUDA runtime is measured against.

    python3 bench/python/lstm_lm.py [--batches 50] [--warmup 10] [--json PATH] [--tf32] [--variants LIST]

The model is bench/lstm_lm/lstm_lm.cpp's, op for op: vocab 10001, embedding 128, 3 LSTM layers of
hidden 256, projection to the vocabulary and log_softmax; sequence 50, batch 128; forward only.
Weights and token ids come from the same fixed formulas, so the checksums are comparable with the
C++ benchmark's (a fast wrong answer shows up). Variants, each 10 warm-up + 50 timed batches,
every batch ending in a host read of one output element (which synchronises the stream):

  1. fine-grained eager: the LSTM cell from matmul/sigmoid/tanh, as in the seed;
  2. the same forward captured once with torch.cuda.graph and replayed;
  3. nn.LSTM (cuDNN) with the same weights;
  4. nn.LSTM (cuDNN) captured with torch.cuda.graph and replayed;
  5. (--variants compile) the fine-grained forward under torch.compile(mode="reduce-overhead");
  6. (--variants train-eager,train-graph) the entire training step (forward, nll_loss, backward,
     SGD with momentum 0.9, lr 0.1, as bench/lstm_lm --mode train): eager, and captured whole with
     torch.cuda.graph after three warm-up steps on a side stream (PyTorch's documented pattern).

--variants takes a comma-separated list of eager, graph, cudnn, cudnn-graph, compile,
train-eager, train-graph (default: the first four). A variant that fails is left out of the
table with its error on stderr; the others still run.

Prints the seed's table (wall time per batch, elapsed time, sequences per second) and the ratios
measured in this run; --json writes the numbers. Exits with status 2 and a one-line reason when
PyTorch or a CUDA device is missing.
"""
import argparse
import json
import math
import platform
import sys
import time

VOCAB, EMBED, LAYERS, HIDDEN, SEQ, BATCH = 10001, 128, 3, 256, 50, 128


def formula(shape, scale, salt, torch):
    """A scrambled sawtooth in [-scale, scale]: bench/lstm_lm/lstm_lm.cpp's formula_tensor."""
    n = math.prod(shape)
    i = torch.arange(n, dtype=torch.int64)
    k = (i * 7919 + salt * 104729) % 10007
    v = (k.to(torch.float64) / 10006.0 * 2.0 - 1.0) * scale
    return v.to(torch.float32).reshape(shape)


def batch_targets(b, torch):
    """Targets of batch b: (batch * seq,), as the C++ benchmark's batch_targets."""
    return batch_ids(b + 1000, torch).reshape(-1)


def batch_ids(b, torch):
    """Token ids of batch b: (batch, seq) in [0, vocab), as the C++ benchmark's batch_ids."""
    i = torch.arange(BATCH * SEQ, dtype=torch.int64)
    return ((i * 31 + b * 977 + 13) % VOCAB).reshape(BATCH, SEQ)


class FineGrainedLm:
    """The seed's LSTM LM from fine-grained ops (one matmul pair and four pointwise gates per step)."""

    def __init__(self, torch, device):
        self.torch = torch
        s = 1.0 / math.sqrt(HIDDEN)
        self.embedding = formula((VOCAB, EMBED), 1.0, 1, torch).to(device)
        self.w_i, self.w_h, self.b = [], [], []
        for l in range(LAYERS):
            inp = EMBED if l == 0 else HIDDEN
            self.w_i.append(formula((inp, 4 * HIDDEN), s, 10 + l, torch).to(device))
            self.w_h.append(formula((HIDDEN, 4 * HIDDEN), s, 20 + l, torch).to(device))
            self.b.append(formula((4 * HIDDEN,), s, 30 + l, torch).to(device))
        self.w_out = formula((HIDDEN, VOCAB), s, 40, torch).to(device)
        self.b_out = formula((VOCAB,), s, 41, torch).to(device)

    def forward(self, ids):
        torch = self.torch
        B, T = ids.shape
        x = torch.nn.functional.embedding(ids, self.embedding)  # x: (B, T, E)
        for l in range(LAYERS):
            h = torch.zeros(B, HIDDEN, device=x.device)  # h: (B, H)
            c = torch.zeros(B, HIDDEN, device=x.device)  # c: (B, H)
            hs = []
            for t in range(T):
                gates = x[:, t] @ self.w_i[l] + h @ self.w_h[l] + self.b[l]  # (B, 4H)
                i, f, g, o = gates.chunk(4, 1)
                c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
                h = torch.sigmoid(o) * torch.tanh(c)
                hs.append(h)
            x = torch.stack(hs, 1)  # x: (B, T, H)
        logits = x.reshape(B * T, HIDDEN) @ self.w_out + self.b_out  # (B*T, V)
        return torch.log_softmax(logits, 1)


class CudnnLm(FineGrainedLm):
    """The same model with nn.LSTM (cuDNN). LibTorch keeps W_ih as (4H, in): the transpose of w_i."""

    def __init__(self, torch, device):
        super().__init__(torch, device)
        self.lstm = torch.nn.LSTM(EMBED, HIDDEN, num_layers=LAYERS, batch_first=True).to(device)
        with torch.no_grad():
            for l in range(LAYERS):
                getattr(self.lstm, f"weight_ih_l{l}").copy_(self.w_i[l].t())
                getattr(self.lstm, f"weight_hh_l{l}").copy_(self.w_h[l].t())
                getattr(self.lstm, f"bias_ih_l{l}").copy_(self.b[l])
                getattr(self.lstm, f"bias_hh_l{l}").zero_()
        self.lstm.flatten_parameters()

    def forward(self, ids):
        torch = self.torch
        B, T = ids.shape
        x = torch.nn.functional.embedding(ids, self.embedding)
        y, _ = self.lstm(x)  # y: (B, T, H)
        logits = y.reshape(B * T, HIDDEN) @ self.w_out + self.b_out
        return torch.log_softmax(logits, 1)


def probe(out):
    """One output element on the host: the batch's sync point and its checksum term."""
    return float(out[0, 1].item())


def time_variant(name, step, args, torch):
    for k in range(args.warmup):
        step(k)
    torch.cuda.synchronize()
    checksum = 0.0
    t0 = time.perf_counter()
    for k in range(args.batches):
        checksum += step(args.warmup + k)
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    wall = elapsed / args.batches
    return {"name": name, "wall_s": wall, "elapsed_s": elapsed, "seq_per_s": BATCH / wall, "checksum": checksum}


def graphed(model, static_ids, torch):
    """Captures model.forward on static_ids once with torch.cuda.graph; returns (graph, output)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # warm-up on a side stream, as torch.cuda.graph's documentation asks
            model.forward(static_ids)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = model.forward(static_ids)
    return g, out


class Trainer:
    """The fine-grained model's parameters trained with SGD (momentum 0.9), as the C++ benchmark."""

    def __init__(self, torch, device, lr=0.1):
        self.torch = torch
        self.model = FineGrainedLm(torch, device)
        m = self.model
        self.params = [m.embedding, *m.w_i, *m.w_h, *m.b, m.w_out, m.b_out]
        for p in self.params:
            p.requires_grad_(True)
        self.opt = torch.optim.SGD(self.params, lr=lr, momentum=0.9)

    def step(self, ids, targets, set_to_none=False):
        self.opt.zero_grad(set_to_none=set_to_none)
        loss = self.torch.nn.functional.nll_loss(self.model.forward(ids), targets)
        loss.backward()
        self.opt.step()
        return loss


VARIANTS = ["eager", "graph", "cudnn", "cudnn-graph", "compile", "train-eager", "train-graph"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batches", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("--tf32", action="store_true", help="allow TF32 in matmul and cuDNN (PyTorch allows it in cuDNN by default)")
    ap.add_argument("--variants", default="eager,graph,cudnn,cudnn-graph",
                    help="comma-separated: " + ", ".join(VARIANTS))
    args = ap.parse_args()
    chosen = [v for v in args.variants.split(",") if v]
    unknown = [v for v in chosen if v not in VARIANTS]
    if unknown:
        ap.error(f"unknown variant(s) {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")

    try:
        import torch
    except ImportError:
        print("lstm_lm.py: PyTorch is not installed (pip install torch); nothing to measure", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("lstm_lm.py: no CUDA device visible to PyTorch (torch.cuda.is_available() is False); "
              "this benchmark measures the GPU only", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.allow_tf32 = args.tf32
    device = torch.device("cuda")
    torch.set_grad_enabled(False)

    host_ids = [batch_ids(b, torch).pin_memory() for b in range(args.warmup + args.batches)]
    host_targets = [batch_targets(b, torch).pin_memory() for b in range(args.warmup + args.batches)]
    static_ids = torch.empty(BATCH, SEQ, dtype=torch.int64, device=device)
    static_targets = torch.empty(BATCH * SEQ, dtype=torch.int64, device=device)

    fine = FineGrainedLm(torch, device)
    cudnn = CudnnLm(torch, device)
    results = []

    def eager_step(model):
        def step(b):
            static_ids.copy_(host_ids[b], non_blocking=True)
            return probe(model.forward(static_ids))
        return step

    def graph_step(model):
        g, out = graphed(model, static_ids, torch)

        def step(b):
            static_ids.copy_(host_ids[b], non_blocking=True)
            g.replay()
            return probe(out)
        return step

    def compiled_step():
        forward = torch.compile(fine.forward, mode="reduce-overhead")

        def step(b):
            static_ids.copy_(host_ids[b], non_blocking=True)
            return probe(forward(static_ids))
        return step

    def train_eager_step():
        t = Trainer(torch, device)

        def step(b):
            static_ids.copy_(host_ids[b], non_blocking=True)
            static_targets.copy_(host_targets[b], non_blocking=True)
            with torch.enable_grad():
                return float(t.step(static_ids, static_targets).item())
        return step

    def train_graph_step():
        t = Trainer(torch, device)
        static_ids.copy_(host_ids[0])
        static_targets.copy_(host_targets[0])
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.enable_grad(), torch.cuda.stream(side):
            for _ in range(3):
                t.step(static_ids, static_targets, set_to_none=True)
        torch.cuda.current_stream().wait_stream(side)
        g = torch.cuda.CUDAGraph()
        t.opt.zero_grad(set_to_none=True)
        with torch.enable_grad(), torch.cuda.graph(g):
            loss = t.model.forward(static_ids)
            loss = torch.nn.functional.nll_loss(loss, static_targets)
            loss.backward()
            t.opt.step()

        def step(b):
            static_ids.copy_(host_ids[b], non_blocking=True)
            static_targets.copy_(host_targets[b], non_blocking=True)
            g.replay()
            return float(loss.item())
        return step

    table = {
        "eager": ("PyTorch fine-grained eager (forward-only)", lambda: eager_step(fine)),
        "graph": ("PyTorch CUDA-graph replay (forward-only)", lambda: graph_step(fine)),
        "cudnn": ("PyTorch nn.LSTM cuDNN (forward-only)", lambda: eager_step(cudnn)),
        "cudnn-graph": ("PyTorch nn.LSTM cuDNN + graph (forward-only)", lambda: graph_step(cudnn)),
        "compile": ("PyTorch torch.compile reduce-overhead (forward-only)", compiled_step),
        "train-eager": ("PyTorch eager (entire-training)", train_eager_step),
        "train-graph": ("PyTorch CUDA-graph replay (entire-training)", train_graph_step),
    }
    for v in chosen:
        name, make = table[v]
        try:
            results.append(time_variant(name, make(), args, torch))
        except Exception as e:  # a variant that cannot run is reported, the others still are
            print(f"lstm_lm.py: variant '{v}' left out: {type(e).__name__}: {e}", file=sys.stderr)

    gpu = torch.cuda.get_device_name(0)
    print(f"# seed-001 stacked LSTM LM, PyTorch {torch.__version__}, {gpu}, CUDA {torch.version.cuda}, "
          f"cuDNN {torch.backends.cudnn.version()}, TF32 {'on' if args.tf32 else 'off'}")
    print(f"# vocab {VOCAB}, embedding {EMBED}, {LAYERS} layers, hidden {HIDDEN}, seq {SEQ}, batch {BATCH}; "
          f"{args.warmup} warm-up + {args.batches} timed batches\n")
    print(f"| {'':<44} | {'Wall Time (s)':<13} | {'Elapsed Time (s)':<16} | {'Sequence per Second':<19} |")
    print(f"|:{'-' * 45}|:{'-' * 14}|:{'-' * 17}|:{'-' * 20}|")
    for r in results:
        print(f"| {r['name']:<44} | {r['wall_s']:<13.4f} | {r['elapsed_s']:<16.4f} | {r['seq_per_s']:<19.4f} |")
    wall = {r["name"]: r["wall_s"] for r in results}

    def ratio(label, num, den):
        if table[num][0] in wall and table[den][0] in wall:
            a, b = wall[table[num][0]], wall[table[den][0]]
            print(f"{label}: {a / b:.3f} ({b / a:.2f}x speed-up)")
    print()
    ratio("CUDA-graph replay / eager wall time", "graph", "eager")
    ratio("cuDNN / eager wall time", "cudnn", "eager")
    ratio("cuDNN + graph / cuDNN wall time", "cudnn-graph", "cudnn")
    ratio("torch.compile / eager wall time", "compile", "eager")
    ratio("captured training / eager training wall time", "train-graph", "train-eager")
    for r in results:
        print(f"checksum {r['name']}: {r['checksum']:.9g}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({
                "library": f"pytorch {torch.__version__}",
                "device": gpu,
                "cuda": torch.version.cuda,
                "cudnn": torch.backends.cudnn.version(),
                "tf32": args.tf32,
                "host": platform.node(),
                "config": {"vocab": VOCAB, "embedding": EMBED, "layers": LAYERS, "hidden": HIDDEN, "seq": SEQ,
                           "batch": BATCH, "warmup": args.warmup, "batches": args.batches},
                "variants": results,
            }, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
