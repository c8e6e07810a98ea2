//===- HostCores.h - The host's cores, lent by the CPU to copies -*- C++ -*-===//
//
// The CPU device computes on the host's cores, and so do the copies other
// devices make with them: a GPU's pageable memory staged through pinned
// chunks by copier threads, a HostDiscrete device's memcpy. Run against
// each other on the same cores, both slowed down several times (H100 host).
// A copy borrows the cores it takes while it runs; the CPU device's
// threads beyond the cores left park between chunks of groups and take
// work again as the copies give their cores back (ThreadPool). So the CPU
// computes beside the staged copies on the cores they leave, instead of
// waiting for them or fighting them.
//
// SKMD_STAGING_LEND=0 keeps the older order: the CPU starts only after the
// staged inputs (for comparisons).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_HOSTCORES_H
#define SKMD_DEVICES_HOSTCORES_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace skmd {

class HostCores {
public:
  /// The process's one account of lent cores.
  static HostCores &instance();

  /// Whether the CPU device lends cores to copies and computes beside
  /// them (SKMD_STAGING_LEND, default on); else it computes after them.
  static bool lending();

  /// Cores held by copies for as long as it lives.
  class Loan {
  public:
    Loan() = default;
    Loan(Loan &&Other) noexcept : Owner(Other.Owner), Cores(Other.Cores) {
      Other.Owner = nullptr;
    }
    Loan &operator=(Loan &&Other) noexcept {
      if (this != &Other) {
        end();
        Owner = Other.Owner;
        Cores = Other.Cores;
        Other.Owner = nullptr;
      }
      return *this;
    }
    ~Loan() { end(); }
    /// Gives the cores back now.
    void end();

  private:
    friend class HostCores;
    Loan(HostCores *Owner, unsigned Cores) : Owner(Owner), Cores(Cores) {}
    HostCores *Owner = nullptr;
    unsigned Cores = 0;
  };

  /// \p Cores taken by a copy until the loan ends (none when lending is off).
  [[nodiscard]] Loan borrow(unsigned Cores);

  /// Cores lent now.
  unsigned lent() const { return Lent.load(); }

  /// Of \p Threads that lend cores, how many keep computing while copies
  /// hold \p Lent, which first take the host's \p Idle cores that none of
  /// the threads use: at least one. The one rule for the CPU device's pool
  /// (ThreadPool) and the partitioner's estimate of it.
  static unsigned threadsLeft(unsigned Threads, unsigned Lent, unsigned Idle) {
    Lent -= std::min(Lent, Idle);
    return Threads - std::min(Lent, Threads ? Threads - 1 : 0);
  }

  /// Blocks until \p Resume (given the cores lent) holds, checked whenever
  /// the cores lent change or wake() is called.
  void waitUntil(const std::function<bool(unsigned Lent)> &Resume);
  /// Wakes waitUntil's callers to check their condition again (a pool's
  /// job ran out of work).
  void wake();

private:
  void giveBack(unsigned Cores);

  /// Changed under Lock, so that waitUntil's condition sees every change;
  /// read without it between every chunk of groups.
  std::mutex Lock;
  std::condition_variable Changed;
  std::atomic<unsigned> Lent{0};
};

} // namespace skmd

#endif // SKMD_DEVICES_HOSTCORES_H
