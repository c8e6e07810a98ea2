//===- Session.cpp - Devices, plans and launch order ----------------------===//
#include "session/Session.h"

#include "session/Devices.h"
#include "buffers/Transfers.h"
#include "model/LinkModel.h"
#include "partitioner/Explain.h"
#include "partitioner/Plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace skmd {

Result<SessionOptions> SessionOptions::fromEnvironment(const char *DeviceSpec) {
  SessionOptions O;
  if (DeviceSpec)
    O.Devices = DeviceSpec;
  else if (const char *Env = std::getenv("SKMD_DEVICES"))
    O.Devices = Env;
  if (const char *Profile = std::getenv("SKMD_PROFILE"); Profile && *Profile) {
    std::string P = Profile;
    if (P != "auto" && P != "off")
      return Failure(ErrorCode::InvalidArgument,
                     "SKMD_PROFILE is '" + P + "'; it may be auto or off");
    O.AutoProfile = P == "auto";
  }
  if (const char *Explain = std::getenv("SKMD_EXPLAIN"))
    O.Explain = std::string(Explain) != "" && std::string(Explain) != "0";
  if (const char *Measured = std::getenv("SKMD_MEASURED_PLANS"); Measured && *Measured) {
    std::string M = Measured;
    if (M != "0" && M != "1")
      return Failure(ErrorCode::InvalidArgument,
                     "SKMD_MEASURED_PLANS is '" + M + "'; it may be 0 or 1");
    O.MeasuredPlans = M == "1";
  }
  return O;
}

Result<std::unique_ptr<Session>> Session::open(const SessionOptions &Options) {
  auto Found = openDevices(Options.Devices);
  if (!Found)
    return Found.error();
  std::unique_ptr<Session> S(new Session());
  S->Devices = std::move(Found->Devices);
  S->Cpu = Found->Cpu;
  std::vector<Device *> Raw;
  for (auto &D : S->Devices)
    Raw.push_back(D.get());
  S->Run = std::make_unique<Launcher>(Raw, *S->Cpu);
  unsigned CpuIndex = unsigned(std::find(Raw.begin(), Raw.end(), S->Cpu) - Raw.begin());
  S->Planner = std::make_unique<ModelPlanner>(Raw, CpuIndex, *S->Run);
  // Launches are predicted as the batches they run as, on the machine's
  // routes (measured once per machine, at the first plan that needs them).
  S->Planner->setMachine([Self = S.get()] { return Self->batchMachine(); });
  // Launches exchange inputs between devices where the routes say it pays;
  // a launch never waits for them to be measured.
  S->Run->setMachine([Self = S.get()] { return Self->knownMachine(); });
  if (Options.AutoProfile)
    S->Planner->setAutoProfile(*Options.AutoProfile);
  S->Explain = Options.Explain;
  S->CheckPlans = Options.MeasuredPlans;
  S->setProgress({});
  return S;
}

Session::~Session() {
  {
    std::lock_guard<std::mutex> Hold(QueueLock);
    Stopping = true;
  }
  QueueReady.notify_all();
  if (Worker.joinable())
    Worker.join();
  for (auto &[Key, Object] : Objects) {
    void *Owned = Object.second;
    Object.first.reset();
    freeHost(Owned);
  }
  Objects.clear();
  for (PinnedBlock &B : Pinned) {
    for (Device *D : B.Registered)
      D->unregisterHost(B.P);
    B.Owner->freePinnedHost(B.P);
  }
}

std::vector<const DeviceInfo *> Session::deviceInfos() const {
  std::vector<const DeviceInfo *> Infos;
  for (auto &D : Devices)
    Infos.push_back(&D->info());
  return Infos;
}

Result<unsigned> Session::deviceIndex(const std::string &Name) const {
  for (unsigned I = 0; I < Devices.size(); ++I)
    if (Devices[I]->info().Name == Name)
      return I;
  std::string Names;
  for (auto &D : Devices)
    Names += (Names.empty() ? "" : ", ") + D->info().Name;
  return Failure(ErrorCode::NoDevice, "no device '" + Name + "' (devices: " + Names + ")");
}

