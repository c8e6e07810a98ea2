/*===- skmd.h - SKMD's C API ------------------------------------------------===*
 *
 * Runs one OpenCL C kernel, compiled ahead of time by skmd-cc into a bundle,
 * on every device of the machine at once.
 *
 *   skmd_context ctx;
 *   skmd_init(NULL, &ctx);                       // every device found
 *   skmd_program prog;
 *   skmd_load_bundle(ctx, "vector_add.skmd", &prog);
 *   skmd_kernel k;
 *   skmd_get_kernel(prog, "vector_add", &k);
 *   skmd_buffer a, b, c;
 *   skmd_wrap_buffer(ctx, host_a, n * 4, &a);    // ... b, c
 *   skmd_set_arg_buffer(k, 0, a);                // ... 1, 2
 *   skmd_set_arg_scalar(k, 3, &n, sizeof n);
 *   size_t global[1] = {n}, local[1] = {256};
 *   skmd_launch(k, 1, NULL, global, local, NULL, NULL);
 *
 * Every function returns a status; on failure skmd_last_error() gives a
 * message naming the problem, for the calling thread. Nothing here aborts
 * the process. Handles are released with their skmd_release_* function;
 * releasing a context releases what was made from it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SKMD_SKMD_H
#define SKMD_SKMD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SKMD_VERSION_MAJOR 0
#define SKMD_VERSION_MINOR 1

typedef enum skmd_status {
  SKMD_SUCCESS = 0,
  SKMD_ERROR_INVALID_ARGUMENT = 1,
  SKMD_ERROR_IO = 2,
  SKMD_ERROR_CORRUPT_BUNDLE = 3,
  SKMD_ERROR_UNSUPPORTED_BUNDLE_VERSION = 4,
  SKMD_ERROR_NOT_FOUND = 5,
  SKMD_ERROR_UNSUPPORTED_HOST = 6,
  SKMD_ERROR_OUT_OF_MEMORY = 7,
  /* A device failed during the launch; its groups were re-run on the CPU,
     so every output buffer is complete. The message names the device. */
  SKMD_ERROR_DEVICE_FAILED = 8,
  /* A device asked for is not there, or its driver is missing. */
  SKMD_ERROR_NO_DEVICE = 9,
} skmd_status;

typedef struct skmd_context_s *skmd_context;
typedef struct skmd_program_s *skmd_program;
typedef struct skmd_kernel_s *skmd_kernel;
typedef struct skmd_buffer_s *skmd_buffer;
typedef struct skmd_event_s *skmd_event;
typedef struct skmd_batch_s *skmd_batch;

/* The message of the calling thread's last failure ("" if none). */
const char *skmd_last_error(void);
/* A status's name, e.g. "SKMD_ERROR_NO_DEVICE". */
const char *skmd_status_name(skmd_status status);

/* Devices: NULL or "" for every device found (the CPU, each CUDA GPU and
   each non-CPU OpenCL device that takes SPIR-V), else a comma-separated
   list of kinds: cpu, discrete (a host-memory device with private copies,
   for testing), cuda (every GPU), cuda:N, opencl (every OpenCL device
   whose driver takes SPIR-V, CPUs included) or opencl:N. The environment
   variable SKMD_DEVICES, when set, is used for NULL. */
skmd_status skmd_init(const char *devices, skmd_context *out);
/* Finishes the launches made in the context (waited for or not), then
   frees it with its programs, kernels and buffer handles. An event of it
   may still be waited for. */
void skmd_release_context(skmd_context ctx);

typedef enum skmd_device_kind {
  SKMD_DEVICE_CPU = 0,
  SKMD_DEVICE_HOST_DISCRETE = 1,
  SKMD_DEVICE_CUDA = 2,
  SKMD_DEVICE_OPENCL = 3,
  SKMD_DEVICE_REMOTE = 4, /* a device of an skmd-server (docs/remote.md) */
} skmd_device_kind;

typedef struct skmd_device_info {
  char name[32];         /* as plans name it: cpu, gpu0, discrete1 */
  char description[128]; /* what it is */
  skmd_device_kind kind;
  uint64_t memory_bytes;
  uint32_t compute_units;
  double link_gbps; /* host-to-device bandwidth where measured, else 0 */
} skmd_device_info;

size_t skmd_device_count(skmd_context ctx);
skmd_status skmd_get_device_info(skmd_context ctx, size_t index,
                                 skmd_device_info *out);
/* Measures a device's link to the host: copies of `bytes` each way from
   and to page-locked memory, best of 3 after a warm-up; GB/s. Devices on
   host memory (the CPU) report 0. The result is kept as the device's
   link_gbps (host to device). */
skmd_status skmd_measure_link(skmd_context ctx, size_t index, size_t bytes,
                              double *to_device_gbps, double *to_host_gbps);

