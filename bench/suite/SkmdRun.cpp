//===- SkmdRun.cpp - A Problem through SKMD's public API ------------------===//
#include "SkmdRun.h"

namespace skmd::bench {

namespace {

std::string failed(const std::string &What, skmd_status S) {
  return What + ": " + skmd_status_name(S) + ": " + skmd_last_error();
}

} // namespace

struct SkmdProblemRun::State {
  const Problem *P = nullptr;
  Outputs *Out = nullptr;
  skmd_context Ctx = nullptr;
  skmd_program Program = nullptr;
  std::vector<skmd_kernel> Kernels;  // per launch
  std::vector<skmd_buffer> Buffers;  // per problem buffer
  std::vector<void *> Host;          // what each buffer wraps
  std::vector<void *> Pinned;        // skmd_alloc_host blocks to free

  ~State() {
    for (skmd_kernel K : Kernels)
      skmd_release_kernel(K);
    for (skmd_buffer B : Buffers)
      skmd_release_buffer(B);
    for (void *Block : Pinned)
      skmd_free_host(Ctx, Block);
    skmd_release_program(Program);
  }
};

SkmdProblemRun::SkmdProblemRun(std::unique_ptr<State> S) : S(std::move(S)) {}
SkmdProblemRun::~SkmdProblemRun() = default;

std::unique_ptr<SkmdProblemRun> SkmdProblemRun::prepare(skmd_context Ctx,
                                                        const std::string &BundlePath,
                                                        const Problem &P, bool Pinned,
                                                        Outputs &Out, std::string &Why) {
  auto S = std::make_unique<State>();
  S->P = &P;
  S->Out = &Out;
  S->Ctx = Ctx;
  if (skmd_status E = skmd_load_bundle(Ctx, BundlePath.c_str(), &S->Program)) {
    Why = failed("loading " + BundlePath, E);
    return nullptr;
  }
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (B.IsOutput && Out[I].bytes() != B.Bytes)
      Out[I] = HostArray(B.Bytes);
    void *Host = B.IsOutput ? Out[I].data() : const_cast<uint8_t *>(B.Input.data());
    if (Pinned) {
      void *Block = skmd_alloc_host(Ctx, std::max<size_t>(B.Bytes, 1));
      if (!Block) {
        Why = "skmd_alloc_host of " + std::to_string(B.Bytes) + " bytes failed";
        return nullptr;
      }
      S->Pinned.push_back(Block);
      if (!B.IsOutput)
        B.initialContents(Block);
      Host = Block;
    }
    S->Host.push_back(Host);
    skmd_buffer Buf = nullptr;
    if (skmd_status E = skmd_wrap_buffer(Ctx, Host, B.Bytes, &Buf)) {
      Why = failed("skmd_wrap_buffer " + std::to_string(I), E);
      return nullptr;
    }
    S->Buffers.push_back(Buf);
  }
  for (const Launch &L : P.Launches) {
    skmd_kernel K = nullptr;
    if (skmd_status E = skmd_get_kernel(S->Program, L.Kernel.c_str(), &K)) {
      Why = failed("skmd_get_kernel", E);
      return nullptr;
    }
    S->Kernels.push_back(K);
    if (skmd_kernel_arg_count(K) != L.Args.size()) {
      Why = L.Kernel + " takes " + std::to_string(skmd_kernel_arg_count(K)) +
            " arguments in the bundle; the application passes " + std::to_string(L.Args.size());
      return nullptr;
    }
    for (size_t I = 0; I < L.Args.size(); ++I) {
      const Arg &A = L.Args[I];
      unsigned Index = unsigned(I);
      skmd_status E = A.K == Arg::BufferArg ? skmd_set_arg_buffer(K, Index, S->Buffers[A.Index])
                      : A.K == Arg::ValueArg
                          ? skmd_set_arg_scalar(K, Index, A.Value.data(), A.Size)
                          : skmd_set_arg_local(K, Index, A.Size);
      if (E) {
        Why = failed(L.Kernel + ": argument " + std::to_string(I), E);
        return nullptr;
      }
    }
  }
  return std::unique_ptr<SkmdProblemRun>(new SkmdProblemRun(std::move(S)));
}

std::string SkmdProblemRun::reset() {
  const Problem &P = *S->P;
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    if (P.Buffers[I].IsOutput)
      P.Buffers[I].initialContents(S->Host[I]);
  }
  return "";
}

std::string SkmdProblemRun::run(const std::string &Plan) {
  const Problem &P = *S->P;
  Reports.clear();
  for (size_t I = 0; I < P.Launches.size(); ++I) {
    const Launch &L = P.Launches[I];
    skmd_launch_report R;
    if (skmd_status E = skmd_launch(S->Kernels[I], L.Dims, nullptr, L.Global.data(),
                                    L.Local.data(), Plan.c_str(), &R))
      return failed(L.Kernel + " (plan " + Plan + ")", E);
    SkmdLaunchSummary &Sum = Reports.emplace_back();
    Sum.Kernel = L.Kernel;
    Sum.Plan = R.plan;
    Sum.TotalGroups = R.total_groups;
    Sum.TotalMs = R.total_ms;
    Sum.PlanMs = R.plan_ms;
    Sum.PredictedMs = R.predicted_ms;
    Sum.EstimatedMs = R.estimated_ms;
    Sum.BoundMs = R.bound_ms;
    for (size_t J = 0; J < R.piece_count; ++J) {
      const skmd_piece_report &Piece = R.pieces[J];
      SkmdPiece &Mine = Sum.Pieces.emplace_back();
      Mine.Device = Piece.device;
      Mine.Groups = Piece.group_count;
      Mine.InputMs = Piece.input_ms;
      Mine.KernelMs = Piece.kernel_ms;
      Mine.OutputMs = Piece.output_ms;
      Mine.MergeMs = Piece.merge_ms;
      Mine.BytesIn = Piece.bytes_in;
      Mine.BytesOut = Piece.bytes_out;
      Mine.PredictedInputMs = Piece.predicted_input_ms;
      Mine.PredictedKernelMs = Piece.predicted_kernel_ms;
      Mine.PredictedOutputMs = Piece.predicted_output_ms;
      Mine.PredictedMergeMs = Piece.predicted_merge_ms;
      Mine.Chunks = Piece.chunks;
    }
  }
  return "";
}

std::string SkmdProblemRun::collect() {
  const Problem &P = *S->P;
  for (size_t I = 0; I < P.Buffers.size(); ++I)
    if (P.Buffers[I].IsOutput && S->Host[I] != (*S->Out)[I].data())
      std::memcpy((*S->Out)[I].data(), S->Host[I], P.Buffers[I].Bytes);
  return "";
}

} // namespace skmd::bench
