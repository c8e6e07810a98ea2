//===- StepBatcher.cpp - Clients' steps on one device, gathered and ordered -===//

#include "StepBatcher.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace skmd {

std::optional<std::string> parseGather(const std::string &Text, GatherOptions &Into) {
  auto Micros = [&](const std::string &Digits) -> std::optional<std::string> {
    char *End = nullptr;
    unsigned long long Us = std::strtoull(Digits.c_str(), &End, 10);
    if (Digits.empty() || *End || Digits[0] == '-' || Us < 1 || Us > 1000000)
      return "--gather's wait is " + Digits + ": give microseconds, 1 to 1000000";
    Into.Wait = std::chrono::microseconds(Us);
    return std::nullopt;
  };
  if (Text == "off") {
    Into.Gather = GatherOptions::Off;
    return std::nullopt;
  }
  if (Text == "barrier") {
    Into.Gather = GatherOptions::Barrier;
    return std::nullopt;
  }
  for (auto [Prefix, Mode] : {std::pair{"barrier:", GatherOptions::Barrier},
                              std::pair{"window:", GatherOptions::Window}}) {
    std::string P = Prefix;
    if (Text.compare(0, P.size(), P) == 0) {
      Into.Gather = Mode;
      return Micros(Text.substr(P.size()));
    }
  }
  return "--gather is off, barrier, barrier:<us> or window:<us>, not '" + Text + "'";
}

std::string describe(const StepBatchReport &R, const std::string &Device) {
  char Line[512];
  int N = std::snprintf(Line, sizeof Line, "%s batch %llu: %u step%s, ", Device.c_str(),
                        static_cast<unsigned long long>(R.Number), R.Steps,
                        R.Steps == 1 ? "" : "s");
  std::string Out(Line, size_t(N));
  if (R.Predicted) {
    std::snprintf(Line, sizeof Line,
                  "%s (in %.3f, kernel %.3f, out %.3f ms; a kernel fills %.0f%% of the device), "
                  "%s; predicted %.3f ms (model %.3f ms x %.2f learned from %u batch%s), ",
                  name(R.Class), R.Mean.DataInMs, R.Mean.CompMs, R.Mean.DataOutMs,
                  100 * R.KernelShare, name(R.Order), R.PredictedMs, R.ModelMs, R.LearnedRatio,
                  R.LearnedFrom, R.LearnedFrom == 1 ? "" : "es");
  } else {
    std::snprintf(Line, sizeof Line, "unpredicted, %s; ", name(R.Order));
  }
  Out += Line;
  if (R.MeasuredMs < 0)
    std::snprintf(Line, sizeof Line, "not measured (a step's end was not seen)");
  else if (R.Predicted && R.MeasuredMs > 0)
    std::snprintf(Line, sizeof Line, "measured %.3f ms (%+.1f%%)", R.MeasuredMs,
                  100 * (R.PredictedMs - R.MeasuredMs) / R.MeasuredMs);
  else
    std::snprintf(Line, sizeof Line, "measured %.3f ms", R.MeasuredMs);
  Out += Line;
  std::snprintf(Line, sizeof Line, "; gathered in %.3f ms", R.GatherMs);
  return Out + Line;
}

StepBatcher::StepBatcher(GatherOptions O, unsigned ComputeUnits,
                         std::function<void(const StepBatchReport &)> Report)
    : Options(O), ComputeUnits(ComputeUnits), Report(std::move(Report)) {}

uint64_t StepBatcher::batches() const {
  std::lock_guard<std::mutex> G(Lock);
  uint64_t Open = 0;
  for (const auto &B : Issuing)
    Open += !B->Closed;
  return Numbered - Open;
}

std::pair<StepBatcher::Batch *, StepBatcher::StepState *> StepBatcher::stepOf(Member M) {
  auto It = Current.find(M);
  if (It == Current.end())
    return {nullptr, nullptr};
  Batch &B = *It->second;
  for (auto S = B.Steps.rbegin(); S != B.Steps.rend(); ++S)
    if (S->Who == M && !S->Ended)
      return {&B, &*S};
  return {nullptr, nullptr};
}

unsigned StepBatcher::awaited(Clock::time_point Now) const {
  // Those still in an earlier batch's step are waited for too: their next
  // step comes once it has run, and a barrier that went on without them
  // would keep the clients split in two batches for good.
  unsigned N = 0;
  for (const auto &[M, At] : LastSeen)
    N += Now - At < std::chrono::seconds(1);
  return N;
}

