//===- DeviceWorkers.h - A started thread per device -------------*- C++ -*-===//
//
// The launcher drives each device with its own memory from a thread of its
// own while the CPU computes. A thread created and joined per device per
// launch was a fixed start of every launch that the model does not see and
// that a scan pays on each of its small launches: a 256-group vector add
// split between the CPU and a HostDiscrete device took 0.096-0.114 ms that
// way here, 0.083-0.094 with these threads, which are started on a
// device's first launch and then wait for the next.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_EXECUTOR_DEVICEWORKERS_H
#define SKMD_EXECUTOR_DEVICEWORKERS_H

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace skmd {

class DeviceWorkers {
public:
  explicit DeviceWorkers(size_t Devices) : Workers(Devices) {}
  ~DeviceWorkers();
  DeviceWorkers(const DeviceWorkers &) = delete;
  DeviceWorkers &operator=(const DeviceWorkers &) = delete;

  /// Runs \p Job on device \p Device's thread; one job per device at a
  /// time (wait() before posting to it again). A lane past the ones made
  /// at construction is started on its first job.
  void post(size_t Device, std::function<void()> Job);
  /// Returns when every posted job has finished.
  void wait();

private:
  struct Worker {
    std::thread Thread;
    std::function<void()> Job;
  };
  void loop(Worker &W);

  std::mutex Lock;
  std::condition_variable Work, Done;
  std::vector<std::unique_ptr<Worker>> Workers;
  unsigned Pending = 0;
  bool Stopping = false;
};

} // namespace skmd

#endif // SKMD_EXECUTOR_DEVICEWORKERS_H
