//===- CpuBarrierTest.cpp - Barriers, scans and ranges on the CPU device --===//
//
// test/corpus/barriers.cl, lockstep.cl, ranges.cl and work_dim.cl against
// C++: barriers in loops and uniform conditions, __local memory given by
// the host and static, scans, early returns, programs that count on
// work-items running in step, and the work-item functions over 1-, 2- and
// 3-D ranges with offsets.
//
//===----------------------------------------------------------------------===//
#include "common/KernelHarness.h"

#include <cmath>

using namespace skmd;
using namespace skmd::test;

namespace {

using CpuBarriers = CpuKernelTest;
using CpuRanges = CpuKernelTest;

// The lockstep kernels race on __local memory, which OpenCL C leaves
// undefined; SKMD's CPU keeps every slot, other drivers need not.
const char *const kRacyOnOtherDrivers =
    "a race on __local memory: Intel's CPU runtime runs 16 work-items in "
    "step and keeps only the last 16 slots (measured)";

TEST_F(CpuBarriers, AllPairsThroughATileInALoop) {
  const uint32_t N = 512, L = 64;
  // Dyadic inputs: every |x[i] - x[j]| and partial sum is exact.
  auto X = dyadicFloats(N, Rng);
  KernelRun R("barriers", "all_pairs_l1", launch({N / L, 1, 1}, {L, 1, 1}, 1));
  R.buffer(X)
      .buffer(std::vector<float>(N))
      .local(L * sizeof(float))
      .scalar(int(N));
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      float Acc = 0;
      for (uint32_t J = 0; J < N; ++J)
        Acc += std::fabs(X[I] - X[J]);
      Out.buffer<float>(1)[I] = Acc;
    }
  };
  check(R);
}

// A barrier in a uniform loop around a varying branch that holds an inner
// loop: the implicit barriers must not go into that loop (it crashed).
TEST_F(CpuBarriers, LuShapeUniformLoopUnderAVaryingBranch) {
  const uint32_t L = 16, Groups = 4, N = L * Groups * 16;
  auto A = dyadicFloats(N, Rng);
  KernelRun R("barriers", "lu_shape", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(A);
  R.Reference = [&](Args &Out) {
    auto Got = Out.buffer<float>(0);
    for (uint32_t G = 0; G < Groups; ++G)
      for (uint32_t T = 0; T < L; ++T)
        for (uint32_t I = 0; I < 3; ++I)
          if (T > I) {
            float &V = Got[G * L * 16 + T * 16 + I];
            V = (V + float(I)) * 0.5f;
          }
  };
  check(R);
}

// Barriers with nothing between them: each block between two barriers is
// a sub-CFG of its own (the build failed).
TEST_F(CpuBarriers, BarriersInARow) {
  const int L = 64, Groups = 6, N = L * Groups;
  auto In = randomInts<int32_t>(N, Rng, -1000, 1000);
  KernelRun R("barriers", "barriers_in_a_row", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In).local(L * sizeof(int32_t)).scalar(int32_t(7));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G)
      for (int T = 0; T < L; ++T) {
        int Src = (T + 2) % L;
        Out.buffer<int32_t>(0)[G * L + T] = In[G * L + (Src + 1) % L] * 2 + 7;
      }
  };
  check(R);
}

// Every work-item zeroes the whole __local buffer (a memset after
// optimization), then writes its slot, then waits: run item after item,
// each zeroing wiped the slots before it; PoCL keeps them all.
TEST_F(CpuBarriers, ZeroTheBufferThenWriteMySlot) {
  const int L = 64, Groups = 8, N = L * Groups;
  KernelRun R("lockstep", "zero_then_slot", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.gpusDiffer(kRacyOnOtherDrivers);
  R.buffer(std::vector<int32_t>(N)).local(L * sizeof(int32_t));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G)
      for (int T = 0; T < L; ++T)
        Out.buffer<int32_t>(0)[G * L + T] = L - T;
  };
  check(R);
}

// The same with a fill that stays a loop.
TEST_F(CpuBarriers, FillTheBufferThenWriteMySlot) {
  const int L = 64, Groups = 8, N = L * Groups;
  KernelRun R("lockstep", "fill_then_slot", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.gpusDiffer(kRacyOnOtherDrivers);
  R.buffer(std::vector<float>(N));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G)
      for (int T = 0; T < L; ++T)
        Out.buffer<float>(0)[G * L + T] = float(L - 1 - T);
  };
  check(R);
}

