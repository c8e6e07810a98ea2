//===- HostStreams.h - A device's streams made of host threads ---*- C++ -*-===//
//
// A device that queues its work (DeviceInfo::QueuesWork) without queues of
// its own in hardware: a thread per stream runs the work queued on it in
// order. A mark is reached once the work queued before it on its stream
// has run, and carries the first error of that work; work queued after a
// waitFor starts once the mark waited for is reached. The HostDiscrete
// device queues through them (SKMD_DISCRETE_QUEUE=1), so that machines
// without a GPU test the launcher's queued chunks as a GPU runs them.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_HOSTSTREAMS_H
#define SKMD_DEVICES_HOSTSTREAMS_H

#include "devices/Device.h"
#include "support/Result.h"

#include <array>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace skmd {

class HostStreams {
public:
  HostStreams();
  ~HostStreams();
  HostStreams(const HostStreams &) = delete;
  HostStreams &operator=(const HostStreams &) = delete;

  void queue(DeviceStream S, std::function<Status()> Work);
  uint64_t mark(DeviceStream S);
  void waitFor(DeviceStream S, uint64_t Mark);
  /// Returns when \p Mark is reached: the first error of the work queued
  /// on its stream between the previous mark and it.
  Status finish(uint64_t Mark);
  void release(uint64_t Mark);
  /// Waits for everything queued on \p S so far; its first error.
  Status drain(DeviceStream S);

private:
  struct Item {
    std::function<Status()> Work;
    uint64_t Signal = 0, Wait = 0;
  };
  struct Stream {
    std::deque<Item> Queue;
    std::thread Thread;
    /// The first error since the stream's last mark.
    Status Error;
  };
  void push(DeviceStream S, Item I);
  void loop(Stream &S);

  std::mutex Lock;
  std::condition_variable Changed;
  std::array<Stream, 3> Streams;
  std::map<uint64_t, Status> Reached;
  uint64_t Next = 0;
  bool Stopping = false;
};

} // namespace skmd

#endif // SKMD_DEVICES_HOSTSTREAMS_H
