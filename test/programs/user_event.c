/* A user event gates a non-blocking write; the launch and read behind it
   wait in the queue until the host completes the event (checked: they are
   not complete before), then run. A second queue's launch waits on an
   event of the first queue. */
#include "common.h"

static cl_int status_of(cl_event e) {
  cl_int status;
  CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  return status;
}

int main(int argc, char **argv) {
  int n = ocl_size(argc, argv, 1 << 16, 1);
  ocl_init("user_event", NULL);
  cl_int err;
  float *v = xmalloc(sizeof(float) * n), *got = xmalloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    v[i] = (float)(i % 64);
  cl_mem mv = ocl_buffer(CL_MEM_READ_WRITE, sizeof(float) * n, NULL);
  cl_mem msum = ocl_buffer(CL_MEM_READ_WRITE, sizeof(cl_uint), NULL);
  cl_kernel ks = ocl_kernel("scale_offset"), kc = ocl_kernel("checksum");
  float scale = 2.0f, offset = 1.0f;
  ARG(ks, 0, mv); ARG(ks, 1, scale); ARG(ks, 2, offset); ARG(ks, 3, n);
  ARG(kc, 0, mv); ARG(kc, 1, msum); ARG(kc, 2, n);

  cl_event gate = clCreateUserEvent(ocl.context, &err);
  CHECK(err);
  cl_event write, launch, read;
  CHECK(clEnqueueWriteBuffer(ocl.queue, mv, CL_FALSE, 0, sizeof(float) * n, v, 1, &gate, &write));
  size_t global = round_up(n, 64), local = 64;
  CHECK(clEnqueueNDRangeKernel(ocl.queue, ks, 1, NULL, &global, &local, 1, &write, &launch));
  CHECK(clEnqueueReadBuffer(ocl.queue, mv, CL_FALSE, 0, sizeof(float) * n, got, 1, &launch, &read));
  CHECK(clFlush(ocl.queue));
  long bad = 0;
  if (status_of(read) == CL_COMPLETE || status_of(launch) == CL_COMPLETE) {
    fprintf(stderr, "commands behind an incomplete user event completed\n");
    ++bad;
  }
  /* The program fills the input only now: the write reads it when it runs. */
  for (int i = 0; i < n; ++i)
    v[i] = (float)(i % 128);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &read));
  double *want = xmalloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    want[i] = v[i] * scale + offset;
  bad += compare_floats("gated", got, want, n, 0.0, 0.0);

  /* Across queues: the checksum on a second queue waits for the first's
     launch of a second scaling. */
  cl_command_queue q2 = clCreateCommandQueue(ocl.context, ocl.device, 0, &err);
  CHECK(err);
  cl_uint zero = 0, sum = 0;
  CHECK(clEnqueueWriteBuffer(q2, msum, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
  cl_event gate2 = clCreateUserEvent(ocl.context, &err), second;
  CHECK(err);
  offset = 3.0f;
  ARG(ks, 2, offset);
  CHECK(clEnqueueNDRangeKernel(ocl.queue, ks, 1, NULL, &global, &local, 1, &gate2, &second));
  CHECK(clEnqueueNDRangeKernel(q2, kc, 1, NULL, &global, &local, 1, &second, NULL));
  CHECK(clEnqueueReadBuffer(q2, msum, CL_FALSE, 0, sizeof sum, &sum, 0, NULL, NULL));
  CHECK(clFlush(ocl.queue));
  CHECK(clFlush(q2));
  CHECK(clSetUserEventStatus(gate2, CL_COMPLETE));
  CHECK(clFinish(q2));
  cl_uint want_sum = 0;
  for (int i = 0; i < n; ++i)
    want_sum += (cl_uint)(((float)(i % 128) * scale + 1.0f) * scale * 16.0f + 3.0f * 16.0f);
  if (sum != want_sum) {
    fprintf(stderr, "checksum: got %u, want %u\n", sum, want_sum);
    ++bad;
  }
  CHECK(clFinish(ocl.queue));
  cl_event events[] = {gate, write, launch, read, gate2, second};
  for (int i = 0; i < 6; ++i)
    CHECK(clReleaseEvent(events[i]));
  CHECK(clReleaseCommandQueue(q2));
  release_mems(2, mv, msum);
  release_kernels(2, ks, kc);
  return ocl_report(bad, "user events gating %d elements", n);
}