// A Haar wavelet transform that zeroes its buffer at each level of a loop
// holding barriers.
TEST_F(CpuBarriers, HaarLevelsZeroingTheBufferInALoopWithBarriers) {
  const int L = 64, Groups = 8, N = L * Groups;
  auto In = dyadicFloats(N, Rng); // Averages and half-differences: exact.
  KernelRun R("lockstep", "haar_levels", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.gpusDiffer(kRacyOnOtherDrivers);
  R.buffer(In).buffer(std::vector<float>(N)).local(L * sizeof(float));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G) {
      std::vector<float> V(In.begin() + G * L, In.begin() + (G + 1) * L);
      for (int Width = L; Width > 1; Width /= 2) {
        std::vector<float> Buf(V.begin(), V.begin() + Width);
        int Half = Width / 2;
        for (int T = 0; T < Half; ++T) {
          V[T] = (Buf[2 * T] + Buf[2 * T + 1]) * 0.5f;
          V[Half + T] = (Buf[2 * T] - Buf[2 * T + 1]) * 0.5f;
        }
      }
      std::copy(V.begin(), V.end(), &Out.buffer<float>(1)[G * L]);
    }
  };
  check(R);
}

// Each work-item's private array, written after a barrier through a
// pointer chosen by a loop's PHI (SHOC's radix sort).
TEST_F(CpuBarriers, PrivateArrayAcrossBarriers) {
  const int L = 64, Groups = 3, N = L * Groups;
  KernelRun R("barriers", "private_array_across_barriers",
              launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(std::vector<int32_t>(N)).local(L * sizeof(int32_t));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G)
      for (int T = 0; T < L; ++T) {
        int Next = (T + 1) % L;
        int H0 = (0 + Next) * 3, H1 = (4 + Next) * 3;
        Out.buffer<int32_t>(0)[G * L + T] = H0 * 1000 + H1;
      }
  };
  check(R);
}

// A __local scalar one work-item updates for the others' next pass.
TEST_F(CpuBarriers, LocalScalarUpdatedByOneItemAcrossPasses) {
  const int L = 64, Groups = 2;
  KernelRun R("barriers", "local_seed_across_passes", launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(std::vector<int32_t>(3 * L)).scalar(int32_t(L));
  R.Reference = [&](Args &Out) {
    // Both groups write the same values.
    for (int D = 0; D < 3; ++D)
      for (int T = 0; T < L; ++T)
        Out.buffer<int32_t>(0)[L * D + T] = T + D * L;
  };
  check(R);
}

TEST_F(CpuBarriers, BarriersInAUniformCondition) {
  const int WG = 64, Groups = 10, N = WG * Groups;
  auto In = randomInts<int32_t>(N, Rng, -1000000, 1000000);
  // Both branches: n > 16 for the whole launch, then n <= 16.
  for (int Cond : {40, 8}) {
    SCOPED_TRACE("n = " + std::to_string(Cond));
    KernelRun R("barriers", "uniform_branch",
                launch({Groups, 1, 1}, {WG, 1, 1}, 1));
    R.buffer(In).buffer(std::vector<int32_t>(N)).scalar(Cond);
    R.Reference = [&](Args &Out) {
      for (int G = 0; G < Groups; ++G) {
        const int32_t *Buf = &In[G * WG];
        std::vector<int32_t> V(WG);
        for (int L = 0; L < WG; ++L)
          V[L] = Cond > 16 ? Buf[L] + Buf[(L + Cond) % WG]
                           : Buf[L] - Buf[WG - 1 - L];
        for (int L = 0; L < WG; ++L)
          Out.buffer<int32_t>(1)[G * WG + L] = V[L] * 2 + V[(L + 1) % WG];
      }
    };
    check(R);
  }
}

TEST_F(CpuBarriers, BarrierInAConditionOnTheGroup) {
  const int WG = 64, Groups = 7, N = WG * Groups;
  auto In = randomInts<int32_t>(N, Rng, -1000000, 1000000);
  KernelRun R("barriers", "group_branch",
              launch({Groups, 1, 1}, {WG, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<int32_t>(N));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G)
      for (int L = 0; L < WG; ++L)
        Out.buffer<int32_t>(1)[G * WG + L] =
            G % 3 == 0 ? In[G * WG + WG - 1 - L] - In[G * WG + L]
                       : In[G * WG + L];
  };
  check(R);
}

TEST_F(CpuBarriers, FourBarriersInSequence) {
  const int WG = 64, Groups = 6, N = WG * Groups;
  auto In = randomInts<int32_t>(N, Rng, -1000000, 1000000);
  KernelRun R("barriers", "barrier_sequence",
              launch({Groups, 1, 1}, {WG, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<int32_t>(N));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G) {
      std::vector<int32_t> A(In.begin() + G * WG, In.begin() + (G + 1) * WG),
          B(WG);
      for (int L = 0; L < WG; ++L)
        B[L] = A[(L + 1) % WG] - A[L];
      for (int L = 0; L < WG; ++L)
        A[L] = B[WG - 1 - L] * 3;
      for (int L = 0; L < WG; ++L)
        B[L] = A[(L * 5) % WG] ^ A[L];
      for (int L = 0; L < WG; ++L)
        Out.buffer<int32_t>(1)[G * WG + L] = B[(L + 7) % WG] + L;
    }
  };
  check(R);
}

TEST_F(CpuBarriers, BarrierLoopAroundAWorkItemDependentLoop) {
  // A group size that is no power of two.
  const int L = 48, Groups = 5, N = L * Groups, Steps = 6;
  auto In = randomInts<int32_t>(N, Rng, -1000, 1000);
  KernelRun R("barriers", "wi_dependent_loop",
              launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In)
      .buffer(std::vector<int32_t>(N))
      .local(L * sizeof(int32_t))
      .scalar(Steps);
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G) {
      std::vector<int32_t> Acc(In.begin() + G * L, In.begin() + (G + 1) * L);
      for (int S = 0; S < Steps; ++S) {
        std::vector<int32_t> Buf = Acc;
        for (int Item = 0; Item < L; ++Item)
          for (int K = 1; K <= (Item + S) % 5; ++K)
            Acc[Item] += Buf[(Item + K) % L];
      }
      for (int Item = 0; Item < L; ++Item)
        Out.buffer<int32_t>(1)[G * L + Item] = Acc[Item];
    }
  };
  check(R);
}

