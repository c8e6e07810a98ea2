//===- SharedMemory.cpp - Memory a client shares with skmd-server ---------===//
#include "devices/remote/SharedMemory.h"
#include "devices/remote/ServerLink.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skmd {

namespace {

std::string errnoText() { return std::strerror(errno); }

uint64_t pageRounded(uint64_t Bytes) {
  uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
  return (std::max<uint64_t>(Bytes, 1) + Page - 1) / Page * Page;
}

std::mutex PublishedLock;
/// By first byte.
std::map<const char *, std::shared_ptr<SharedSegment>> Published;

} // namespace

Result<std::shared_ptr<SharedSegment>> SharedSegment::create(uint64_t Bytes) {
  static std::atomic<uint64_t> Next{1};
  uint64_t Size = pageRounded(Bytes);
  int Fd = ::memfd_create("skmd-shared", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (Fd < 0)
    return Failure(ErrorCode::OutOfMemory, "memfd_create: " + errnoText());
  if (::ftruncate(Fd, off_t(Size)) < 0 ||
      ::fcntl(Fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
    std::string Why = errnoText();
    ::close(Fd);
    return Failure(ErrorCode::OutOfMemory,
                   "a shared segment of " + std::to_string(Size) + " bytes: " + Why);
  }
  void *P = ::mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (P == MAP_FAILED) {
    std::string Why = errnoText();
    ::close(Fd);
    return Failure(ErrorCode::OutOfMemory,
                   "mapping a shared segment of " + std::to_string(Size) + " bytes: " + Why);
  }
  return std::shared_ptr<SharedSegment>(
      new SharedSegment(Next++, Fd, static_cast<char *>(P), Size));
}

SharedSegment::~SharedSegment() {
  for (const std::weak_ptr<ServerLink> &W : Links)
    if (auto L = W.lock())
      L->unshare(Id);
  ::munmap(Base, Bytes);
  ::close(Fd);
}

bool SharedSegment::holds(const void *P, uint64_t N) const {
  auto *C = static_cast<const char *>(P);
  return C >= Base && uint64_t(C - Base) <= Bytes && N <= Bytes - uint64_t(C - Base);
}

void SharedSegment::sharedWith(const std::shared_ptr<ServerLink> &Link) {
  std::lock_guard<std::mutex> G(Lock);
  Links.push_back(Link);
}

void publishSegment(std::shared_ptr<SharedSegment> S) {
  std::lock_guard<std::mutex> G(PublishedLock);
  const char *Base = S->data();
  Published[Base] = std::move(S);
}

std::shared_ptr<SharedSegment> withdrawSegment(const void *Base) {
  std::lock_guard<std::mutex> G(PublishedLock);
  auto It = Published.find(static_cast<const char *>(Base));
  if (It == Published.end())
    return nullptr;
  auto S = std::move(It->second);
  Published.erase(It);
  return S;
}

std::shared_ptr<SharedSegment> segmentHolding(const void *P, uint64_t N) {
  std::lock_guard<std::mutex> G(PublishedLock);
  auto It = Published.upper_bound(static_cast<const char *>(P));
  if (It == Published.begin())
    return nullptr;
  --It;
  return It->second->holds(P, N) ? It->second : nullptr;
}

Result<std::unique_ptr<MappedSegment>> MappedSegment::map(int Fd, uint64_t Bytes) {
  struct Closer {
    int Fd;
    ~Closer() { ::close(Fd); }
  } Close{Fd};
  struct stat St;
  if (::fstat(Fd, &St) < 0)
    return Failure(ErrorCode::InvalidArgument, "a shared segment: fstat: " + errnoText());
  // Only a memfd sealed against shrinking keeps its pages while mapped: a
  // client that truncated a plain file would crash the server (SIGBUS).
  int Seals = ::fcntl(Fd, F_GET_SEALS);
  if (!S_ISREG(St.st_mode) || Seals < 0 || !(Seals & F_SEAL_SHRINK))
    return Failure(ErrorCode::InvalidArgument,
                   "a shared segment must be a memfd sealed against shrinking");
  if (Bytes == 0 || uint64_t(St.st_size) < Bytes)
    return Failure(ErrorCode::InvalidArgument,
                   "a shared segment of " + std::to_string(St.st_size) + " bytes, where " +
                       std::to_string(Bytes) + " were announced");
  void *P = ::mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (P == MAP_FAILED)
    return Failure(ErrorCode::OutOfMemory, "mapping a shared segment of " +
                                               std::to_string(Bytes) + " bytes: " + errnoText());
  return std::unique_ptr<MappedSegment>(new MappedSegment(static_cast<char *>(P), Bytes));
}

MappedSegment::~MappedSegment() { ::munmap(Base, Bytes); }

} // namespace skmd