void Session::setProgress(std::function<void(const std::string &)> F) {
  if (!F)
    F = [](const std::string &Line) { std::fprintf(stderr, "skmd: %s\n", Line.c_str()); };
  Progress = F;
  Planner->setProgress(std::move(F));
}

std::future<Status> Session::submit(std::function<Status()> Job) {
  std::packaged_task<Status()> Task(std::move(Job));
  std::future<Status> Done = Task.get_future();
  {
    std::lock_guard<std::mutex> Hold(QueueLock);
    Queue.push_back(std::move(Task));
    if (!Worker.joinable())
      Worker = std::thread([this] { serve(); });
  }
  QueueReady.notify_one();
  return Done;
}

void Session::serve() {
  WorkerId = std::this_thread::get_id();
  for (;;) {
    std::packaged_task<Status()> Task;
    {
      std::unique_lock<std::mutex> Hold(QueueLock);
      QueueReady.wait(Hold, [&] { return Stopping || !Queue.empty(); });
      if (Queue.empty())
        return; // Stopping, and nothing left to run.
      Task = std::move(Queue.front());
      Queue.pop_front();
    }
    Task(); // An exception it throws goes to its future.
  }
}

std::optional<std::vector<Piece>> Session::residentPlan(LoadedKernel &K,
                                                       const std::vector<HostArg> &Args,
                                                       const NDRange &Range,
                                                       LaunchRecord &Record) {
  std::vector<BufferObject *> Read;
  for (size_t A = 0; A < Args.size(); ++A) {
    if (Args[A].K != HostArg::Buffer || Args[A].isNullBuffer())
      continue;
    BufferObject *B = Args[A].Object;
    if (!B || B->coherence() != BufferObject::Coherence::Resident)
      return std::nullopt;
    if (A < K.Info->Args.size() && K.Info->Args[A].Read &&
        std::find(Read.begin(), Read.end(), B) == Read.end())
      Read.push_back(B);
  }
  const ModelPlan &M = *Record.Model;
  ResidentPlans::Shape &S = Resident.shape(*K.Info, Range);
  uint64_t Before = S.Launches++;
  Planned = &S;
  bool Stale = S.Pieces.empty() || (S.Pieces.size() > 1 && !K.Info->Partitionable);
  if (Before == 0 || Stale || S.LastMs <= 0) {
    // The model's plan first: the data starts where the model expects it.
    S.Pieces = M.Pieces;
    S.Method = M.Method;
    return std::nullopt;
  }
  // Each device alone: the model's kernel time for every group, and the
  // bytes of the kernel's inputs it lacks. A link not measured is taken at
  // 10 GB/s (a pageable copy's rate): the move is spread over the launches
  // anyway.
  const uint64_t Total = Range.totalGroups();
  auto LinkGBps = [](const DeviceInfo &I) { return I.LinkGBps > 0 ? I.LinkGBps : 10.0; };
  double FastestLink = 0;
  for (auto &D : Devices)
    if (!D->info().SharesHostMemory)
      FastestLink = std::max(FastestLink, LinkGBps(D->info()));
  if (S.AloneKernelMs.empty())
    for (unsigned D = 0; D < Devices.size(); ++D) {
      auto Alone = Planner->predict({{D, 0, Total}}, "alone", K, Args, Range);
      S.AloneKernelMs.push_back(Alone ? std::optional<double>(Alone->Predicted[D].KernelMs)
                                      : std::nullopt);
    }
  std::vector<AloneCandidate> Candidates;
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (!S.AloneKernelMs[D])
      continue;
    const DeviceInfo &Info = Devices[D]->info();
    AloneCandidate C;
    C.Device = D;
    C.KernelMs = *S.AloneKernelMs[D];
    for (BufferObject *B : Read) {
      IntervalSet Missing = B->all();
      if (Info.SharesHostMemory)
        Missing.subtract(B->hostValid());
      else if (const BufferObject::DeviceCopy *Copy = B->copyOn(*Devices[D]))
        Missing.subtract(Copy->Valid);
      C.MissingBytes += uint64_t(Missing.bytes());
    }
    C.LinkGBps = Info.SharesHostMemory ? FastestLink : LinkGBps(Info);
    Candidates.push_back(C);
  }
  std::optional<unsigned> InUse;
  if (S.Pieces.size() == 1)
    InUse = S.Pieces.front().Device;
  if (auto Better = betterAlone(S.LastMs, Before, Candidates, InUse)) {
    char Why[160];
    std::snprintf(Why, sizeof Why,
                  "resident: %s alone (the plan in use took %.3f ms a launch; %llu launches "
                  "of this shape)",
                  Devices[*Better]->info().Name.c_str(), S.LastMs,
                  static_cast<unsigned long long>(Before));
    S.Pieces = {{*Better, 0, Total}};
    S.Method = Why;
  }
  Record.Plan = S.Method;
  // The model's own plan is already described.
  if (S.Pieces != M.Pieces)
    if (auto Predicted = Planner->predict(S.Pieces, S.Method, K, Args, Range))
      Record.Model = std::move(*Predicted);
  return S.Pieces;
}

