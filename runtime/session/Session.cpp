//===- Session.cpp - Devices, plans and launch order ----------------------===//
#include "session/Session.h"

#include "session/Devices.h"
#include "model/LinkModel.h"
#include "planning/Explain.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace skmd {

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
  S->Memory = std::make_unique<HostMemory>(Raw);
  S->Buffers = std::make_unique<BufferTable>(S->Run->residency(), *S->Memory);
  unsigned CpuIndex = unsigned(std::find(Raw.begin(), Raw.end(), S->Cpu) - Raw.begin());
  S->Chooser = std::make_unique<PlanChooser>(Raw, CpuIndex, *S->Run, S->Run->workers(),
                                             Options.MeasuredPlans);
  // Launches exchange inputs between devices where the routes say it pays;
  // a launch never waits for them to be measured.
  S->Run->setMachine([Chooser = S->Chooser.get()] { return Chooser->knownMachine(); });
  if (Options.AutoProfile)
    S->Chooser->planner().setAutoProfile(*Options.AutoProfile);
  S->Explain = Options.Explain;
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
  // The objects first (they release their device copies), then their
  // host memory.
  Buffers.reset();
  Memory.reset();
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
  Chooser->setProgress(std::move(F));
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

Status Session::launchNow(LoadedKernel &K, const std::vector<HostArg> &Args,
                          const NDRange &Range, const std::string &Plan,
                          LaunchRecord &Record) {
  auto Decision = Chooser->choose(K, Args, Range, Plan, Explain);
  if (!Decision)
    return Decision.error();
  PlanDecision &D = *Decision;
  std::vector<const DeviceInfo *> Infos = deviceInfos();
  const ModelPlan *Model = D.Model ? &*D.Model : nullptr;
  if (Explain)
    std::fputs(explainPlan(K.Info->Name, D.Plan, D.Pieces, Range.totalGroups(), Infos, Model,
                           D.NoModel)
                   .c_str(),
               stderr);
  for (const HostArg &A : Args)
    if (A.Object)
      if (Status Synced = Buffers->beforeUse(*A.Object); !Synced)
        return Synced;
  std::vector<StepForecast> Forecasts = PlanChooser::forecasts(D);
  Status S = Run->run(K, Args, Range, D.Pieces, Record.Report, Model ? &Forecasts : nullptr);
  if (S)
    Chooser->learn(D, Record.Report);
  // Whatever a written buffer's kernel wrote, its aliases see it next
  // (after a failure too: some bytes may have changed).
  for (size_t A = 0; A < Args.size(); ++A)
    if (Args[A].Object && A < K.Info->Args.size() && K.Info->Args[A].Written)
      Buffers->wrote(*Args[A].Object, Args[A].Object->all());
  Record.Report.PlanMs += D.ChoosingMs;
  Record.Report.TotalMs += D.ChoosingMs;
  if (Explain && !Record.Report.Pieces.empty())
    std::fputs(explainOutcome(Record.Report, Infos, Model).c_str(), stderr);
  Record.Plan = std::move(D.Plan);
  Record.Model = std::move(D.Model);
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
  return submit([&] { return Chooser->profile(K, Args, Range, Which, Runs); }).get();
}

Result<std::vector<ModelPlanner::ModelCheck>>
Session::checkModel(LoadedKernel &K, const std::vector<HostArg> &Args, const NDRange &Range,
                    unsigned Device, const std::vector<uint64_t> &Counts, unsigned Runs) {
  return inTurn([&] { return Chooser->planner().checkModel(K, Args, Range, Device, Counts, Runs); });
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

void *Session::allocHost(size_t Bytes) { return Memory->alloc(Bytes); }

void Session::freeHost(void *Ptr) { Memory->free(Ptr); }

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
  return inTurn([&]() -> Result<BufferObject *> { return Buffers->add(Host, Owned, Bytes); });
}

Result<BufferObject *> Session::createView(BufferObject &Of, uint64_t Offset, uint64_t Bytes) {
  if (Bytes == 0 || Offset > Of.bytes() || Bytes > Of.bytes() - Offset)
    return Failure(ErrorCode::InvalidArgument,
                   "a view of bytes [" + std::to_string(Offset) + ", " +
                       std::to_string(Offset + Bytes) + ") of a buffer of " +
                       std::to_string(Of.bytes()) + " bytes");
  return inTurn([&] { return Buffers->addView(Of, Offset, Bytes); });
}

void Session::releaseBuffer(BufferObject *B) {
  // In its turn, without waiting for it: a command before it may wait on
  // something only the caller can give (an OpenCL user event). On the
  // worker (a job releasing what it held), now.
  auto Release = [this, B] {
    Buffers->release(B);
    return Status::success();
  };
  if (std::this_thread::get_id() == WorkerId.load())
    Release();
  else
    submit(Release);
}

Status Session::checkBatch(const UserBatch &B) const {
  return checkUserBatch(B, Run->devices(),
                        [this](const BufferObject *V) { return Buffers->inFamily(V); });
}

Result<Timeline> Session::predictBatch(UserBatch &B) {
  return inTurn([&]() -> Result<Timeline> {
    if (Status S = checkBatch(B); !S)
      return S.error();
    auto M = Chooser->batchModel(B);
    if (!M)
      return M.error();
    if (!M->Unpredicted.empty())
      return Failure(ErrorCode::NotFound,
                     "no profile predicts the kernel piece '" + M->Unpredicted +
                         "' (profile the kernel with skmd-prof or skmd_profile)");
    return skmd::predictBatch(*M->Machine, M->Ops);
  });
}

std::future<Status> Session::submitBatch(UserBatch &B) {
  return submit([this, &B]() -> Status {
    B.Ran = false;
    if (Status S = checkBatch(B); !S)
      return S;
    auto M = Chooser->batchModel(B);
    if (!M)
      return M.error();
    return Run->runBatch(B, *M->Machine, M->Ops, M->Unpredicted.empty());
  });
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
  if (Status S = Buffers->beforeUse(B); !S)
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
  if (Status S = Buffers->beforeUse(B); !S)
    return S;
  char *To = static_cast<char *>(B.host()) + Offset;
  if (Bytes && Src != To)
    Cpu->copyHost(To, Src, Bytes);
  IntervalSet Set;
  Set.add(int64_t(Offset), int64_t(Offset + Bytes));
  B.hostWrote(Set);
  Buffers->wrote(B, Set);
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
