//===- Session.h - Devices, plans and launch order, below every front end --*- C++ -*-===//
//
// A session is what a front end runs kernels through: the devices it
// opened, the launcher over them, the model planner, plan choice with its
// fallbacks, --explain, and the order of launches. The C API (skmd.h) and
// the tools are thin layers over it; the OpenCL platform is another.
//
// Launches, profiling runs and link measurements go through one queue and
// run one at a time in the order they were submitted (FIFO, as an in-order
// OpenCL queue), on the session's worker thread: devices are not shared
// between two launches.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SESSION_SESSION_H
#define SKMD_SESSION_SESSION_H

#include "devices/Device.h"
#include "devices/cpu/CpuDevice.h"
#include "launch/Launcher.h"
#include "partitioner/ModelPlanner.h"
#include "session/MeasuredPlans.h"
#include "session/ResidentPlans.h"
#include "session/SessionBatch.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace skmd {

/// How a session starts.
struct SessionOptions {
  /// The devices to open (session/Devices.h): empty for every device found.
  std::string Devices;
  /// Plans and outcomes to stderr (SKMD_EXPLAIN).
  bool Explain = false;
  /// Profile a kernel the model lacks before planning it (SKMD_PROFILE):
  /// unset leaves the planner's default.
  std::optional<bool> AutoProfile;
  /// The model's splits held to what they measured
  /// (session/MeasuredPlans.h; SKMD_MEASURED_PLANS=0 turns it off).
  bool MeasuredPlans = true;

  /// \p DeviceSpec, or SKMD_DEVICES where it is null; SKMD_EXPLAIN;
  /// SKMD_PROFILE (auto or off; anything else is an error);
  /// SKMD_MEASURED_PLANS.
  static Result<SessionOptions> fromEnvironment(const char *DeviceSpec);
};

/// A launch's report, with how its plan was chosen and what the model
/// predicted of it.
struct LaunchRecord {
  LaunchReport Report;
  std::string Plan;
  std::optional<ModelPlan> Model;
};

class Session {
public:
  static Result<std::unique_ptr<Session>> open(const SessionOptions &Options);
  /// Runs what is queued, then stops the worker.
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  const std::vector<std::unique_ptr<Device>> &devices() const { return Devices; }
  std::vector<const DeviceInfo *> deviceInfos() const;
  /// The index of the device named \p Name (cpu, gpu0, ...).
  Result<unsigned> deviceIndex(const std::string &Name) const;

  void setExplain(bool On) { Explain = On; }
  bool explain() const { return Explain; }
  /// Where profiling reports its progress (default: stderr, "skmd: ...").
  void setProgress(std::function<void(const std::string &)> F);

  /// Chooses the plan (\p Plan as skmd_launch takes it: empty for the
  /// default) and runs the launch, after every launch submitted before it.
  Status launch(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                const NDRange &Range, const std::string &Plan, LaunchRecord &Record);
  /// The same, without waiting: \p Args are copied now; \p Record and
  /// \p Kernel must live until the future is ready.
  std::future<Status> launchAsync(LoadedKernel &Kernel, std::vector<HostArg> Args,
                                  const NDRange &Range, std::string Plan,
                                  LaunchRecord &Record);

  /// Returns when everything submitted so far has run.
  void drain();

  /// A front end's own command (an OpenCL read, a launch after a wait on
  /// events), run in its turn after everything submitted before. Inside a
  /// job, use the *Now functions below, never the queued ones: those
  /// would wait for the job itself.
  std::future<Status> enqueue(std::function<Status()> Job) { return submit(std::move(Job)); }
  /// launch, readBuffer and writeBuffer for a job already in its turn.
  Status launchNow(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                   const NDRange &Range, const std::string &Plan, LaunchRecord &Record);
  Status readNow(BufferObject &B, uint64_t Offset, uint64_t Bytes, void *Dst);
  Status writeNow(BufferObject &B, uint64_t Offset, uint64_t Bytes, const void *Src);

