//===- Session.h - Devices, plans and launch order, below every front end --*- C++ -*-===//
//
// A session is what a front end runs kernels through: the devices it
// opened, the launcher over them, the plan chooser (planning/), the buffer
// objects (buffers/BufferTable.h), --explain, and the order of work. The C
// API (skmd.h) and the tools are thin layers over it; the OpenCL platform
// is another.
//
// Launches, batches, host accesses, profiling runs and link measurements
// go through one queue and run one at a time in the order they were
// submitted (FIFO, as an in-order OpenCL queue), on the session's worker
// thread: devices are not shared between two launches. A launch goes down
// the layers from there: its plan from the chooser, its run by the
// launcher, and what it took back to the chooser.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SESSION_SESSION_H
#define SKMD_SESSION_SESSION_H

#include "buffers/BufferTable.h"
#include "buffers/HostMemory.h"
#include "launch/Launcher.h"
#include "launch/UserBatch.h"
#include "planning/PlanChooser.h"
#include "session/SessionOptions.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace skmd {

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

  /// Batches (launch/UserBatch.h). The prediction of \p B, in its
  /// turn: the route table (measured into the profile database on first
  /// use) and the kernel pieces' times from their profiles; a piece
  /// without a profile makes it an error naming it.
  Result<Timeline> predictBatch(UserBatch &B);
  /// Runs \p B in its turn, after everything submitted before; \p B lives
  /// until the future is ready, its report filled then. An operation that
  /// fails fails the batch (the error names it); those after it that wait
  /// for it do not run.
  std::future<Status> submitBatch(UserBatch &B);

private:
  Session() = default;
  Status checkBatch(const UserBatch &B) const;
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
  std::vector<std::unique_ptr<Device>> Devices;
  CpuDevice *Cpu = nullptr;
  std::unique_ptr<Launcher> Run;
  std::unique_ptr<PlanChooser> Chooser;
  /// Declared after the launcher and the devices: the buffer objects go
  /// first, then their host memory.
  std::unique_ptr<HostMemory> Memory;
  std::unique_ptr<BufferTable> Buffers;
  bool Explain = false;

  std::mutex QueueLock;
  std::condition_variable QueueReady;
  std::deque<std::packaged_task<Status()>> Queue;
  bool Stopping = false;
  std::thread Worker;
  /// The worker's id once it runs: jobs may release buffers in place.
  std::atomic<std::thread::id> WorkerId{};
};

} // namespace skmd

#endif // SKMD_SESSION_SESSION_H
