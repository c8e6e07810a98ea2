/* Shared host code for the benchmark-shaped OpenCL programs in this folder:
   plain OpenCL 1.2 through the ICD loader, nothing platform-specific.

   Every program: picks the platform whose name or vendor contains
   $OCL_PLATFORM (case-insensitive; default the first platform), the first
   device of type DEFAULT (else ALL), builds <name>.cl found next to the
   executable (or in $OCL_PROGRAMS_DIR, or the source folder), checks every
   OpenCL return code (exit 2 on any error), compares with its own CPU
   reference and prints PASS or FAIL with a one-line summary (exit 1 on a
   mismatch). The problem size comes from `-s N`, $OCL_SIZE or $OCL_SCALE
   (a factor on the program's default). */
#ifndef PROGRAMS_COMMON_H
#define PROGRAMS_COMMON_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <ctype.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PROGRAMS_SOURCE_DIR
#define PROGRAMS_SOURCE_DIR "."
#endif

#define CHECK(X)                                                              \
  do {                                                                        \
    cl_int e_ = (X);                                                          \
    if (e_ != CL_SUCCESS)                                                     \
      ocl_fail(__FILE__, __LINE__, #X, e_);                                   \
  } while (0)

/* Sets kernel argument I to the value V (an lvalue). */
#define ARG(K, I, V) CHECK(clSetKernelArg((K), (I), sizeof(V), &(V)))
/* Sets kernel argument I to a __local array of BYTES. */
#define LOCAL_ARG(K, I, BYTES) CHECK(clSetKernelArg((K), (I), (BYTES), NULL))

typedef struct {
  const char *name;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
} Ocl;

static Ocl ocl;

static inline void ocl_fail(const char *file, int line, const char *what, cl_int err) {
  fprintf(stderr, "%s:%d: %s -> OpenCL error %d\n", file, line, what, err);
  printf("FAIL %s: OpenCL error %d\n", ocl.name ? ocl.name : "?", err);
  exit(2);
}

static inline void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

static inline int contains_nocase(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  for (; *haystack; ++haystack) {
    size_t i = 0;
    while (i < n && haystack[i] &&
           tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
      ++i;
    if (i == n)
      return 1;
  }
  return n == 0;
}

/* The size from `-s N` or $OCL_SIZE, else DEFAULT_SIZE times $OCL_SCALE
   (default 1), at least MINIMUM: each program says what its size is. */
static inline int ocl_size_given(int argc, char **argv, int default_size) {
  const char *text = getenv("OCL_SIZE");
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      text = argv[++i];
    else {
      fprintf(stderr, "usage: %s [-s N]\n", argv[0]);
      exit(2);
    }
  }
  const char *scale = getenv("OCL_SCALE");
  char *end;
  if (!text && scale) {
    double factor = strtod(scale, &end);
    if (*end || !(factor > 0) || factor * default_size > (double)(1L << 30)) {
      fprintf(stderr, "%s: bad OCL_SCALE '%s'\n", argv[0], scale);
      exit(2);
    }
    return factor * default_size < 1 ? 1 : (int)(factor * default_size);
  }
  if (!text)
    return default_size;
  long n = strtol(text, &end, 10);
  if (*end || n < 1 || n > (1L << 30)) {
    fprintf(stderr, "%s: bad size '%s'\n", argv[0], text);
    exit(2);
  }
  return (int)n;
}

static inline int ocl_size(int argc, char **argv, int default_size, int minimum) {
  int n = ocl_size_given(argc, argv, default_size);
  if (n < minimum) {
    fprintf(stderr, "%s: the size must be at least %d\n", argv[0], minimum);
    exit(2);
  }
  return n;
}

static inline char *read_source(const char *name) {
  char exe[4096], path[4200];
  const char *dirs[3];
  int ndirs = 0;
  if (getenv("OCL_PROGRAMS_DIR"))
    dirs[ndirs++] = getenv("OCL_PROGRAMS_DIR");
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    dirs[ndirs++] = dirname(exe);
  }
  dirs[ndirs++] = PROGRAMS_SOURCE_DIR;
  for (int d = 0; d < ndirs; ++d) {
    snprintf(path, sizeof path, "%s/%s.cl", dirs[d], name);
    FILE *f = fopen(path, "rb");
    if (!f)
      continue;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = xmalloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
      fprintf(stderr, "cannot read %s\n", path);
      exit(2);
    }
    text[size] = 0;
    fclose(f);
    return text;
  }
  fprintf(stderr, "%s.cl not found next to the program or in %s\n", name,
          PROGRAMS_SOURCE_DIR);
  exit(2);
}

static inline cl_platform_id pick_platform(void) {
  const char *want = getenv("OCL_PLATFORM");
  cl_platform_id platforms[32];
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(32, platforms, &count));
  for (cl_uint i = 0; i < count; ++i) {
    char name[256], vendor[256];
    CHECK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    CHECK(clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL));
    if (!want || contains_nocase(name, want) || contains_nocase(vendor, want))
      return platforms[i];
  }
  fprintf(stderr, "no OpenCL platform matches '%s'\n", want ? want : "");
  printf("FAIL %s: no platform\n", ocl.name);
  exit(2);
}

