//===- DeviceWorkers.cpp - A started thread per device --------------------===//
#include "executor/DeviceWorkers.h"

namespace skmd {

DeviceWorkers::~DeviceWorkers() {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Stopping = true;
  }
  Work.notify_all();
  for (auto &W : Workers)
    if (W)
      W->Thread.join();
}

void DeviceWorkers::post(size_t Device, std::function<void()> Job) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    // Lanes are numbered by whoever posts (a schedule of a machine with more
    // devices than the launcher's, as the engine's own cost measurement is):
    // a lane past the end is a new thread, not a write past the vector.
    if (Device >= Workers.size())
      Workers.resize(Device + 1);
    std::unique_ptr<Worker> &W = Workers[Device];
    if (!W) {
      W = std::make_unique<Worker>();
      W->Thread = std::thread([this, &Mine = *W] { loop(Mine); });
    }
    W->Job = std::move(Job);
    ++Pending;
  }
  // Every worker waits on the one condition; each looks for a job of its own.
  Work.notify_all();
}

void DeviceWorkers::wait() {
  std::unique_lock<std::mutex> Hold(Lock);
  Done.wait(Hold, [&] { return Pending == 0; });
}

void DeviceWorkers::loop(Worker &W) {
  std::unique_lock<std::mutex> Hold(Lock);
  for (;;) {
    Work.wait(Hold, [&] { return Stopping || W.Job; });
    if (!W.Job)
      return;
    std::function<void()> Job = std::move(W.Job);
    W.Job = nullptr;
    Hold.unlock();
    Job();
    Hold.lock();
    if (--Pending == 0)
      Done.notify_all();
  }
}

} // namespace skmd