/* Loads a bundle written by skmd-cc; checks it whole (format, version,
   checksums, metadata) before returning. */
skmd_status skmd_load_bundle(skmd_context ctx, const char *path,
                             skmd_program *out);
skmd_status skmd_load_bundle_bytes(skmd_context ctx, const void *bytes,
                                   size_t size, skmd_program *out);
void skmd_release_program(skmd_program prog);

skmd_status skmd_get_kernel(skmd_program prog, const char *name,
                            skmd_kernel *out);
void skmd_release_kernel(skmd_kernel k);
/* The number of arguments the kernel takes. */
size_t skmd_kernel_arg_count(skmd_kernel k);

typedef enum skmd_arg_kind {
  SKMD_ARG_GLOBAL_BUFFER = 0,
  SKMD_ARG_CONSTANT_BUFFER = 1,
  SKMD_ARG_LOCAL = 2,  /* __local pointer: give its size */
  SKMD_ARG_SCALAR = 3, /* passed by value (also vectors and structs) */
  SKMD_ARG_SAMPLER = 4,
} skmd_arg_kind;

typedef struct skmd_arg_info {
  char name[64];
  char type_name[64]; /* as written, e.g. "float4*" or "DATA_TYPE*" */
  /* typedefs resolved, in OpenCL's spelling: "float4*", "uchar*",
     "struct particle*"; empty for bundles that predate it */
  char base_type_name[64];
  skmd_arg_kind kind;
  size_t size;         /* bytes of a value argument */
  size_t element_size; /* bytes of the pointee of a pointer, 0 for void */
  int read, written;   /* whether the kernel reads / writes the buffer */
} skmd_arg_info;

skmd_status skmd_get_kernel_arg_info(skmd_kernel k, unsigned index,
                                     skmd_arg_info *out);

/* Consecutive scalars of one type in an argument's element (a buffer's
   pointee, a value's type): a float4 is one run of 4 floats; a struct has a
   run per member, in memory order. */
typedef struct skmd_scalar_run {
  size_t offset;  /* bytes from the element's start */
  char type[8];   /* char, uchar, short, ushort, int, uint, long, ulong,
                     half, float, double */
  size_t count;
} skmd_scalar_run;

/* The element's layout: *count gets the number of runs (0 where it is not
   known: void*, a struct holding pointers or bit-fields, an old bundle),
   and the first min(*count, max) are written to out (which may be NULL
   when max is 0). */
skmd_status skmd_get_kernel_arg_layout(skmd_kernel k, unsigned index,
                                       skmd_scalar_run *out, size_t max,
                                       size_t *count);

/* Host memory the caller owns, as a buffer; it must stay valid while a
   launch uses it. */
/* A buffer over the caller's own memory, which the caller may read and
   write between launches: each launch reads it and, when it returns (or
   skmd_wait does), every byte the kernel wrote is back in it. Device
   copies are kept between launches as allocations to reuse. */
skmd_status skmd_wrap_buffer(skmd_context ctx, void *host, size_t bytes,
                             skmd_buffer *out);
/* A buffer in memory of SKMD's own (page-locked where a GPU is present),
   filled from init (zeros when NULL). Its bytes stay on the devices that
   wrote them between launches, and move only when another piece or the
   host needs them: a second launch on unchanged data moves nothing but
   what changed. Reach it with skmd_read_buffer and skmd_write_buffer. */
skmd_status skmd_create_buffer(skmd_context ctx, size_t bytes, const void *init,
                               skmd_buffer *out);
/* Bytes [offset, offset + bytes) of a buffer, after every launch made
   before (as a blocking read on an in-order queue): exactly the stale
   ranges come back from the devices. */
skmd_status skmd_read_buffer(skmd_buffer buf, size_t offset, size_t bytes,
                             void *dst);
/* Writes them, after every launch made before; devices' copies of those
   bytes become stale. */
skmd_status skmd_write_buffer(skmd_buffer buf, size_t offset, size_t bytes,
                              const void *src);
/* After every launch made before; device memory goes with it. */
void skmd_release_buffer(skmd_buffer buf);
/* Page-locked host memory, which GPUs copy at full speed; NULL on failure.
   Free with skmd_free_host. */
void *skmd_alloc_host(skmd_context ctx, size_t bytes);
void skmd_free_host(skmd_context ctx, void *ptr);

/* The buffer and the kernel must be of one context. */
skmd_status skmd_set_arg_buffer(skmd_kernel k, unsigned index, skmd_buffer buf);
/* A value argument: size must be the argument's size in the kernel. */
skmd_status skmd_set_arg_scalar(skmd_kernel k, unsigned index,
                                const void *value, size_t size);
/* A __local pointer argument: its size in bytes. */
skmd_status skmd_set_arg_local(skmd_kernel k, unsigned index, size_t bytes);