  /// Profiles the launch on the devices \p Which (indices), in turn.
  Status profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                 const NDRange &Range, const std::vector<unsigned> &Which, unsigned Runs);
  /// The model's prediction against a measurement, for \p Counts groups
  /// on device \p Device.
  Result<std::vector<ModelPlanner::ModelCheck>>
  checkModel(LoadedKernel &Kernel, const std::vector<HostArg> &Args, const NDRange &Range,
             unsigned Device, const std::vector<uint64_t> &Counts, unsigned Runs);
  /// Copies of \p Bytes to and from device \p Device, in GB/s (0 for a
  /// device on host memory); the device's link figure becomes the first.
  Result<std::pair<double, double>> measureLink(unsigned Device, uint64_t Bytes);

  /// Host memory the devices copy fastest: page-locked by the first device
  /// that can page-lock, else page-aligned. Null when none is left.
  void *allocHost(size_t Bytes);
  void freeHost(void *Ptr);

  /// A buffer object over the user's memory \p Host (HostCoherent: each
  /// launch reads it and writes its results back), or, with \p Host null,
  /// over memory of the session's own (allocHost), Resident: reached
  /// through readBuffer and writeBuffer, its bytes staying where launches
  /// wrote them; \p Init, if given, is copied in. Device copies are kept
  /// across launches until releaseBuffer or memory pressure.
  Result<BufferObject *> createBuffer(void *Host, uint64_t Bytes, const void *Init = nullptr);
  /// A buffer object over bytes [Offset, Offset + Bytes) of \p Of (an
  /// OpenCL sub-buffer): the same host memory, device copies of its own.
  /// The objects of one family stay coherent: before one is used, bytes
  /// another wrote and still holds on a device come to the host and the
  /// user's copies of them elsewhere become stale. \p Of's host memory
  /// lives until its last view is released.
  Result<BufferObject *> createView(BufferObject &Of, uint64_t Offset, uint64_t Bytes);
  /// After the launches submitted before it, without waiting for them
  /// (from a job, at once).
  void releaseBuffer(BufferObject *B);
  /// Bytes [Offset, Offset + Bytes) of \p B after the launches submitted
  /// before: exactly the stale ranges come back from the devices.
  Status readBuffer(BufferObject &B, uint64_t Offset, uint64_t Bytes, void *Dst);
  /// Writes them; device copies of those bytes become stale.
  Status writeBuffer(BufferObject &B, uint64_t Offset, uint64_t Bytes, const void *Src);

  /// Batches (session/SessionBatch.h). The prediction of \p B, in its
  /// turn: the route table (measured into the profile database on first
  /// use) and the kernel pieces' times from their profiles; a piece
  /// without a profile makes it an error naming it.
  Result<Timeline> predictBatch(SessionBatch &B);
  /// Runs \p B in its turn, after everything submitted before; \p B lives
  /// until the future is ready, its report filled then. An operation that
  /// fails fails the batch (the error names it); those after it that wait
  /// for it do not run.
  std::future<Status> submitBatch(SessionBatch &B);

