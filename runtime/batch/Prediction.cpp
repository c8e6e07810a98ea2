//===- Prediction.cpp - A batch's timeline before it runs -----------------===//

#include "batch/Prediction.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>

namespace skmd {

std::vector<std::string> BatchMachine::deviceNames() const {
  std::vector<std::string> Names;
  for (const BatchDevice &D : Devices)
    Names.push_back(D.Name);
  return Names;
}

std::pair<int, unsigned> engineOf(const BatchMachine &M, const BatchOp &Op) {
  if (Op.What == BatchOp::Kernel)
    return Op.Device == HostSide || M.Devices[Op.Device].KernelsOnHostThread
               ? std::pair<int, unsigned>{HostSide, 0}
               : std::pair<int, unsigned>{Op.Device, 1};
  if (Op.Path.To != HostSide)
    return {Op.Path.To, 0};
  if (Op.Path.From == HostSide)
    return {HostSide, 0};
  bool OneEngine = M.Devices[Op.Path.From].CopyEngines == 1;
  return {Op.Path.From, OneEngine ? 0u : 2u};
}

std::vector<std::pair<int, unsigned>> enginesOf(const BatchMachine &M,
                                                const std::vector<BatchOp> &Ops,
                                                const std::vector<unsigned> &Order) {
  std::vector<std::pair<int, unsigned>> Engines(Ops.size());
  std::map<int, std::vector<unsigned>> OnDevice;
  for (unsigned Op : Order) {
    Engines[Op] = engineOf(M, Ops[Op]);
    if (Engines[Op].first != HostSide)
      OnDevice[Engines[Op].first].push_back(Op);
  }
  for (auto &[Device, List] : OnDevice) {
    bool Chain = true;
    for (size_t I = 1; Chain && I < List.size(); ++I) {
      const auto &After = Ops[List[I]].After;
      Chain = std::find(After.begin(), After.end(), List[I - 1]) != After.end();
    }
    if (Chain)
      for (unsigned Op : List)
        Engines[Op] = Engines[List.front()];
  }
  return Engines;
}

namespace {

Failure badOp(const std::vector<BatchOp> &Ops, size_t I,
              const std::string &What) {
  std::string Name = Ops[I].Label.empty() ? "" : " (" + Ops[I].Label + ")";
  return Failure(ErrorCode::InvalidArgument,
                 "batch operation " + std::to_string(I) + Name + ": " + What);
}

bool validDevice(const BatchMachine &M, int D) {
  return D >= 0 && size_t(D) < M.Devices.size();
}

/// A copy's cost alone: its route's, at its own rate where it has one.
LinkCost costAlone(const BatchMachine &M, const BatchOp &Op) {
  LinkCost C = *M.Routes.alone(Op.Path);
  if (Op.GBps > 0)
    C.GBps = Op.GBps;
  return C;
}

/// Its time alone: latency and bytes at its rate, or the kernel's.
double aloneMs(const BatchMachine &M, const BatchOp &Op) {
  if (Op.What == BatchOp::Kernel)
    return Op.KernelMs;
  return costAlone(M, Op).ms(Op.Bytes, 1);
}

/// \p Op's load on \p L per unit of its work (a byte copied, a ms of
/// kernel), 0 where it runs outside it.
double loadOn(const BatchMachine &M, const SharedLimit &L, const BatchOp &Op) {
  if (Op.What == BatchOp::Kernel) {
    if (Op.HostBytes > 0 && Op.KernelMs > 0) {
      const uint64_t Written = std::min(Op.HostWrittenBytes, Op.HostBytes);
      if (L.What == SharedLimit::HostMemory)
        return double(Op.HostBytes) / Op.KernelMs;
      if (L.What == SharedLimit::HostReads)
        return double(Op.HostBytes - Written) / Op.KernelMs;
      if (L.What == SharedLimit::HostWrites)
        return double(Written) / Op.KernelMs;
    }
    if (L.What == SharedLimit::HostCores)
      return Op.Device == HostSide ? 1.0 : double(M.Devices[Op.Device].HostThreads);
    return 0;
  }
  double W = 0;
  for (auto &[R, Weight] : L.Routes)
    if (R == Op.Path)
      W += Weight;
  return W;
}

/// Whether two operations run under a common limit.
bool shareALimit(const BatchMachine &M, const BatchOp &A, const BatchOp &B) {
  for (const SharedLimit &L : M.Routes.limits())
    if (loadOn(M, L, A) > 0 && loadOn(M, L, B) > 0)
      return true;
  return false;
}

} // namespace

Status checkBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops) {
  for (size_t I = 0; I < Ops.size(); ++I) {
    const BatchOp &Op = Ops[I];
    for (unsigned A : Op.After)
      if (A >= I)
        return badOp(Ops, I, "depends on operation " + std::to_string(A) +
                                    ", which is not an earlier one");
    if (Op.What == BatchOp::Kernel) {
      if (Op.Device != HostSide && !validDevice(M, Op.Device))
        return badOp(Ops, I, "runs on device " + std::to_string(Op.Device) +
                                    ", which the machine does not have");
      if (!(Op.KernelMs >= 0))
        return badOp(Ops, I, "a kernel time must be a number of ms >= 0");
      continue;
    }
    for (int Side : {Op.Path.From, Op.Path.To})
      if (Side != HostSide && !validDevice(M, Side))
        return badOp(Ops, I, "copies to or from device " + std::to_string(Side) +
                                    ", which the machine does not have");
    const LinkCost *Cost = M.Routes.alone(Op.Path);
    if (!Cost)
      return badOp(Ops, I, "no measured rate for route " +
                                  routeName(Op.Path, M.deviceNames()) +
                                  " (skmd-prof --links measures the machine's routes)");
    if (!(Op.GBps >= 0))
      return badOp(Ops, I, "a copy's own rate must be a number of GB/s >= 0");
    if (Op.Bytes && !(Cost->GBps > 0) && !(Op.GBps > 0))
      return badOp(Ops, I, "route " + routeName(Op.Path, M.deviceNames()) +
                                  " has no bandwidth");
  }
  for (const SharedLimit &L : M.Routes.limits())
    if (!(L.BytesPerMs > 0))
      return Failure(ErrorCode::InvalidArgument,
                     "limit '" + L.Name + "' must have a capacity above 0");
  return Status::success();
}

