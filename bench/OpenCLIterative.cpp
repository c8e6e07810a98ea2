//===- OpenCLIterative.cpp - Many launches through plain OpenCL -----------===//
//
// opencl-iterative [--apps=stencil,nbody] [--steps=N] [--n=N] [--bodies=N]
//                  [--devices=all|LABEL,...] [--kernels-dir=DIR] [--json=FILE]
//
// An application that knows nothing of SKMD: its host code is plain OpenCL
// (clCreateBuffer, clEnqueueWriteBuffer, clEnqueueNDRangeKernel in a loop,
// clEnqueueReadBuffer), run on every OpenCL device the ICD loader lists
// (PoCL's CPU, NVIDIA's GPUs, the SKMD platform's device when it is
// registered). Two iterative applications:
//   stencil  --steps Jacobi steps (bench/kernels/jacobi2d.cl) on an n x n
//            grid, ping-ponging between two buffers;
//   nbody    --steps time steps (bench/kernels/nbody.cl) of --bodies bodies.
// Per device: the whole run (inputs written, the steps, outputs read), the
// first step (one-time costs: JIT, SKMD's profiling) and each step after; on the SKMD platform also the bytes each step
// moved to and from its devices (skmd/cl_skmd.h; median from the third step
// on, when both buffers have served both roles) and the last step's plan.
// Results are checked: the stencil against the same steps on the host, the
// bodies against the first device's (relative to the largest magnitude).
// Exits 1 when a result is off or a device fails.
//
//===----------------------------------------------------------------------===//
#include "skmd/cl_skmd.h"
#include "suite/ClKernel.h"
#include "suite/OpenCL.h"
#include "suite/Text.h"
#include "suite/Timing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace skmd::bench;