/* The platform's first device of type DEFAULT, else of any type. */
static inline cl_device_id pick_device(cl_platform_id platform) {
  cl_device_id device;
  cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL);
  if (err == CL_DEVICE_NOT_FOUND)
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  CHECK(err);
  return device;
}

/* Platform, device, context, one in-order queue, and NAME.cl built with
   OPTIONS. */
static inline void ocl_init(const char *name, const char *options) {
  ocl.name = name;
  ocl.platform = pick_platform();
  ocl.device = pick_device(ocl.platform);
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)ocl.platform, 0};
  ocl.context = clCreateContext(props, 1, &ocl.device, NULL, NULL, &err);
  CHECK(err);
  ocl.queue = clCreateCommandQueue(ocl.context, ocl.device, 0, &err);
  CHECK(err);
  char *source = read_source(name);
  const char *sources[] = {source};
  ocl.program = clCreateProgramWithSource(ocl.context, 1, sources, NULL, &err);
  CHECK(err);
  err = clBuildProgram(ocl.program, 1, &ocl.device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(ocl.program, ocl.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = xmalloc(size + 1);
    log[0] = 0;
    clGetProgramBuildInfo(ocl.program, ocl.device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    fprintf(stderr, "build log of %s.cl:\n%s\n", name, log);
    free(log);
  }
  CHECK(err);
  free(source);
}

static inline cl_kernel ocl_kernel(const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(ocl.program, name, &err);
  CHECK(err);
  return k;
}

static inline cl_mem ocl_buffer(cl_mem_flags flags, size_t bytes, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(ocl.context, flags, bytes, host, &err);
  CHECK(err);
  return m;
}

/* A CL_MEM_READ_WRITE buffer filled by a blocking clEnqueueWriteBuffer. */
static inline cl_mem ocl_buffer_from(const void *host, size_t bytes) {
  cl_mem m = ocl_buffer(CL_MEM_READ_WRITE, bytes, NULL);
  CHECK(clEnqueueWriteBuffer(ocl.queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
  return m;
}

static inline void ocl_read(cl_mem m, size_t bytes, void *host) {
  CHECK(clEnqueueReadBuffer(ocl.queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

/* Enqueues K over GLOBAL (LOCAL may be NULL) on the program's queue. */
static inline void ocl_run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local) {
  CHECK(clEnqueueNDRangeKernel(ocl.queue, k, dims, NULL, global, local, 0, NULL, NULL));
}

/* Releases COUNT memory objects. */
static inline void release_mems(int count, ...) {
  va_list mems;
  va_start(mems, count);
  for (int i = 0; i < count; ++i)
    CHECK(clReleaseMemObject(va_arg(mems, cl_mem)));
  va_end(mems);
}

static inline void release_kernels(int count, ...) {
  va_list kernels;
  va_start(kernels, count);
  for (int i = 0; i < count; ++i)
    CHECK(clReleaseKernel(va_arg(kernels, cl_kernel)));
  va_end(kernels);
}

static inline size_t round_up(size_t x, size_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

static inline void ocl_release(void) {
  CHECK(clReleaseProgram(ocl.program));
  CHECK(clReleaseCommandQueue(ocl.queue));
  CHECK(clReleaseContext(ocl.context));
}

/* Deterministic pseudo-random numbers in [0, 1). */
static inline float rand01(unsigned *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (float)(*seed >> 8) / 16777216.0f;
}

static inline void fill_random(float *a, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i)
    a[i] = rand01(&seed);
}

/* Compares N floats: |got - want| <= tol * (scale + |want|). Counts the
   mismatches and prints the first few. */
static inline long compare_floats(const char *what, const float *got, const double *want,
                           size_t n, double tol, double scale) {
  long bad = 0;
  for (size_t i = 0; i < n; ++i) {
    double diff = fabs((double)got[i] - want[i]);
    if (!(diff <= tol * (scale + fabs(want[i])))) {
      if (bad < 5)
        fprintf(stderr, "%s[%zu]: got %.7g, want %.7g\n", what, i, got[i], want[i]);
      ++bad;
    }
  }
  return bad;
}

static inline long compare_ints(const char *what, const int *got, const int *want, size_t n) {
  long bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      if (bad < 5)
        fprintf(stderr, "%s[%zu]: got %d, want %d\n", what, i, got[i], want[i]);
      ++bad;
    }
  return bad;
}

/* Prints PASS or FAIL with the summary and returns the exit status. */
static inline int ocl_report(long mismatches, const char *format, ...) {
  char summary[512];
  va_list args;
  va_start(args, format);
  vsnprintf(summary, sizeof summary, format, args);
  va_end(args);
  char device[256];
  CHECK(clGetDeviceInfo(ocl.device, CL_DEVICE_NAME, sizeof device, device, NULL));
  printf("%s %s: %s; %ld mismatches (device %s)\n", mismatches ? "FAIL" : "PASS",
         ocl.name, summary, mismatches, device);
  ocl_release();
  return mismatches ? 1 : 0;
}

#endif