std::vector<double> Session::sideSlowdowns(const ModelPlan &Model,
                                           const std::vector<Piece> &Pieces,
                                           const LaunchReport &Report) const {
  std::vector<double> Slowdown(Devices.size(), 0);
  // The report has a piece for each of the plan's, in its order.
  for (size_t I = 0; I < Pieces.size() && I < Report.Pieces.size(); ++I) {
    const PieceReport &P = Report.Pieces[I];
    unsigned D = Pieces[I].Device;
    if (D >= Model.Predicted.size() || D >= Slowdown.size() ||
        !(Model.Predicted[D].DoneMs > 0))
      continue;
    double Done = std::max({P.InputAt + P.InputMs, P.KernelAt + P.KernelMs,
                            P.OutputAt + P.OutputMs, P.MergeAt + P.MergeMs});
    Slowdown[D] = std::max(Slowdown[D], Done / Model.Predicted[D].DoneMs);
  }
  return Slowdown;
}

std::optional<std::vector<Piece>> Session::measuredPlan(LoadedKernel &K,
                                                       const std::vector<HostArg> &Args,
                                                       const NDRange &Range,
                                                       LaunchRecord &Record) {
  const ModelPlan &M = *Record.Model;
  if (!CheckPlans || M.ShapeKey.empty() || M.Pieces.size() < 2)
    return std::nullopt;
  // Launches on resident buffers are residentPlan's.
  bool OnHost = std::any_of(Args.begin(), Args.end(), [](const HostArg &A) {
    return A.K == HostArg::Buffer && !A.isNullBuffer() &&
           (!A.Object || A.Object->coherence() != BufferObject::Coherence::Resident);
  });
  if (!OnHost)
    return std::nullopt;
  double AloneMs = INFINITY;
  for (double Ms : M.AloneMs)
    if (Ms > 0)
      AloneMs = std::min(AloneMs, Ms);
  MeasuredPlans::Shape &S = Measured.shape(M.ShapeKey, M.Pieces);
  Checking = &S;
  CheckedChoice =
      MeasuredPlans::next(S, M.PredictedMs, std::isfinite(AloneMs) ? AloneMs : 0);
  if (CheckedChoice == MeasuredPlans::Choice::Split)
    return std::nullopt;
  unsigned D = MeasuredPlans::aloneDevice(S, M.AloneMs);
  auto A = Planner->predict({{D, 0, Range.totalGroups()}}, "alone", K, Args, Range,
                            /*ChooseChunks=*/true);
  if (!A) {
    Checking = nullptr;
    return std::nullopt;
  }
  auto Min = [](const std::vector<double> &V) {
    return V.empty() ? 0.0 : *std::min_element(V.begin(), V.end());
  };
  const std::string &Name = Devices[D]->info().Name;
  char Why[200];
  if (S.AloneMs.empty())
    std::snprintf(Why, sizeof Why,
                  "auto, measured: %s alone, once (the split took %.3f ms at best, "
                  "predicted %.3f; %s alone is predicted %.3f)",
                  Name.c_str(), Min(S.SplitMs), M.PredictedMs, Name.c_str(), M.AloneMs[D]);
  else
    std::snprintf(Why, sizeof Why,
                  "auto, measured: %s alone (%.3f ms at best against the split's %.3f)",
                  Name.c_str(), Min(S.AloneMs), Min(S.SplitMs));
  A->Method = Why;
  Record.Plan = Why;
  Record.Model = std::move(*A);
  return Record.Model->Pieces;
}