namespace {

struct Options {
  std::vector<std::string> Apps{"stencil", "nbody"};
  unsigned Steps = 100;
  int N = 4096;
  unsigned Bodies = 16384;
  std::string Devices = "all";
  std::string KernelsDir = SKMD_BENCH_KERNELS_DIR;
  std::string Json;
};

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// One application's run on one device.
struct Outcome {
  std::string Error;
  double TotalMs = 0, FirstStepMs = 0, StepMs = 0;
  bool Skmd = false;
  double BytesInPerStep = 0, BytesOutPerStep = 0;
  std::string LastPlan;
  std::vector<float> Result;
  double MaxError = 0;
  std::vector<cl_event> Events; ///< SKMD: each step's, until counted.
};

#define CHECK_CL(Call)                                                                       \
  do {                                                                                       \
    cl_int Err_ = (Call);                                                                    \
    if (Err_ != CL_SUCCESS) {                                                                \
      O.Error = std::string(#Call).substr(0, std::string(#Call).find('(')) + " failed: " +   \
                std::to_string(Err_);                                                        \
      return O;                                                                              \
    }                                                                                        \
  } while (0)

/// The buffers of one run: released however it ends.
struct Mems {
  std::vector<cl_mem> M;
  ~Mems() {
    for (cl_mem X : M)
      if (X)
        clReleaseMemObject(X);
  }
};

/// On the SKMD platform: what step \p E moved, and its plan.
void skmdStep(cl_event E, std::vector<double> &In, std::vector<double> &Out, std::string &Plan) {
  cl_ulong To = 0, From = 0;
  clGetEventInfo(E, CL_EVENT_SKMD_BYTES_TO_DEVICES, sizeof To, &To, nullptr);
  clGetEventInfo(E, CL_EVENT_SKMD_BYTES_FROM_DEVICES, sizeof From, &From, nullptr);
  In.push_back(double(To));
  Out.push_back(double(From));
  char Text[512] = {0};
  clGetEventInfo(E, CL_EVENT_SKMD_PLAN, sizeof Text, Text, nullptr);
  Plan = Text;
}

/// Runs the launches of \p Steps steps, each with \p SetArgs(step) first:
/// the first alone (it carries one-time costs: a driver's JIT, SKMD's
/// profiling of a kernel it has no profiles of), then the others without
/// waiting; times both. On the SKMD platform each step's event is kept
/// for countSkmd.
template <typename SetArgs>
std::string runSteps(ClKernel &Ob, unsigned Steps, cl_uint Dims, const size_t *Offset,
                     const size_t *Global, const size_t *Local, bool Skmd, SetArgs Set,
                     Outcome &O) {
  double Start = nowMs(), Rest = Start;
  for (unsigned S = 0; S < Steps; ++S) {
    if (S == 1) {
      if (cl_int Err = clFinish(Ob.Q); Err != CL_SUCCESS)
        return "clFinish failed: " + std::to_string(Err);
      Rest = nowMs();
      O.FirstStepMs = Rest - Start;
    }
    Set(S);
    cl_event E = nullptr;
    cl_int Err = clEnqueueNDRangeKernel(Ob.Q, Ob.K, Dims, Offset, Global, Local, 0, nullptr,
                                        Skmd ? &E : nullptr);
    if (Err != CL_SUCCESS)
      return "clEnqueueNDRangeKernel failed: " + std::to_string(Err);
    if (Skmd)
      O.Events.push_back(E);
  }
  if (cl_int Err = clFinish(Ob.Q); Err != CL_SUCCESS)
    return "clFinish failed: " + std::to_string(Err);
  if (Steps == 1)
    O.FirstStepMs = nowMs() - Start;
  else
    O.StepMs = (nowMs() - Rest) / (Steps - 1);
  return "";
}

/// After the steps: what each moved (median from the third on) and the
/// last one's plan; releases the events.
void countSkmd(Outcome &O) {
  std::vector<double> In, Out;
  for (cl_event E : O.Events) {
    skmdStep(E, In, Out, O.LastPlan);
    clReleaseEvent(E);
  }
  O.Events.clear();
  if (In.size() > 2) {
    O.BytesInPerStep = median(std::vector<double>(In.begin() + 2, In.end()));
    O.BytesOutPerStep = median(std::vector<double>(Out.begin() + 2, Out.end()));
  }
}

Outcome runStencil(const Options &Opt, const ClDeviceInfo &D, const std::string &Source,
                   const std::vector<float> &Grid) {
  Outcome O;
  O.Skmd = D.Platform == "SKMD";
  ClKernel Ob;
  if ((O.Error = Ob.build(D, Source, "-cl-std=CL1.2", "jacobi2d")) != "")
    return O;
  const int N = Opt.N;
  size_t Bytes = Grid.size() * sizeof(float);
  Mems B;
  cl_int E;
  for (int I = 0; I < 2; ++I) {
    B.M.push_back(clCreateBuffer(Ob.Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &E));
    CHECK_CL(E);
  }
  CHECK_CL(clSetKernelArg(Ob.K, 2, sizeof N, &N));
  double Start = nowMs();
  // Both buffers start as the grid: the border is never written.
  for (cl_mem M : B.M)
    CHECK_CL(clEnqueueWriteBuffer(Ob.Q, M, CL_FALSE, 0, Bytes, Grid.data(), 0, nullptr, nullptr));
  size_t Offset[2] = {1, 1}, Global[2] = {size_t(N - 2), size_t(N - 2)};
  size_t Local[2] = {16, 16};
  // The interior is a multiple of the group only when n - 2 is.
  const size_t *L = (N - 2) % 16 == 0 ? Local : nullptr;
  if ((O.Error = runSteps(Ob, Opt.Steps, 2, Offset, Global, L, O.Skmd,
                          [&](unsigned S) {
                            clSetKernelArg(Ob.K, 0, sizeof(cl_mem), &B.M[S % 2]);
                            clSetKernelArg(Ob.K, 1, sizeof(cl_mem), &B.M[(S + 1) % 2]);
                          },
                          O)) != "")
    return O;
  countSkmd(O);
  O.Result.resize(Grid.size());
  CHECK_CL(clEnqueueReadBuffer(Ob.Q, B.M[Opt.Steps % 2], CL_TRUE, 0, Bytes, O.Result.data(), 0,
                               nullptr, nullptr));
  O.TotalMs = nowMs() - Start;
  return O;
}

Outcome runNBody(const Options &Opt, const ClDeviceInfo &D, const std::string &Source,
                 const std::vector<float> &Pos, const std::vector<float> &Vel) {
  Outcome O;
  O.Skmd = D.Platform == "SKMD";
  ClKernel Ob;
  if ((O.Error = Ob.build(D, Source, "-cl-std=CL1.2", "nbody_step")) != "")
    return O;
  size_t Bytes = Pos.size() * sizeof(float);
  Mems B; // pos, vel, pos', vel'
  cl_int E;
  for (int I = 0; I < 4; ++I) {
    B.M.push_back(clCreateBuffer(Ob.Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &E));
    CHECK_CL(E);
  }
  float Dt = 0.005f, Eps2 = 0.01f;
  cl_uint N = Opt.Bodies;
  CHECK_CL(clSetKernelArg(Ob.K, 4, sizeof Dt, &Dt));
  CHECK_CL(clSetKernelArg(Ob.K, 5, sizeof Eps2, &Eps2));
  CHECK_CL(clSetKernelArg(Ob.K, 6, sizeof N, &N));
  double Start = nowMs();
  CHECK_CL(clEnqueueWriteBuffer(Ob.Q, B.M[0], CL_FALSE, 0, Bytes, Pos.data(), 0, nullptr, nullptr));
  CHECK_CL(clEnqueueWriteBuffer(Ob.Q, B.M[1], CL_FALSE, 0, Bytes, Vel.data(), 0, nullptr, nullptr));
  size_t Global = N, Local = 256;
  if ((O.Error = runSteps(Ob, Opt.Steps, 1, nullptr, &Global, &Local, O.Skmd,
                          [&](unsigned S) {
                            unsigned From = S % 2 ? 2 : 0, To = S % 2 ? 0 : 2;
                            clSetKernelArg(Ob.K, 0, sizeof(cl_mem), &B.M[From]);
                            clSetKernelArg(Ob.K, 1, sizeof(cl_mem), &B.M[From + 1]);
                            clSetKernelArg(Ob.K, 2, sizeof(cl_mem), &B.M[To]);
                            clSetKernelArg(Ob.K, 3, sizeof(cl_mem), &B.M[To + 1]);
                          },
                          O)) != "")
    return O;
  countSkmd(O);
  O.Result.resize(Pos.size());
  CHECK_CL(clEnqueueReadBuffer(Ob.Q, B.M[Opt.Steps % 2 ? 2 : 0], CL_TRUE, 0, Bytes,
                               O.Result.data(), 0, nullptr, nullptr));
  O.TotalMs = nowMs() - Start;
  return O;
}

void hostStencil(std::vector<float> &G, int N, unsigned Steps) {
  std::vector<float> Next = G;
  for (unsigned S = 0; S < Steps; ++S) {
    for (int Y = 1; Y < N - 1; ++Y)
      for (int X = 1; X < N - 1; ++X) {
        size_t I = size_t(Y) * N + X;
        Next[I] = 0.25f * (G[I - 1] + G[I + 1] + G[I - N] + G[I + N]);
      }
    std::swap(G, Next);
  }
}

/// The largest difference, relative to the largest magnitude of \p Ref.
double maxError(const std::vector<float> &Got, const std::vector<float> &Ref) {
  double Scale = 0, Diff = 0;
  for (size_t I = 0; I < Ref.size(); ++I) {
    Scale = std::max(Scale, double(std::fabs(Ref[I])));
    double D = std::fabs(double(Got[I]) - double(Ref[I]));
    if (!(D <= Diff)) // NaN counts as the largest
      Diff = std::isnan(D) ? INFINITY : D;
  }
  return Scale > 0 ? Diff / Scale : Diff;
}

int usage(const char *Why) {
  if (Why)
    std::fprintf(stderr, "opencl-iterative: %s\n", Why);
  std::fprintf(Why ? stderr : stdout,
               "usage: opencl-iterative [--apps=stencil,nbody] [--steps=N] [--n=N] "
               "[--bodies=N]\n"
               "                        [--devices=all|LABEL,...] [--kernels-dir=DIR] "
               "[--json=FILE]\n"
               "Plain OpenCL host code, many launches, on each OpenCL device the loader lists\n"
               "(register the SKMD platform to include it: scripts/register-opencl.sh).\n"
               "  --steps=N    launches per application (default 100)\n"
               "  --n=N        the stencil's grid is n x n floats (default 4096)\n"
               "  --bodies=N   n-body's bodies, a multiple of 256 (default 16384)\n"
               "  --devices    device labels as skmd-bench --opencl names them (default all)\n");
  return Why ? 2 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options Opt;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Name, std::string &Out) {
      std::string P = std::string(Name) + "=";
      if (A.rfind(P, 0) != 0)
        return false;
      Out = A.substr(P.size());
      return true;
    };
    auto Number = [&](const std::string &V, long Min, long &Out) {
      char *End = nullptr;
      Out = std::strtol(V.c_str(), &End, 10);
      return !V.empty() && !*End && Out >= Min && Out <= (1L << 30);
    };
    std::string V;
    long Num = 0;
    if (A == "--help" || A == "-h")
      return usage(nullptr);
    if (Value("--apps", V)) {
      Opt.Apps = splitList(V);
      for (const std::string &App : Opt.Apps)
        if (App != "stencil" && App != "nbody")
          return usage(("no application '" + App + "' (stencil, nbody)").c_str());
    } else if (Value("--steps", V)) {
      if (!Number(V, 1, Num))
        return usage("--steps needs a count of at least 1");
      Opt.Steps = unsigned(Num);
    } else if (Value("--n", V)) {
      if (!Number(V, 3, Num))
        return usage("--n needs a size of at least 3");
      Opt.N = int(Num);
    } else if (Value("--bodies", V)) {
      if (!Number(V, 256, Num) || Num % 256)
        return usage("--bodies needs a multiple of 256");
      Opt.Bodies = unsigned(Num);
    } else if (Value("--devices", Opt.Devices) || Value("--kernels-dir", Opt.KernelsDir) ||
               Value("--json", Opt.Json)) {
    } else {
      return usage(("unknown option '" + A + "'").c_str());
    }
  }