void StepBatcher::close(Batch &B, Clock::time_point Now) {
  B.Closed = true;
  B.Issued = B.Since = Now;
  StepBatchReport &R = B.R;
  R.Number = B.Number;
  R.Steps = unsigned(B.Steps.size());
  R.GatherMs = std::chrono::duration<double, std::milli>(Now - B.Opened).count();
  R.Predicted = !B.Steps.empty();
  double GroupsPerRun = 0;
  for (const StepState &S : B.Steps) {
    R.Predicted &= S.Plan.KernelMs > 0;
    R.Mean.DataInMs += S.Plan.InMs / R.Steps;
    R.Mean.CompMs += S.Plan.KernelMs / R.Steps;
    R.Mean.DataOutMs += S.Plan.OutMs / R.Steps;
    GroupsPerRun += double(S.Plan.Groups) / std::max(1u, S.Plan.Runs) / R.Steps;
  }
  R.KernelShare = ComputeUnits ? std::min(1.0, GroupsPerRun / ComputeUnits) : 0;
  R.Class = classify(R.Mean);
  B.GroupsPerRun = uint64_t(GroupsPerRun + 0.5);
  // Each order's time: the model's, times what this shape measured
  // against it before.
  auto Predict = [&](SharingOrder O, Learned &L) {
    auto It = Ratios.find(shapeOf(B, O));
    L = It == Ratios.end() ? Learned{} : It->second;
    return turnaroundBatch(R.Mean, R.Steps, O, R.KernelShare) * L.Ratio;
  };
  Learned L1, L2;
  double Ps1 = R.Predicted ? Predict(SharingOrder::PS1, L1) : 0;
  double Ps2 = R.Predicted ? Predict(SharingOrder::PS2, L2) : 0;
  if (Options.Order)
    R.Order = *Options.Order;
  else if (!R.Predicted)
    R.Order = SharingOrder::PS2;
  else if (!L1.Batches || !L2.Batches) // try each order once
    R.Order = !L1.Batches ? SharingOrder::PS1 : SharingOrder::PS2;
  else
    R.Order = Ps1 <= Ps2 ? SharingOrder::PS1 : SharingOrder::PS2;
  if (R.Predicted) {
    const Learned &L = R.Order == SharingOrder::PS1 ? L1 : L2;
    R.ModelMs = turnaroundBatch(R.Mean, R.Steps, R.Order, R.KernelShare);
    R.PredictedMs = R.Order == SharingOrder::PS1 ? Ps1 : Ps2;
    R.LearnedRatio = L.Ratio;
    R.LearnedFrom = L.Batches;
  }
}

bool StepBatcher::mayIssue(const Batch &B, const StepState &St, Stage S) const {
  // Issued without it (it came late): the rest of its step goes at once.
  if (B.IssuedAll)
    return true;
  if (!B.Closed || Issuing.empty() || Issuing.front().get() != &B)
    return false;
  if (B.R.Order == SharingOrder::PS1)
    return S <= B.Phase;
  return size_t(&St - B.Steps.data()) <= B.Turn;
}

bool StepBatcher::advance(Clock::time_point Now) {
  bool Moved = false;
  while (!Issuing.empty()) {
    Batch &F = *Issuing.front();
    if (!F.Closed) {
      bool Ready = Now >= std::max(F.Opened, F.Front) + Options.Wait ||
                   (Options.Gather == GatherOptions::Barrier &&
                    F.Steps.size() >= awaited(Now));
      if (!Ready)
        return Moved;
      close(F, Now);
      Moved = true;
    }
    bool Late = Now >= F.Since + Options.Wait;
    if (F.R.Order == SharingOrder::PS1) {
      for (;;) {
        bool AllPast = std::all_of(F.Steps.begin(), F.Steps.end(), [&](const StepState &S) {
          return S.Ended || (F.Phase != Stage::Out && S.At > F.Phase);
        });
        if (!AllPast && !Late)
          break;
        Late = false;
        F.Since = Now;
        Moved = true;
        if (F.Phase == Stage::Out) {
          F.IssuedAll = true;
          break;
        }
        F.Phase = F.Phase == Stage::In ? Stage::Kernel : Stage::Out;
      }
    } else {
      while (F.Turn < F.Steps.size() && (F.Steps[F.Turn].Ended || Late)) {
        Late = false;
        F.Since = Now;
        Moved = true;
        ++F.Turn;
      }
      F.IssuedAll = F.Turn >= F.Steps.size();
    }
    if (!F.IssuedAll)
      return Moved;
    Running.push_back(Issuing.front());
    Issuing.pop_front();
    if (!Issuing.empty())
      Issuing.front()->Front = Now;
  }
  return Moved;
}

StepBatcher::Clock::time_point StepBatcher::nextDeadline() const {
  if (Issuing.empty())
    return Clock::now() + Options.Wait;
  const Batch &F = *Issuing.front();
  return (F.Closed ? F.Since : std::max(F.Opened, F.Front)) + Options.Wait;
}

void StepBatcher::endStep(Batch &B, StepState &St, bool Measured) {
  St.Ended = true;
  St.Measured = Measured;
  if (auto It = Current.find(St.Who); It != Current.end() && It->second.get() == &B)
    Current.erase(It);
}

StepBatcher::ShapeKey StepBatcher::shapeOf(const Batch &B, SharingOrder O) const {
  return {unsigned(B.Steps.size()), B.GroupsPerRun, O};
}