Result<std::vector<Piece>> Session::choosePlan(LoadedKernel &K, const std::vector<HostArg> &Args,
                                               const NDRange &Range, const std::string &Plan,
                                               LaunchRecord &Record, std::string &NoModel) {
  const KernelInfo &Info = *K.Info;
  bool Default = Plan.empty();
  // A shared device busy with others' work takes a smaller share of the
  // plans that weigh the devices (a round trip to its server at most
  // every 100 ms; plans that name the shares do not ask).
  if (Default || Plan == "auto" || Plan == "linear" || Plan == "proportional")
    for (auto &D : Devices)
      D->refreshOtherUsers();
  std::vector<const DeviceInfo *> Infos = deviceInfos();
  // Where groups may communicate, whether this split meets (the launcher
  // refuses it too; here the plans SKMD chose fall back to one device).
  auto Conflict = [&](const std::vector<Piece> &Pieces) -> Result<std::string> {
    return firstConflict(Info, Args, Range, Pieces);
  };
  if (Default || Plan == "auto" || Plan == "linear") {
    auto M = Planner->plan(Plan == "linear" ? ModelPlanner::Method::Linear
                                            : ModelPlanner::Method::Auto,
                           K, Args, Range);
    if (M) {
      auto C = Conflict(M->Pieces);
      if (!C)
        return C.error();
      if (!C->empty()) {
        M = Planner->plan(ModelPlanner::Method::Single, K, Args, Range);
        if (!M)
          return M.error();
        M->Method += " (the split meets in this launch: " + *C + ")";
      }
    }
    if (M) {
      Record.Plan = M->Method;
      Record.Model = std::move(*M);
      if (Plan != "linear") {
        if (auto Kept = residentPlan(K, Args, Range, Record))
          return *Kept;
        if (auto Checked = measuredPlan(K, Args, Range, Record))
          return *Checked;
      }
      return Record.Model->Pieces;
    }
    // The default falls back when the model cannot plan (no profiles, no
    // database); bad arguments are the launch's error either way.
    if (!Default || M.error().code() == ErrorCode::InvalidArgument)
      return M.error();
    NoModel = M.error().message();
    Record.Plan = "proportional (no model: " + NoModel + ")";
    auto Pieces = makePlan("proportional", Infos, Range.totalGroups(), Info.Name,
                           Info.whyNotPartitionable());
    if (!Pieces)
      return Pieces;
    auto C = Conflict(*Pieces);
    if (!C)
      return C.error();
    if (C->empty())
      return Pieces;
    Record.Plan += " on one device (the split meets in this launch: " + *C + ")";
    return makePlan("proportional", Infos, Range.totalGroups(), Info.Name, *C);
  }
  auto Pieces = makePlan(Plan, Infos, Range.totalGroups(), Info.Name,
                         Info.whyNotPartitionable());
  if (!Pieces)
    return Pieces;
  Record.Plan = Plan;
  // Without chunk counts in the plan, a share on a device with its own
  // memory runs in the chunks the model finds soonest (the device alone,
  // "gpu0", as fast as SKMD runs it); with them, or without a model, as
  // given.
  bool ChooseChunks = Plan.find('@') == std::string::npos && Info.Partitionable;
  bool Offloads = std::any_of(Pieces->begin(), Pieces->end(), [&](const Piece &P) {
    return !Devices[P.Device]->info().SharesHostMemory;
  });
  if (Explain || (ChooseChunks && Offloads)) {
    if (auto M = Planner->predict(*Pieces, Plan, K, Args, Range, ChooseChunks)) {
      if (ChooseChunks)
        *Pieces = M->Pieces;
      Record.Model = std::move(*M);
    } else {
      NoModel = M.error().message();
    }
  }
  return Pieces;
}