/* What a launch did, per device piece. */
typedef struct skmd_piece_report {
  char device[32];
  uint64_t first_group, group_count;
  double input_ms, kernel_ms, output_ms, merge_ms;
  /* When each step began, in ms from the launch's start (for traces). */
  double input_at_ms, kernel_at_ms, output_at_ms, merge_at_ms;
  uint64_t bytes_in, bytes_out;
  int failed; /* the device failed; the CPU re-ran its groups */
  /* What the performance model predicted for this piece (all 0 when the
     launch had no prediction; see skmd_launch_report.predicted_ms). */
  double predicted_input_ms, predicted_kernel_ms, predicted_output_ms,
      predicted_merge_ms;
  /* Pipelined chunks the piece ran in (a plan's "gpu0@4"; 1 otherwise):
     each step's time spans them all, from the first chunk's start to the
     last one's end. */
  unsigned chunks;
} skmd_piece_report;

/* One operation of a launch as its batch ran (docs/batch.md): a copy, a
   kernel piece or a merge, on the engine that ran it. */
typedef struct skmd_operation_report {
  char label[64];  /* "copy in gpu0 [0, 512)", "kernel cpu [512, 1024)" */
  char engine[32]; /* "gpu0 copies in", "gpu0 kernels", "gpu0 copies out",
                      "host" (the launching thread: the CPU's pieces, merges) */
  double start_ms, end_ms; /* from the launch's start; both 0 if skipped */
  /* As the plan predicted it (the launch's batch simulated on the
     machine's routes); -1 when the launch had no such prediction. */
  double predicted_start_ms, predicted_end_ms;
} skmd_operation_report;

typedef struct skmd_launch_report {
  uint64_t total_groups;
  size_t piece_count;        /* pieces filled in, at most 16 */
  skmd_piece_report pieces[16];
  double plan_ms; /* choosing the plan, checking arguments, loading the
                     kernel on devices that have not run it (a GPU's JIT),
                     planning the bytes moved */
  double total_ms;
  /* How the plan was chosen: "auto", "linear", the plan string given, or
     "proportional (no model: <why>)" when the default had no profiles. */
  char plan[256];
  /* The launch's predicted time; 0 when the model had too few profiles. */
  double predicted_ms;
  /* The least time any split of this launch could take on these devices,
     from the same profiles and measured links (docs/partitioner.md, "The
     bound"); 0 when the model had too few profiles. */
  double bound_ms;
  /* Bytes copied to the host before the pieces ran: read by a piece, held
     only by a device (buffers from skmd_create_buffer). */
  uint64_t bytes_to_host;
  double to_host_ms;
  /* The partitioner's own estimate of the launch (Algorithm 1's
     EstAllDevsTime); predicted_ms is the launch's batch simulated on the
     machine's routes where those are measured (docs/batch.md). */
  double estimated_ms;
  /* The launch's operations, in the order built: operation_count filled
     in, of operations_total. */
  size_t operation_count, operations_total;
  skmd_operation_report operations[192];
} skmd_launch_report;

/* Runs the kernel over an N-D range (global sizes must be multiples of
   local ones; global_offset may be NULL). report may be NULL. Returns when
   every output is in the user's buffers. plan (docs/runtime.md):
     NULL       the default: "auto" when the profile database holds enough
                profiles of this kernel on every device (or SKMD_PROFILE=auto
                profiles it now), else "proportional"
     "auto"     the model partitioner (the SKMD paper's Algorithm 1); an
                error when profiles are missing
     "linear"   shares proportional to the model's predicted throughput,
                copies ignored
     "proportional", "even", "cpu", "gpu0", "manual:cpu=0.3,gpu0=0.7"
                a share of a device with its own memory runs in the pipelined
                chunks the model finds soonest (copies in, kernels and copies
                out overlapped); "gpu0@8" or "manual:cpu=0.3,gpu0=0.7@8" fixes
                the count (report.pieces[i].chunks)
   SKMD_EXPLAIN=1 prints the plan with the predicted times to stderr before
   the launch, and the measured times with the prediction error after it. */
skmd_status skmd_launch(skmd_kernel k, uint32_t work_dim,
                        const size_t *global_offset, const size_t *global_size,
                        const size_t *local_size, const char *plan,
                        skmd_launch_report *report);

/* The same, returning at once; skmd_wait finishes it. The kernel's
   arguments are captured at the call; the buffers must not be touched
   until skmd_wait returns. A context's launches (asynchronous or not)
   run one at a time in the order they were made, as an in-order queue:
   a launch may use what an earlier one writes. */
skmd_status skmd_launch_async(skmd_kernel k, uint32_t work_dim,
                              const size_t *global_offset,
                              const size_t *global_size,
                              const size_t *local_size, const char *plan,
                              skmd_event *out);
