//===- HostStreams.cpp - A device's streams made of host threads ----------===//
#include "devices/HostStreams.h"

namespace skmd {

HostStreams::HostStreams() {
  for (Stream &S : Streams)
    S.Thread = std::thread([this, &S] { loop(S); });
}

HostStreams::~HostStreams() {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Stopping = true;
  }
  Changed.notify_all();
  for (Stream &S : Streams)
    S.Thread.join();
}

void HostStreams::push(DeviceStream S, Item I) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Streams[unsigned(S)].Queue.push_back(std::move(I));
  }
  Changed.notify_all();
}

void HostStreams::queue(DeviceStream S, std::function<Status()> Work) {
  Item I;
  I.Work = std::move(Work);
  push(S, std::move(I));
}

uint64_t HostStreams::mark(DeviceStream S) {
  Item I;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    I.Signal = ++Next;
  }
  uint64_t M = I.Signal;
  push(S, std::move(I));
  return M;
}

void HostStreams::waitFor(DeviceStream S, uint64_t Mark) {
  Item I;
  I.Wait = Mark;
  push(S, std::move(I));
}

Status HostStreams::finish(uint64_t Mark) {
  std::unique_lock<std::mutex> Hold(Lock);
  Changed.wait(Hold, [&] { return Reached.count(Mark) > 0; });
  return Reached[Mark];
}

void HostStreams::release(uint64_t Mark) {
  std::lock_guard<std::mutex> Hold(Lock);
  Reached.erase(Mark);
}

Status HostStreams::drain(DeviceStream S) {
  uint64_t M = mark(S);
  Status Error = finish(M);
  release(M);
  return Error;
}

void HostStreams::loop(Stream &S) {
  std::unique_lock<std::mutex> Hold(Lock);
  for (;;) {
    Changed.wait(Hold, [&] { return Stopping || !S.Queue.empty(); });
    if (S.Queue.empty())
      return;
    Item I = std::move(S.Queue.front());
    S.Queue.pop_front();
    // A mark waited for is reached (and kept) until it is released, which
    // happens only after every wait for it was queued and run.
    if (I.Wait)
      Changed.wait(Hold, [&] { return Reached.count(I.Wait) > 0 || Stopping; });
    if (I.Work) {
      Hold.unlock();
      Status E = I.Work();
      Hold.lock();
      if (!E && S.Error)
        S.Error = std::move(E);
    }
    if (I.Signal) {
      Reached[I.Signal] = std::move(S.Error);
      S.Error = Status::success();
    }
    Changed.notify_all();
  }
}

} // namespace skmd