Status Session::launchNow(LoadedKernel &K, const std::vector<HostArg> &Args,
                          const NDRange &Range, const std::string &Plan,
                          LaunchRecord &Record) {
  auto Start = std::chrono::steady_clock::now();
  Planned = nullptr;
  Checking = nullptr;
  std::string NoModel;
  auto Pieces = choosePlan(K, Args, Range, Plan, Record, NoModel);
  if (!Pieces)
    return Pieces.error();
  double ChoosingMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
  std::vector<const DeviceInfo *> Infos = deviceInfos();
  const ModelPlan *Model = Record.Model ? &*Record.Model : nullptr;
  if (Explain)
    std::fputs(explainPlan(K.Info->Name, Record.Plan, *Pieces, Range.totalGroups(), Infos,
                           Model, NoModel)
                   .c_str(),
               stderr);
  for (const HostArg &A : Args)
    if (A.Object)
      if (Status Synced = syncAliases(*A.Object); !Synced)
        return Synced;
  ResidentPlans::Shape *Shape = std::exchange(Planned, nullptr);
  MeasuredPlans::Shape *Checked = std::exchange(Checking, nullptr);
  // What the plan predicts of each device's work, for devices shared with
  // other processes (their server orders its clients' steps by it).
  std::vector<StepForecast> Forecasts;
  if (Model)
    for (const DevicePrediction &P : Model->Predicted) {
      StepForecast F;
      F.InMs = P.InputMs;
      F.KernelMs = P.KernelMs;
      F.OutMs = P.OutputMs;
      Forecasts.push_back(F);
    }
  Status S = Run->run(K, Args, Range, *Pieces, Record.Report, Model ? &Forecasts : nullptr);
  if (Shape && S)
    ResidentPlans::measured(*Shape, *Pieces, Record.Report);
  // The launch's own time: a kernel's first load on a device is not the
  // plan's.
  if (Checked && S)
    MeasuredPlans::measured(*Checked, CheckedChoice, Record.Report.TotalMs - Record.Report.PlanMs,
                            CheckedChoice == MeasuredPlans::Choice::Split && Model
                                ? sideSlowdowns(*Model, *Pieces, Record.Report)
                                : std::vector<double>());
  // Whatever a written buffer's kernel wrote, its aliases see it next
  // (after a failure too: some bytes may have changed).
  for (size_t A = 0; A < Args.size(); ++A)
    if (Args[A].Object && A < K.Info->Args.size() && K.Info->Args[A].Written)
      wroteAliased(*Args[A].Object, Args[A].Object->all());
  Record.Report.PlanMs += ChoosingMs;
  Record.Report.TotalMs += ChoosingMs;
  if (Explain && !Record.Report.Pieces.empty())
    std::fputs(explainOutcome(Record.Report, Infos, Model).c_str(), stderr);
  return S;
}

Status Session::launch(LoadedKernel &K, const std::vector<HostArg> &Args, const NDRange &Range,
                       const std::string &Plan, LaunchRecord &Record) {
  return submit([&] { return launchNow(K, Args, Range, Plan, Record); }).get();
}

