//===- Streams.cpp - Each command queue its own stream of commands -------===//
#include "Streams.h"

#include <algorithm>
#include <set>

namespace skmd::opencl {

namespace {

/// One lock for every stream: a command's readiness depends on other
/// queues' commands and on user events, and handing over is quick.
std::mutex &streamsLock() {
  static std::mutex *Lock = new std::mutex();
  return *Lock;
}

/// The streams with commands waiting (kept alive while they have some,
/// after their queue's release too).
std::set<std::shared_ptr<CommandStream>> &waitingStreams() {
  static auto *Streams = new std::set<std::shared_ptr<CommandStream>>();
  return *Streams;
}

bool handed(const Dependency &D) { return D.State->Handed.load(); }

bool settled(const Dependency &D) {
  return D.Done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

} // namespace

void CommandStream::add(WaitList Deps, Ordering O, Dependency Self, Handover Hand) {
  Self.OrderOnly = true;
  {
    std::lock_guard<std::mutex> Hold(streamsLock());
    if (InOrder) {
      if (Last)
        Deps.push_back(*Last);
      Last = Self;
    } else {
      if (Last)
        Deps.push_back(*Last);
      if (O != Ordering::Command) {
        // With no wait list of its own, a marker completes as every
        // command before it does, failed or not.
        Deps.insert(Deps.end(), SinceBarrier.begin(), SinceBarrier.end());
        SinceBarrier.clear();
      }
      if (O == Ordering::Barrier)
        Last = Self;
      else {
        // What has run is no longer worth waiting for.
        if (SinceBarrier.size() >= 64)
          SinceBarrier.erase(std::remove_if(SinceBarrier.begin(), SinceBarrier.end(), settled),
                             SinceBarrier.end());
        SinceBarrier.push_back(Self);
      }
    }
    Waiting.push_back({std::move(Deps), Self.State, std::move(Hand)});
    waitingStreams().insert(shared_from_this());
  }
  pumpStreams();
}

WaitList CommandStream::everything() {
  std::lock_guard<std::mutex> Hold(streamsLock());
  WaitList All = SinceBarrier;
  if (Last)
    All.push_back(*Last);
  return All;
}

bool CommandStream::handReady() {
  bool Any = false;
  for (auto It = Waiting.begin(); It != Waiting.end();) {
    if (!std::all_of(It->Deps.begin(), It->Deps.end(), handed)) {
      // In order, nothing after a waiting command may pass it.
      if (InOrder)
        break;
      ++It;
      continue;
    }
    It->Hand(It->Deps);
    It->State->Handed = true;
    It = Waiting.erase(It);
    Any = true;
  }
  return Any;
}

void pumpStreams() {
  std::lock_guard<std::mutex> Hold(streamsLock());
  auto &Streams = waitingStreams();
  // A command handed over may be what another stream's command waits for.
  for (bool Again = true; Again;) {
    Again = false;
    for (auto It = Streams.begin(); It != Streams.end();) {
      Again |= (*It)->handReady();
      It = (*It)->Waiting.empty() ? Streams.erase(It) : std::next(It);
    }
  }
}

} // namespace skmd::opencl