  std::string Why;
  std::vector<ClDeviceInfo> Devices = listOpenClDevices(Why);
  if (Opt.Devices != "all") {
    std::vector<std::string> Wanted = splitList(Opt.Devices);
    for (const std::string &W : Wanted)
      if (std::none_of(Devices.begin(), Devices.end(),
                       [&](const ClDeviceInfo &D) { return D.Label == W; }))
        return usage(("no OpenCL device '" + W + "'").c_str());
    Devices.erase(std::remove_if(Devices.begin(), Devices.end(),
                                 [&](const ClDeviceInfo &D) {
                                   return std::find(Wanted.begin(), Wanted.end(), D.Label) ==
                                          Wanted.end();
                                 }),
                  Devices.end());
  }
  if (Devices.empty()) {
    std::fprintf(stderr, "opencl-iterative: no OpenCL device: %s\n", Why.c_str());
    return 1;
  }

  bool AllOk = true;
  nlohmann::json J = {{"steps", Opt.Steps}, {"machine", cpuModel()}};
  for (const std::string &App : Opt.Apps) {
    std::string Source;
    std::string File = App == "stencil" ? "jacobi2d.cl" : "nbody.cl";
    if (std::string E = readFile(Opt.KernelsDir + "/" + File, Source); !E.empty()) {
      std::fprintf(stderr, "opencl-iterative: %s\n", E.c_str());
      return 1;
    }
    std::vector<float> A, B, Ref;
    std::mt19937 Rng(42);
    std::uniform_real_distribution<float> U(-1.0f, 1.0f);
    std::string Size;
    if (App == "stencil") {
      A.assign(size_t(Opt.N) * Opt.N, 0.0f);
      for (int X = 0; X < Opt.N; ++X)
        A[size_t(X)] = 100.0f; // a hot top edge
      Ref = A;
      hostStencil(Ref, Opt.N, Opt.Steps);
      Size = std::to_string(Opt.N) + "x" + std::to_string(Opt.N);
    } else {
      A.resize(size_t(Opt.Bodies) * 4);
      B.assign(A.size(), 0.0f);
      for (size_t I = 0; I < A.size(); ++I)
        A[I] = I % 4 == 3 ? 0.5f + 0.5f * std::fabs(U(Rng)) : 10.0f * U(Rng);
      Size = std::to_string(Opt.Bodies) + " bodies";
    }
    std::printf("%s (%s, %u steps): ms: whole run, first step, each step after; on SKMD: "
                "bytes per step to / from its devices, plan\n",
                App.c_str(), Size.c_str(), Opt.Steps);
    nlohmann::json JApp = nlohmann::json::array();
    for (const ClDeviceInfo &D : Devices) {
      Outcome O = App == "stencil" ? runStencil(Opt, D, Source, A) : runNBody(Opt, D, Source, A, B);
      if (O.Error.empty()) {
        if (Ref.empty())
          Ref = O.Result; // n-body: the first device is the reference
        O.MaxError = maxError(O.Result, Ref);
      }
      // The stencil's sums differ by rounding only; n-body's rsqrt does too,
      // grown over the steps.
      double Tolerance = App == "stencil" ? 1e-5 : 1e-3;
      bool Ok = O.Error.empty() && O.MaxError <= Tolerance;
      AllOk &= Ok;
      std::printf("  %-12s %-34.34s %10.2f %9.2f %9.3f  %s", D.Label.c_str(), D.Name.c_str(),
                  O.TotalMs, O.FirstStepMs, O.StepMs,
                  Ok ? "ok" : ("FAIL: " + (O.Error.empty() ? "error " + std::to_string(O.MaxError)
                                                           : O.Error))
                                  .c_str());
      if (O.Skmd)
        std::printf("; %.0f / %.0f bytes; %s", O.BytesInPerStep, O.BytesOutPerStep,
                    O.LastPlan.c_str());
      std::printf("\n");
      nlohmann::json JD = {{"device", D.Label},       {"name", D.Name},
                           {"total_ms", O.TotalMs},   {"first_step_ms", O.FirstStepMs},
                           {"step_ms", O.StepMs},
                           {"ok", Ok},                {"max_error", O.MaxError},
                           {"error", O.Error}};
      if (O.Skmd) {
        JD["bytes_to_devices_per_step"] = O.BytesInPerStep;
        JD["bytes_from_devices_per_step"] = O.BytesOutPerStep;
        JD["plan"] = O.LastPlan;
      }
      JApp.push_back(JD);
    }
    J[App] = {{"size", Size}, {"devices", JApp}};
  }
  if (!Opt.Json.empty()) {
    std::ofstream Out(Opt.Json);
    Out << J.dump(2) << "\n";
    if (!Out) {
      std::fprintf(stderr, "opencl-iterative: cannot write %s\n", Opt.Json.c_str());
      return 1;
    }
  }
  return AllOk ? 0 : 1;
}