std::future<Status> Session::launchAsync(LoadedKernel &K, std::vector<HostArg> Args,
                                         const NDRange &Range, std::string Plan,
                                         LaunchRecord &Record) {
  return submit([this, &K, Args = std::move(Args), Range, Plan = std::move(Plan), &Record] {
    return launchNow(K, Args, Range, Plan, Record);
  });
}

void Session::drain() {
  submit([] { return Status::success(); }).wait();
}

Status Session::profile(LoadedKernel &K, const std::vector<HostArg> &Args, const NDRange &Range,
                        const std::vector<unsigned> &Which, unsigned Runs) {
  return submit([&] { return Planner->profile(K, Args, Range, Which, Runs); }).get();
}

Result<std::vector<ModelPlanner::ModelCheck>>
Session::checkModel(LoadedKernel &K, const std::vector<HostArg> &Args, const NDRange &Range,
                    unsigned Device, const std::vector<uint64_t> &Counts, unsigned Runs) {
  return inTurn([&] { return Planner->checkModel(K, Args, Range, Device, Counts, Runs); });
}

Result<std::pair<double, double>> Session::measureLink(unsigned Index, uint64_t Bytes) {
  if (Index >= Devices.size())
    return Failure(ErrorCode::InvalidArgument, "device " + std::to_string(Index) + " of " +
                                                   std::to_string(Devices.size()));
  Device &D = *Devices[Index];
  if (D.info().SharesHostMemory || Bytes == 0)
    return std::pair<double, double>{0, 0};
  auto Rates = inTurn([&] { return measureCopyRate(D, Bytes); });
  if (Rates)
    D.setLinkGBps(Rates->first);
  return Rates;
}

void *Session::allocHost(size_t Bytes) {
  // Memory shared with a server on this node first: the other devices can
  // page-lock it too, where a GPU's own page-locked memory cannot be
  // shared (devices/remote/SharedMemory.h).
  std::vector<Device *> Order;
  for (auto &D : Devices)
    if (D->info().Kind == DeviceKind::Remote)
      Order.push_back(D.get());
  for (auto &D : Devices)
    if (D->info().Kind != DeviceKind::Remote)
      Order.push_back(D.get());
  for (Device *Owner : Order)
    if (void *P = Owner->allocPinnedHost(Bytes)) {
      PinnedBlock B{P, Owner, {}};
      for (auto &D : Devices)
        if (D.get() != Owner && !D->info().SharesHostMemory && !D->isPinnedHost(P, Bytes) &&
            D->registerHost(P, Bytes))
          B.Registered.push_back(D.get());
      std::lock_guard<std::mutex> Hold(HostLock);
      Pinned.push_back(std::move(B));
      return P;
    }
  // No device that page-locks: page-aligned memory does as well.
  size_t Rounded = (std::max<size_t>(Bytes, 1) + 4095) / 4096 * 4096;
  return std::aligned_alloc(4096, Rounded);
}

void Session::freeHost(void *Ptr) {
  if (!Ptr)
    return;
  {
    std::lock_guard<std::mutex> Hold(HostLock);
    auto It = std::find_if(Pinned.begin(), Pinned.end(),
                           [&](const PinnedBlock &B) { return B.P == Ptr; });
    if (It != Pinned.end()) {
      PinnedBlock B = std::move(*It);
      Pinned.erase(It);
      for (Device *D : B.Registered)
        D->unregisterHost(Ptr);
      B.Owner->freePinnedHost(Ptr);
      return;
    }
  }
  std::free(Ptr);
}

Result<BufferObject *> Session::createBuffer(void *Host, uint64_t Bytes, const void *Init) {
  void *Owned = nullptr;
  if (!Host) {
    Owned = allocHost(Bytes);
    if (!Owned)
      return Failure(ErrorCode::OutOfMemory,
                     "cannot allocate " + std::to_string(Bytes) + " bytes of host memory");
    if (Init)
      std::memcpy(Owned, Init, Bytes);
    else
      std::memset(Owned, 0, Bytes);
  }
  return inTurn([&]() -> Result<BufferObject *> {
    auto B = std::make_unique<BufferObject>(Run->residency(), Host ? Host : Owned, Bytes,
                                            Host ? BufferObject::Coherence::HostCoherent
                                                 : BufferObject::Coherence::Resident);
    BufferObject *Raw = B.get();
    Objects[Raw] = {std::move(B), Owned};
    return Raw;
  });
}