TEST_F(CpuBarriers, HillisSteeleScanThroughTwoLocalArguments) {
  const int L = 96, Groups = 12, N = L * Groups;
  auto In = randomInts<int32_t>(N, Rng, -1000, 1000);
  KernelRun R("barriers", "scan_hillis_steele",
              launch({Groups, 1, 1}, {L, 1, 1}, 1));
  R.buffer(In)
      .buffer(std::vector<int32_t>(N))
      .buffer(std::vector<int32_t>(Groups))
      .local(L * sizeof(int32_t))
      .local(L * sizeof(int32_t));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G) {
      int32_t Sum = 0;
      for (int I = G * L; I < (G + 1) * L; ++I)
        Out.buffer<int32_t>(1)[I] = Sum += In[I];
      Out.buffer<int32_t>(2)[G] = Sum;
    }
  };
  check(R);
}

TEST_F(CpuBarriers, BlellochScanInAStaticLocalArray) {
  const int Scan = 128, Groups = 16, N = Scan * Groups;
  // Dyadic inputs: sums of up to 128 are exact in any order.
  auto In = dyadicFloats(N, Rng);
  KernelRun R("barriers", "scan_blelloch",
              launch({Groups, 1, 1}, {Scan / 2, 1, 1}, 1));
  R.buffer(In).buffer(std::vector<float>(N));
  R.Reference = [&](Args &Out) {
    for (int G = 0; G < Groups; ++G) {
      float Sum = 0;
      for (int I = G * Scan; I < (G + 1) * Scan; ++I) {
        Out.buffer<float>(1)[I] = Sum;
        Sum += In[I];
      }
    }
  };
  check(R);
}

TEST_F(CpuBarriers, EarlyReturnsWithATail) {
  const uint32_t N = 1000, L = 64;
  const int Limit = 90;
  auto Rows = randomInts<int32_t>(8 * N, Rng, 0, 100);
  KernelRun R("barriers", "early_exit",
              launch({(N + L - 1) / L, 1, 1}, {L, 1, 1}, 1));
  // Exactly N outputs: AddressSanitizer sees a work-item past the end.
  R.buffer(Rows).buffer(std::vector<int32_t>(N, 7)).scalar(Limit).scalar(N);
  R.Reference = [&](Args &Out) {
    for (uint32_t I = 0; I < N; ++I) {
      int32_t First = -1;
      for (int K = 0; K < 8 && First < 0; ++K)
        if (Rows[8 * I + K] > Limit)
          First = K;
      Out.buffer<int32_t>(1)[I] = First;
    }
  };
  check(R);
}

