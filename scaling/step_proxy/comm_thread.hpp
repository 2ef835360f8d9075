#pragma once
// Gradient all-reduce on a dedicated thread: the backward pass queues buckets as their gradients
// become ready and keeps computing; the step ends by waiting for the queue to drain (the
// exposed, non-overlapped communication).
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <mpi.h>

namespace perfgate::step_proxy {

class CommThread {
 public:
  explicit CommThread(MPI_Comm comm);
  ~CommThread();
  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  void enqueue(float* data, int count);  // in-place sum all-reduce
  // Blocks until every queued bucket is reduced; returns the microseconds spent waiting.
  double drain();
  // Microseconds spent inside all-reduces since the last call (then resets).
  double take_comm_us();

 private:
  struct Bucket {
    float* data;
    int count;
  };
  void loop();

  MPI_Comm comm_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Bucket> queue_;
  int in_flight_ = 0;
  bool stop_ = false;
  double comm_us_ = 0;
  std::thread thread_;
};

}  // namespace perfgate::step_proxy