Result<BufferObject *> Session::createView(BufferObject &Of, uint64_t Offset, uint64_t Bytes) {
  if (Bytes == 0 || Offset > Of.bytes() || Bytes > Of.bytes() - Offset)
    return Failure(ErrorCode::InvalidArgument,
                   "a view of bytes [" + std::to_string(Offset) + ", " +
                       std::to_string(Offset + Bytes) + ") of a buffer of " +
                       std::to_string(Of.bytes()) + " bytes");
  return inTurn([&]() -> Result<BufferObject *> {
    // The view starts from the host's bytes: make them current.
    if (Status S = syncAliases(Of); !S)
      return S.error();
    IntervalSet Range;
    Range.add(int64_t(Offset), int64_t(Offset + Bytes));
    if (auto Moved = Of.bringToHost(Range); !Moved)
      return Moved.error();
    BufferObject *Root = &Of;
    uint64_t At = Offset;
    if (auto It = Aliases.find(&Of); It != Aliases.end()) {
      Root = It->second.Root;
      At += It->second.Offset;
    } else {
      Aliases[&Of] = Alias{&Of, 0, {}};
      Families[&Of] = {&Of};
    }
    auto B = std::make_unique<BufferObject>(Run->residency(),
                                            static_cast<char *>(Of.host()) + Offset, Bytes,
                                            Of.coherence());
    BufferObject *Raw = B.get();
    Objects[Raw] = {std::move(B), nullptr};
    Aliases[Raw] = Alias{Root, At, {}};
    Families[Root].push_back(Raw);
    return Raw;
  });
}

Status Session::flushAlias(BufferObject &B) {
  Alias &Me = Aliases.at(&B);
  if (Me.Dirty.empty())
    return Status::success();
  if (auto Moved = B.bringToHost(Me.Dirty); !Moved)
    return Moved.error();
  for (BufferObject *Other : Families.at(Me.Root)) {
    if (Other == &B)
      continue;
    // Shifted into the other's offsets, within it.
    const Alias &Them = Aliases.at(Other);
    const int64_t Shift = int64_t(Me.Offset) - int64_t(Them.Offset);
    IntervalSet Theirs;
    for (auto [Lo, Hi] : Me.Dirty.intervals()) {
      int64_t L = std::max<int64_t>(Lo + Shift, 0);
      int64_t H = std::min<int64_t>(Hi + Shift, int64_t(Other->bytes()));
      if (L < H)
        Theirs.add(L, H);
    }
    Other->hostWrote(Theirs);
  }
  Me.Dirty = IntervalSet();
  return Status::success();
}

Status Session::syncAliases(BufferObject &B) {
  auto It = Aliases.find(&B);
  if (It == Aliases.end())
    return Status::success();
  const Alias &Me = It->second;
  for (BufferObject *Other : Families.at(Me.Root)) {
    const Alias &Them = Aliases.at(Other);
    bool Overlaps = Them.Offset < Me.Offset + B.bytes() && Me.Offset < Them.Offset + Other->bytes();
    if (Other != &B && Overlaps)
      if (Status S = flushAlias(*Other); !S)
        return S;
  }
  return Status::success();
}

void Session::wroteAliased(BufferObject &B, const IntervalSet &Set) {
  if (auto It = Aliases.find(&B); It != Aliases.end())
    It->second.Dirty.add(Set);
}

void Session::releaseBuffer(BufferObject *B) {
  // In its turn, without waiting for it: a command before it may wait on
  // something only the caller can give (an OpenCL user event). On the
  // worker (a job releasing what it held), now.
  auto Release = [this, B] {
    freeHost(forgetBuffer(B));
    return Status::success();
  };
  if (std::this_thread::get_id() == WorkerId.load())
    Release();
  else
    submit(Release);
}