/* Waits for the launch, fills report (may be NULL) and releases the
   event. Returns the launch's status. */
skmd_status skmd_wait(skmd_event ev, skmd_launch_report *report);

/* Profiles the kernel, with the arguments set now, on the named devices
   (comma-separated names, e.g. "cpu,gpu0"; NULL: every device): dry runs
   over growing group counts, best of `runs` each (0: 2), recorded in the
   profile database ($SKMD_PROFILE_DB, default
   ~/.cache/skmd/profiles.sqlite) together with each device's copy costs.
   The buffers the kernel writes are profiled on copies: the caller's data
   is left as it was. Progress goes to the progress callback. */
skmd_status skmd_profile(skmd_kernel k, uint32_t work_dim,
                         const size_t *global_offset, const size_t *global_size,
                         const size_t *local_size, const char *devices,
                         unsigned runs);

/* How good the model is: for each n of groups[0..count), runs groups
   [0, n) of the launch alone on `device`, timed as the profiler does
   (passes over the counts in order, each count's best of `runs`, on
   scratch copies of the buffers the kernel writes), and gives its measured
   kernel times and what the device's model predicts for them. Records
   nothing. Fails with SKMD_ERROR_NOT_FOUND when the database has no
   profiles of the kernel on that device. */
skmd_status skmd_check_model(skmd_kernel k, uint32_t work_dim,
                             const size_t *global_offset,
                             const size_t *global_size, const size_t *local_size,
                             const char *device, const uint64_t *groups, size_t count,
                             unsigned runs, double *measured_ms, double *predicted_ms);

/* Batches (docs/batch.md): copies and kernel pieces with dependencies,
   predicted before they run and run by the batch engine in the order that
   finishes soonest. A batch moves only what it says: a kernel piece runs on
   bytes the batch (or an earlier launch) made current on its device, and
   fails, naming them, where they are not; its results stay on the device
   until a copy brings them back (a buffer over the caller's own memory has
   every byte back when the batch ends, as after a launch). Operations are
   numbered from 0 in the order added. */

/* A copy's end in host memory, where a device index would be. */
#define SKMD_HOST ((size_t)-1)

skmd_status skmd_batch_create(skmd_context ctx, skmd_batch *out);
/* After it has run, if it was submitted. */
void skmd_batch_release(skmd_batch batch);
/* Copies bytes [offset, offset + bytes) of buf from `from` to `to`: device
   indices (a device with memory of its own) or SKMD_HOST. *op (may be
   NULL): its number. */
skmd_status skmd_batch_add_copy(skmd_batch batch, skmd_buffer buf, size_t offset,
                                size_t bytes, size_t from, size_t to, size_t *op);
/* Runs groups [first_group, first_group + group_count) of k's launch (the
   launch as skmd_launch takes it; groups flattened, dimension 0 fastest)
   on `device`, with k's arguments as set now. */
skmd_status skmd_batch_add_kernel(skmd_batch batch, skmd_kernel k, size_t device,
                                  uint32_t work_dim, const size_t *global_offset,
                                  const size_t *global_size, const size_t *local_size,
                                  uint64_t first_group, uint64_t group_count, size_t *op);
/* Operation `op` starts after operation `after` (an earlier one) ends. */
skmd_status skmd_batch_add_dependency(skmd_batch batch, size_t op, size_t after);
/* The batch's time, predicted without running it: the machine's measured
   routes (measured on first use, as skmd-prof --links does) and each
   kernel piece's profile; SKMD_ERROR_NOT_FOUND when a piece has none. */
skmd_status skmd_batch_predict(skmd_batch batch, double *ms);
/* Runs it after every launch made before, returning at once. A batch runs
   once. */
skmd_status skmd_batch_submit(skmd_batch batch);
/* *done: nonzero once a submitted batch has finished. */
skmd_status skmd_batch_query(skmd_batch batch, int *done);
/* Waits for a submitted batch; its status (the first operation that
   failed, named; those waiting for it did not run). */
skmd_status skmd_batch_wait(skmd_batch batch);
/* After skmd_batch_wait: operation `op`'s predicted and measured start and
   end, ms from the batch's start (times[0..3]). */
skmd_status skmd_batch_times(skmd_batch batch, size_t op, double times[4]);

/* Explains every launch on stderr, as SKMD_EXPLAIN=1 does (on: nonzero). */
void skmd_set_explain(skmd_context ctx, int on);

/* Where progress lines of profiling go (skmd_profile, and SKMD_PROFILE=auto
   before a launch). NULL: standard error, the default. */
typedef void (*skmd_progress_fn)(const char *line, void *user);
void skmd_set_progress(skmd_context ctx, skmd_progress_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif /* SKMD_SKMD_H */