/// Global work-item coordinates of a launch, in linear id order.
struct Item {
  std::array<uint64_t, 3> Global, Local, Group;
};
std::vector<Item> itemsOf(const NDRange &L) {
  std::array<uint64_t, 3> Size;
  for (int D = 0; D < 3; ++D)
    Size[D] = L.NumGroups[D] * L.LocalSize[D];
  std::vector<Item> Items;
  for (uint64_t Z = 0; Z < Size[2]; ++Z)
    for (uint64_t Y = 0; Y < Size[1]; ++Y)
      for (uint64_t X = 0; X < Size[0]; ++X) {
        Item It;
        std::array<uint64_t, 3> P = {X, Y, Z};
        for (int D = 0; D < 3; ++D) {
          It.Global[D] = P[D] + L.GlobalOffset[D];
          It.Local[D] = P[D] % L.LocalSize[D];
          It.Group[D] = P[D] / L.LocalSize[D];
        }
        Items.push_back(It);
      }
  return Items;
}

TEST_F(CpuRanges, WorkItemFunctionsIn1D2DAnd3D) {
  for (NDRange L : {launch({5, 1, 1}, {8, 1, 1}, 1, {3, 0, 0}),
                      launch({3, 4, 1}, {4, 2, 1}, 2, {1, 2, 0}),
                      launch({3, 2, 2}, {4, 2, 8}, 3, {5, 7, 1})}) {
    SCOPED_TRACE(std::to_string(L.WorkDim) + "-D");
    std::vector<Item> Items = itemsOf(L);
    KernelRun R("ranges", "ids", L);
    R.buffer(std::vector<int32_t>(16 * Items.size(), -1));
    R.Reference = [&](Args &Out) {
      View<int32_t> O = Out.buffer<int32_t>(0);
      for (size_t I = 0; I < Items.size(); ++I) {
        const Item &It = Items[I];
        int32_t *P = &O[16 * I];
        P[0] = int32_t(I);
        P[1] = int32_t((It.Local[2] * L.LocalSize[1] + It.Local[1]) *
                           L.LocalSize[0] +
                       It.Local[0]);
        for (int D = 0; D < 3; ++D) {
          P[2 + D] = int32_t(It.Global[D]);
          P[5 + D] = int32_t(It.Group[D]);
          P[8 + D] = int32_t(L.NumGroups[D]);
          P[11 + D] = int32_t(L.GlobalOffset[D]);
        }
        auto Code = [](uint64_t A, uint64_t B, uint64_t C) {
          return int32_t(A * 10000 + B * 100 + C);
        };
        P[14] = Code(L.NumGroups[0] * L.LocalSize[0],
                     L.NumGroups[1] * L.LocalSize[1],
                     L.NumGroups[2] * L.LocalSize[2]);
        P[15] = Code(L.LocalSize[0], L.LocalSize[1], L.LocalSize[2]);
      }
    };
    check(R);
  }
}

TEST_F(CpuRanges, WorkDim) {
  for (NDRange L : {launch({7, 1, 1}, {16, 1, 1}, 1),
                      launch({2, 3, 1}, {8, 4, 1}, 2, {9, 0, 0}),
                      launch({2, 2, 3}, {2, 4, 3}, 3, {0, 1, 2})}) {
    SCOPED_TRACE(std::to_string(L.WorkDim) + "-D");
    std::vector<Item> Items = itemsOf(L);
    KernelRun R("work_dim", "work_dim", L);
    R.buffer(std::vector<uint32_t>(Items.size()));
    R.Reference = [&](Args &Out) {
      for (size_t I = 0; I < Items.size(); ++I) {
        const Item &It = Items[I];
        uint64_t LocalLinear =
            (It.Local[2] * L.LocalSize[1] + It.Local[1]) * L.LocalSize[0] +
            It.Local[0];
        Out.buffer<uint32_t>(0)[I] = uint32_t(L.WorkDim * 1000 + LocalLinear);
      }
    };
    check(R);
  }
}

TEST_F(CpuRanges, GuardedStencilIn2D) {
  // 50 x 37 in groups of 16 x 8: partial groups on both sides.
  const int W = 50, H = 37;
  auto In = randomFloats(W * H, Rng);
  KernelRun R("ranges", "blur_2d", launch({4, 5, 1}, {16, 8, 1}, 2));
  // Exactly W * H outputs, so a missing guard writes past the end.
  R.buffer(In).buffer(std::vector<float>(W * H)).scalar(W).scalar(H);
  // Four additions and a multiplication, in the kernel's order: exact.
  R.Reference = [&](Args &Out) {
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        int XL = std::max(X - 1, 0), XR = std::min(X + 1, W - 1);
        int YU = std::max(Y - 1, 0), YD = std::min(Y + 1, H - 1);
        float S = In[Y * W + X] + In[Y * W + XL] + In[Y * W + XR] +
                  In[YU * W + X] + In[YD * W + X];
        Out.buffer<float>(1)[Y * W + X] = S * 0.2f;
      }
  };
  check(R);
}

} // namespace