void *Session::forgetBuffer(BufferObject *B) {
  auto It = Objects.find(B);
  if (It == Objects.end())
    return nullptr;
  if (auto A = Aliases.find(B); A != Aliases.end()) {
    // What only it holds reaches the host, where its family sees it.
    (void)flushAlias(*B);
    BufferObject *Root = A->second.Root;
    Aliases.erase(A);
    auto &Members = Families.at(Root);
    Members.erase(std::find(Members.begin(), Members.end(), B));
    bool RootLive = std::find(Members.begin(), Members.end(), Root) != Members.end();
    if (Members.empty() || (Members.size() == 1 && RootLive)) {
      // The family is gone (or the root alone is left, an ordinary buffer
      // again); a released root's memory goes with its last view.
      Families.erase(Root);
      Aliases.erase(Root);
      if (!RootLive && Root != B) {
        void *RootHost = Objects.at(Root).second;
        Objects.erase(Root);
        freeHost(RootHost);
      }
    } else if (B == Root) {
      // Views remain: the root's memory stays, the object unused.
      It->second.first->onlyOnHost();
      return nullptr;
    }
  }
  void *Host = It->second.second;
  Objects.erase(It);
  return Host;
}

namespace {
Status checkRange(const BufferObject &B, uint64_t Offset, uint64_t Bytes, const void *Ptr,
                  const char *What) {
  if (Bytes && !Ptr)
    return Failure(ErrorCode::InvalidArgument, std::string(What) + ": the host pointer is null");
  if (Offset > B.bytes() || Bytes > B.bytes() - Offset)
    return Failure(ErrorCode::InvalidArgument,
                   std::string(What) + ": bytes [" + std::to_string(Offset) + ", " +
                       std::to_string(Offset + Bytes) + ") of a buffer of " +
                       std::to_string(B.bytes()) + " bytes");
  return Status::success();
}
} // namespace

Status Session::readNow(BufferObject &B, uint64_t Offset, uint64_t Bytes, void *Dst) {
  if (Status S = checkRange(B, Offset, Bytes, Dst, "reading a buffer"); !S)
    return S;
  if (Status S = syncAliases(B); !S)
    return S;
  IntervalSet Want;
  Want.add(int64_t(Offset), int64_t(Offset + Bytes));
  if (auto Moved = B.bringToHost(Want); !Moved)
    return Moved.error();
  const char *From = static_cast<const char *>(B.host()) + Offset;
  if (Bytes && Dst != From)
    Cpu->copyHost(Dst, From, Bytes);
  return Status::success();
}

Status Session::writeNow(BufferObject &B, uint64_t Offset, uint64_t Bytes, const void *Src) {
  if (Status S = checkRange(B, Offset, Bytes, Src, "writing a buffer"); !S)
    return S;
  if (Status S = syncAliases(B); !S)
    return S;
  char *To = static_cast<char *>(B.host()) + Offset;
  if (Bytes && Src != To)
    Cpu->copyHost(To, Src, Bytes);
  IntervalSet Set;
  Set.add(int64_t(Offset), int64_t(Offset + Bytes));
  B.hostWrote(Set);
  wroteAliased(B, Set);
  return Status::success();
}

Status Session::readBuffer(BufferObject &B, uint64_t Offset, uint64_t Bytes, void *Dst) {
  if (Status S = checkRange(B, Offset, Bytes, Dst, "reading a buffer"); !S)
    return S;
  return inTurn([&] { return readNow(B, Offset, Bytes, Dst); });
}

Status Session::writeBuffer(BufferObject &B, uint64_t Offset, uint64_t Bytes, const void *Src) {
  if (Status S = checkRange(B, Offset, Bytes, Src, "writing a buffer"); !S)
    return S;
  return inTurn([&] { return writeNow(B, Offset, Bytes, Src); });
}

} // namespace skmd
