//===- StreamCopy.cpp - memcpy that leaves the cache alone -----------------===//
#include "devices/StreamCopy.h"

#include <algorithm>
#include <cstring>
#include <immintrin.h>

namespace skmd {

namespace {

__attribute__((target("avx2"))) void streamCopyAvx2(char *Dst, const char *Src,
                                                    uint64_t N) {
  uint64_t Head = std::min<uint64_t>(N, (32 - (reinterpret_cast<uintptr_t>(Dst) & 31)) & 31);
  std::memcpy(Dst, Src, Head);
  Dst += Head;
  Src += Head;
  N -= Head;
  uint64_t I = 0;
  for (; I + 128 <= N; I += 128) {
    __m256i A = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Src + I));
    __m256i B = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Src + I + 32));
    __m256i C = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Src + I + 64));
    __m256i D = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Src + I + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i *>(Dst + I), A);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(Dst + I + 32), B);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(Dst + I + 64), C);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(Dst + I + 96), D);
  }
  std::memcpy(Dst + I, Src + I, N - I);
  _mm_sfence();
}

} // namespace

void streamCopy(void *Dst, const void *Src, uint64_t N) {
  static const bool Avx2 = __builtin_cpu_supports("avx2");
  if (Avx2)
    streamCopyAvx2(static_cast<char *>(Dst), static_cast<const char *>(Src), N);
  else
    std::memcpy(Dst, Src, N);
}

} // namespace skmd