void StepBatcher::reportIfRan(Batch &B, std::vector<StepBatchReport> &Out) {
  if (B.Reported || !B.IssuedAll)
    return;
  bool Measured = true;
  Clock::time_point Last = B.Issued;
  for (const StepState &S : B.Steps) {
    if (!S.Ended || (S.Measured && !S.Ran))
      return;
    Measured &= S.Measured;
    if (S.Ran)
      Last = std::max(Last, S.RanAt);
  }
  B.Reported = true;
  B.R.MeasuredMs = Measured ? std::chrono::duration<double, std::milli>(Last - B.Issued).count()
                            : -1;
  if (B.R.Predicted && B.R.MeasuredMs > 0 && B.R.ModelMs > 0) {
    // The batches before weigh 0.7, this one 0.3: a shape's time drifts
    // (other work on the host) but one slow batch should not swing it.
    Learned &L = Ratios[shapeOf(B, B.R.Order)];
    double Now = B.R.MeasuredMs / B.R.ModelMs;
    L.Ratio = L.Batches ? 0.7 * L.Ratio + 0.3 * Now : Now;
    ++L.Batches;
  }
  Out.push_back(B.R);
  Running.erase(std::remove_if(Running.begin(), Running.end(),
                               [&](const auto &P) { return P.get() == &B; }),
                Running.end());
}

void StepBatcher::deliver(std::vector<StepBatchReport> &Out, std::unique_lock<std::mutex> &G) {
  // Batches that just finished issuing may have run already.
  for (size_t I = 0; I < Running.size();) {
    size_t Before = Running.size();
    reportIfRan(*Running[I], Out);
    if (Running.size() == Before)
      ++I;
  }
  if (Out.empty() || !Report)
    return;
  G.unlock();
  for (const StepBatchReport &R : Out)
    Report(R);
  G.lock();
}

void StepBatcher::begin(Member M, const wire::Step &S) {
  std::unique_lock<std::mutex> G(Lock);
  auto Now = Clock::now();
  if (auto [B, St] = stepOf(M); St)
    endStep(*B, *St, false); // it announced more than it sent
  LastSeen[M] = Now;
  if (Issuing.empty() || Issuing.back()->Closed) {
    auto B = std::make_shared<Batch>();
    B->Number = ++Numbered;
    B->Opened = Now;
    Issuing.push_back(std::move(B));
  }
  StepState St;
  St.Who = M;
  St.Plan = S;
  Issuing.back()->Steps.push_back(St);
  Current[M] = Issuing.back();
  advance(Now);
  std::vector<StepBatchReport> Out;
  deliver(Out, G);
  G.unlock();
  Changed.notify_all();
}

void StepBatcher::join(Member M) {
  std::lock_guard<std::mutex> G(Lock);
  LastSeen[M] = Clock::now();
}

void StepBatcher::enter(Member M, Stage S) {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    auto Now = Clock::now();
    auto [B, St] = stepOf(M);
    if (!St)
      break;
    // Waiting at S, it is past the stages before.
    bool Moved = S > St->At;
    St->At = std::max(St->At, S);
    Moved |= advance(Now);
    std::tie(B, St) = stepOf(M);
    if (!St)
      break;
    if (mayIssue(*B, *St, S)) {
      if (S == Stage::Kernel)
        ++St->RunsIssued;
      St->OutIssued |= S == Stage::Out;
      break;
    }
    // Others wait for what moved, not for each other's wakes: a
    // notification only when something did.
    if (Moved)
      Changed.notify_all();
    Changed.wait_until(G, nextDeadline());
  }
  std::vector<StepBatchReport> Out;
  deliver(Out, G);
  G.unlock();
  Changed.notify_all();
}

std::optional<uint64_t> StepBatcher::marked(Member M) {
  std::unique_lock<std::mutex> G(Lock);
  auto [B, St] = stepOf(M);
  bool OutsDone = St && (St->OutIssued || !(St->Plan.Flags & wire::Step::CopiesOut));
  if (!St || St->RunsIssued < St->Plan.Runs || !OutsDone)
    return std::nullopt;
  std::shared_ptr<Batch> Holder = Current.at(M);
  size_t Index = size_t(St - B->Steps.data());
  endStep(*B, *St, true);
  uint64_t Token = ++Tokens;
  EndTokens[Token] = {std::move(Holder), Index};
  advance(Clock::now());
  std::vector<StepBatchReport> Out;
  deliver(Out, G);
  G.unlock();
  Changed.notify_all();
  return Token;
}

void StepBatcher::stepRan(uint64_t Token) {
  std::unique_lock<std::mutex> G(Lock);
  auto It = EndTokens.find(Token);
  if (It == EndTokens.end())
    return;
  auto [B, Index] = It->second;
  EndTokens.erase(It);
  StepState &St = B->Steps[Index];
  St.Ran = true;
  St.RanAt = Clock::now();
  std::vector<StepBatchReport> Out;
  reportIfRan(*B, Out);
  deliver(Out, G);
}

void StepBatcher::leave(Member M) {
  std::unique_lock<std::mutex> G(Lock);
  if (auto [B, St] = stepOf(M); St)
    endStep(*B, *St, false);
  Current.erase(M);
  LastSeen.erase(M);
  advance(Clock::now());
  std::vector<StepBatchReport> Out;
  deliver(Out, G);
  G.unlock();
  Changed.notify_all();
}

} // namespace skmd