private:
  /// The batch model of the devices, measured on first use.
  Result<const BatchMachine *> batchMachine();
  /// The batch model where the profile database already holds every route
  /// (loaded then, never measured), else null: what launches exchange
  /// inputs on.
  const BatchMachine *knownMachine();
  /// \p B's operations as the model sees them; kernel pieces without a
  /// profile get no time and are named in \p Unpredicted.
  Result<std::vector<BatchOp>> batchModel(SessionBatch &B, std::string &Unpredicted);
  Status checkBatchOps(const SessionBatch &B) const;
  Status runBatchNow(SessionBatch &B);
  std::optional<BatchMachine> Machine;
  /// Whether knownMachine found routes missing (it does not look again).
  bool MachineUnknown = false;
  /// What setProgress was given (measurements announce themselves).
  std::function<void(const std::string &)> Progress;

  Session() = default;
  /// Queues \p Job behind everything submitted before.
  std::future<Status> submit(std::function<Status()> Job);
  /// Runs \p Fn in its turn and returns what it returns.
  template <typename F> auto inTurn(F &&Fn) -> decltype(Fn()) {
    std::optional<decltype(Fn())> Out;
    submit([&] {
      Out.emplace(Fn());
      return Status::success();
    }).get();
    return std::move(*Out);
  }
  void serve();
  Result<std::vector<Piece>> choosePlan(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                                        const NDRange &Range, const std::string &Plan,
                                        LaunchRecord &Record, std::string &NoModel);
  /// For a launch whose every buffer is resident: the plan in use for its
  /// shape, or a device alone that beats it now that the data is where it
  /// is (session/ResidentPlans.h); nullopt for other launches.
  std::optional<std::vector<Piece>> residentPlan(LoadedKernel &Kernel,
                                                 const std::vector<HostArg> &Args,
                                                 const NDRange &Range, LaunchRecord &Record);
  /// Per device, when its side of \p Report (a launch of \p Pieces)
  /// finished over \p Model's prediction of it
  /// (MeasuredPlans::Shape::Slowdown).
  std::vector<double> sideSlowdowns(const ModelPlan &Model, const std::vector<Piece> &Pieces,
                                    const LaunchReport &Report) const;
  /// For a launch on host memory that the model splits: the split, or the
  /// fastest device alone where the split measured no faster
  /// (session/MeasuredPlans.h); nullopt keeps Record's plan.
  std::optional<std::vector<Piece>> measuredPlan(LoadedKernel &Kernel,
                                                 const std::vector<HostArg> &Args,
                                                 const NDRange &Range, LaunchRecord &Record);

  std::vector<std::unique_ptr<Device>> Devices;
  CpuDevice *Cpu = nullptr;
  std::unique_ptr<Launcher> Run;
  std::unique_ptr<ModelPlanner> Planner;
  /// Buffer objects (destroyed before the launcher, whose residency they
  /// are part of), and the host memory of those the session allocated.
  std::map<BufferObject *, std::pair<std::unique_ptr<BufferObject>, void *>> Objects;
  /// Objects that share host memory with others (createView): the root
  /// they are views of, where they start in it, and the bytes written
  /// through them since their family last saw them (in their own offsets).
  struct Alias {
    BufferObject *Root = nullptr;
    uint64_t Offset = 0;
    IntervalSet Dirty;
  };
  std::map<BufferObject *, Alias> Aliases;
  /// Root -> the live members of its family (the root while not released).
  std::map<BufferObject *, std::vector<BufferObject *>> Families;
  /// Plans of launch shapes on resident buffers, and the shape of the
  /// launch being planned (its measured time is kept after it runs).
  ResidentPlans Resident;
  ResidentPlans::Shape *Planned = nullptr;
  /// Times of the model's splits on host memory, and the shape of the
  /// launch being planned with the plan it was given.
  MeasuredPlans Measured;
  MeasuredPlans::Shape *Checking = nullptr;
  MeasuredPlans::Choice CheckedChoice = MeasuredPlans::Choice::Split;
  bool CheckPlans = true;
  /// Before \p B is used: every other member's dirty bytes that overlap
  /// it are made current on the host and stale in the other members.
  Status syncAliases(BufferObject &B);
  /// After \p Set of \p B was written.
  void wroteAliased(BufferObject &B, const IntervalSet &Set);
  /// Makes \p B's dirty bytes current on the host, stale in the others.
  Status flushAlias(BufferObject &B);
  /// Drops \p B (and its family's bookkeeping); the host memory to free.
  void *forgetBuffer(BufferObject *B);
  bool Explain = false;

  std::mutex QueueLock;
  std::condition_variable QueueReady;
  std::deque<std::packaged_task<Status()>> Queue;
  bool Stopping = false;
  std::thread Worker;
  /// The worker's id once it runs: jobs may release buffers in place.
  std::atomic<std::thread::id> WorkerId{};

  /// Page-locked blocks from allocHost: the device that owns each, and
  /// the others that page-locked it too.
  struct PinnedBlock {
    void *P = nullptr;
    Device *Owner = nullptr;
    std::vector<Device *> Registered;
  };
  std::mutex HostLock;
  std::vector<PinnedBlock> Pinned;
};

} // namespace skmd

#endif // SKMD_SESSION_SESSION_H