Result<Timeline> simulateBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                               const IssueOrder &Order) {
  if (Status S = checkBatch(M, Ops); !S)
    return S.error();
  const size_t N = Ops.size();
  if (Order.Order.size() != N)
    return Failure(ErrorCode::InvalidArgument, "an issue order must name every operation once");
  std::vector<int> Position(N, -1);
  for (size_t P = 0; P < N; ++P) {
    unsigned Op = Order.Order[P];
    if (Op >= N || Position[Op] != -1)
      return Failure(ErrorCode::InvalidArgument,
                     "an issue order must name every operation once");
    Position[Op] = int(P);
  }
  std::vector<std::vector<unsigned>> Waits(N);
  for (size_t I = 0; I < N; ++I)
    Waits[I] = Ops[I].After;
  for (auto [Op, Behind] : Order.Behind) {
    if (Op >= N || Behind >= N)
      return Failure(ErrorCode::InvalidArgument, "an issue order's Behind names no operation");
    Waits[Op].push_back(Behind);
  }

  const std::vector<std::pair<int, unsigned>> EngineOf = enginesOf(M, Ops, Order.Order);
  std::map<std::pair<int, unsigned>, std::deque<unsigned>> Engines;
  for (unsigned Op : Order.Order)
    Engines[EngineOf[Op]].push_back(Op);
  std::map<std::pair<int, unsigned>, bool> Busy;

  // Limits: the table's, in its order.
  const std::vector<SharedLimit> &Limits = M.Routes.limits();
  std::vector<double> Capacities;
  for (const SharedLimit &L : Limits)
    Capacities.push_back(L.BytesPerMs);
  auto loadsOf = [&](const BatchOp &Op) {
    std::vector<std::pair<unsigned, double>> Loads;
    for (size_t L = 0; L < Limits.size(); ++L)
      if (double W = loadOn(M, Limits[L], Op); W > 0)
        Loads.push_back({unsigned(L), W});
    return Loads;
  };

  enum Phase { NotStarted, Latency, Moving, Done };
  std::vector<Phase> State(N, NotStarted);
  std::vector<double> Remaining(N, 0);
  Timeline T;
  T.StartMs.assign(N, 0);
  T.EndMs.assign(N, 0);
  T.Issued = Order;
  double Now = 0;
  size_t Finished = 0;

  // Moves \p Op to its next phase that takes time, or ends it.
  std::function<void(unsigned)> advance = [&](unsigned Op) {
    const BatchOp &O = Ops[Op];
    if (State[Op] == Latency && O.What == BatchOp::Copy) {
      State[Op] = Moving;
      Remaining[Op] = double(O.Bytes);
      if (Remaining[Op] > 0)
        return;
    }
    State[Op] = Done;
    T.EndMs[Op] = Now;
    Busy[EngineOf[Op]] = false;
    ++Finished;
  };

  // When an operation whose waits are over may start: the engine's setup
  // after the batch's start, a hand-off after each wait on another engine.
  auto readyAt = [&](unsigned Op) {
    double At = M.SetupMs;
    for (unsigned W : Waits[Op])
      At = std::max(At, T.EndMs[W] + (EngineOf[W] == EngineOf[Op] ? 0 : M.HandoffMs));
    return At;
  };
  while (Finished < N) {
    // Start what can start; an operation that takes no time ends at once
    // and may let another start.
    double NextRelease = std::numeric_limits<double>::infinity();
    for (bool Started = true; Started;) {
      Started = false;
      NextRelease = std::numeric_limits<double>::infinity();
      for (auto &[Engine, Queue] : Engines) {
        if (Busy[Engine] || Queue.empty())
          continue;
        unsigned Op = Queue.front();
        bool Ready = true;
        for (unsigned W : Waits[Op])
          Ready &= State[W] == Done;
        if (!Ready)
          continue;
        if (double At = readyAt(Op); At > Now + 1e-12) {
          NextRelease = std::min(NextRelease, At);
          continue;
        }
        Queue.pop_front();
        Busy[Engine] = true;
        Started = true;
        T.StartMs[Op] = Now;
        State[Op] = Latency;
        const BatchOp &O = Ops[Op];
        Remaining[Op] =
            O.What == BatchOp::Kernel ? O.KernelMs : M.Routes.alone(O.Path)->LatencyMs;
        if (Remaining[Op] <= 0)
          advance(Op);
      }
    }
    if (Finished == N)
      break;

    // The rates until the next event.
    std::vector<unsigned> Running;
    std::vector<Flow> Flows;
    for (unsigned Op = 0; Op < N; ++Op) {
      if (State[Op] != Latency && State[Op] != Moving)
        continue;
      Running.push_back(Op);
      const BatchOp &O = Ops[Op];
      Flow F;
      if (O.What == BatchOp::Kernel) {
        F.Alone = 1;
        F.Loads = loadsOf(O);
      } else if (State[Op] == Latency) {
        F.Alone = 1; // a ms a ms, on no limit
      } else {
        F.Alone = bytesPerMs(costAlone(M, O).GBps);
        F.Loads = loadsOf(O);
        F.Share = M.Routes.share(O.Path);
      }
      Flows.push_back(std::move(F));
    }
    if (Running.empty() && std::isfinite(NextRelease)) {
      Now = NextRelease;
      continue;
    }
    if (Running.empty())
      return Failure(ErrorCode::InvalidArgument,
                     "issue order '" + Order.Name +
                         "' cannot finish: an engine's next operation waits for one "
                         "queued behind it");
    // No limit holds a flow below what it ran at alone: a CPU kernel whose
    // buffers sit in the last-level cache reads and writes faster than
    // host memory's measured rate, and its time alone says so.
    std::vector<double> Effective = Capacities;
    for (const Flow &F : Flows)
      for (auto [L, W] : F.Loads)
        Effective[L] = std::max(Effective[L], W * F.Alone);
    std::vector<double> Rates = shareRates(Flows, Effective);
    double Step = NextRelease - Now;
    for (size_t I = 0; I < Running.size(); ++I)
      if (Rates[I] > 0)
        Step = std::min(Step, Remaining[Running[I]] / Rates[I]);
    if (!std::isfinite(Step))
      return Failure(ErrorCode::InvalidArgument,
                     "the batch cannot finish: its running copies get no bandwidth");
    Now += Step;
    for (size_t I = 0; I < Running.size(); ++I) {
      unsigned Op = Running[I];
      double Before = Remaining[Op];
      Remaining[Op] -= Rates[I] * Step;
      if (Remaining[Op] <= 1e-9 * std::max(1.0, Before))
        advance(Op);
    }
  }
  for (double E : T.EndMs)
    T.Ms = std::max(T.Ms, E);
  return T;
}

