//===- HostCores.cpp - The host's cores, lent by the CPU to copies --------===//
#include "devices/HostCores.h"

#include <cstdlib>
#include <cstring>

namespace skmd {

HostCores &HostCores::instance() {
  static HostCores Cores;
  return Cores;
}

bool HostCores::lending() {
  static const bool On = [] {
    const char *Env = std::getenv("SKMD_STAGING_LEND");
    return !Env || std::strcmp(Env, "0") != 0;
  }();
  return On;
}

void HostCores::Loan::end() {
  if (Owner && Cores)
    Owner->giveBack(Cores);
  Owner = nullptr;
}

HostCores::Loan HostCores::borrow(unsigned Cores) {
  if (!lending() || Cores == 0)
    return Loan();
  {
    std::lock_guard<std::mutex> G(Lock);
    Lent += Cores;
  }
  Changed.notify_all();
  return Loan(this, Cores);
}

void HostCores::giveBack(unsigned Cores) {
  {
    std::lock_guard<std::mutex> G(Lock);
    Lent -= Cores;
  }
  Changed.notify_all();
}

void HostCores::waitUntil(const std::function<bool(unsigned)> &Resume) {
  std::unique_lock<std::mutex> G(Lock);
  Changed.wait(G, [&] { return Resume(Lent.load()); });
}

void HostCores::wake() {
  // Under the lock: a waiter between checking its condition and sleeping
  // would miss a notification sent outside it.
  { std::lock_guard<std::mutex> G(Lock); }
  Changed.notify_all();
}

} // namespace skmd