namespace {

/// Each operation's time alone plus the longest such chain after it.
std::vector<double> longestTails(const BatchMachine &M, const std::vector<BatchOp> &Ops) {
  std::vector<double> Tail(Ops.size(), 0);
  for (size_t I = Ops.size(); I-- > 0;)
    Tail[I] += aloneMs(M, Ops[I]);
  for (size_t I = Ops.size(); I-- > 0;)
    for (unsigned A : Ops[I].After)
      Tail[A] = std::max(Tail[A], aloneMs(M, Ops[A]) + Tail[I]);
  return Tail;
}

/// A topological order taking the ready operation with the longest tail
/// first (ties: the earlier added).
IssueOrder longestPathFirst(const BatchMachine &M, const std::vector<BatchOp> &Ops) {
  std::vector<double> Tail = longestTails(M, Ops);
  std::vector<unsigned> Waiting(Ops.size());
  std::vector<std::vector<unsigned>> Users(Ops.size());
  for (size_t I = 0; I < Ops.size(); ++I) {
    Waiting[I] = unsigned(Ops[I].After.size());
    for (unsigned A : Ops[I].After)
      Users[A].push_back(unsigned(I));
  }
  auto Later = [&](unsigned A, unsigned B) {
    return Tail[A] != Tail[B] ? Tail[A] < Tail[B] : A > B;
  };
  std::priority_queue<unsigned, std::vector<unsigned>, decltype(Later)> Ready(Later);
  for (unsigned I = 0; I < Ops.size(); ++I)
    if (!Waiting[I])
      Ready.push(I);
  IssueOrder O;
  O.Name = "longest path first";
  while (!Ready.empty()) {
    unsigned I = Ready.top();
    Ready.pop();
    O.Order.push_back(I);
    for (unsigned U : Users[I])
      if (!--Waiting[U])
        Ready.push(U);
  }
  return O;
}

/// The operations the last one to end waited for, back to the start: at
/// each step the dependency, engine predecessor or Behind that ended last.
std::set<unsigned> longestStream(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                                 const Timeline &T) {
  std::set<unsigned> Chain;
  if (Ops.empty())
    return Chain;
  unsigned At = unsigned(std::max_element(T.EndMs.begin(), T.EndMs.end()) - T.EndMs.begin());
  std::vector<unsigned> Before(Ops.size(), ~0u); // engine predecessor
  std::map<std::pair<int, unsigned>, unsigned> Last;
  const std::vector<std::pair<int, unsigned>> EngineOf = enginesOf(M, Ops, T.Issued.Order);
  for (unsigned Op : T.Issued.Order) {
    auto E = EngineOf[Op];
    if (auto It = Last.find(E); It != Last.end())
      Before[Op] = It->second;
    Last[E] = Op;
  }
  while (true) {
    Chain.insert(At);
    std::vector<unsigned> Preds = Ops[At].After;
    if (Before[At] != ~0u)
      Preds.push_back(Before[At]);
    for (auto [Op, Behind] : T.Issued.Behind)
      if (Op == At)
        Preds.push_back(Behind);
    unsigned Next = ~0u;
    for (unsigned P : Preds)
      if (T.EndMs[P] <= T.StartMs[At] + 1e-9 && (Next == ~0u || T.EndMs[P] > T.EndMs[Next]))
        Next = P;
    if (Next == ~0u || Chain.count(Next))
      return Chain;
    At = Next;
  }
}

/// \p Best with the copies off the longest stream that ran beside one of
/// its copies under a common limit held behind that copy (the paper's
/// alignment: the long stream's copies get the bandwidth, the others
/// overlap its kernels instead).
IssueOrder holdBehindLongest(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                             const Timeline &Best) {
  IssueOrder O = Best.Issued;
  O.Name = "others behind the longest stream";
  std::set<unsigned> Chain = longestStream(M, Ops, Best);
  std::vector<int> Position(Ops.size());
  for (size_t P = 0; P < O.Order.size(); ++P)
    Position[O.Order[P]] = int(P);
  for (unsigned Z : Chain) {
    if (Ops[Z].What != BatchOp::Copy)
      continue;
    for (unsigned Y = 0; Y < Ops.size(); ++Y) {
      if (Chain.count(Y) || Ops[Y].What != BatchOp::Copy || Position[Z] > Position[Y])
        continue;
      bool Overlap = Best.StartMs[Y] < Best.EndMs[Z] && Best.StartMs[Z] < Best.EndMs[Y];
      if (Overlap && engineOf(M, Ops[Y]) != engineOf(M, Ops[Z]) &&
          shareALimit(M, Ops[Y], Ops[Z]))
        O.Behind.push_back({Y, Z});
    }
  }
  return O;
}

} // namespace

Result<Timeline> predictBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops) {
  if (Status S = checkBatch(M, Ops); !S)
    return S.error();
  IssueOrder AsAdded;
  AsAdded.Name = "as added";
  for (unsigned I = 0; I < Ops.size(); ++I)
    AsAdded.Order.push_back(I);
  std::optional<Timeline> Best;
  auto consider = [&](const IssueOrder &O) -> Status {
    Result<Timeline> T = simulateBatch(M, Ops, O);
    if (!T)
      return T.error();
    // Ties keep the earlier candidate: the simpler order.
    if (!Best || T->Ms < Best->Ms * (1 - 1e-9))
      Best = std::move(*T);
    return Status::success();
  };
  if (Status S = consider(AsAdded); !S)
    return S.error();
  if (Status S = consider(longestPathFirst(M, Ops)); !S)
    return S.error();
  // Holding copies behind can deadlock an order (an engine's next copy
  // waits behind one queued after something it holds back): such a
  // candidate is dropped.
  IssueOrder Held = holdBehindLongest(M, Ops, *Best);
  if (!Held.Behind.empty())
    (void)consider(Held);
  return std::move(*Best);
}

} // namespace skmd
