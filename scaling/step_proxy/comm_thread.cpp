#include "comm_thread.hpp"

#include <chrono>

namespace perfgate::step_proxy {

namespace {
double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

CommThread::CommThread(MPI_Comm comm) : comm_(comm), thread_([this] { loop(); }) {}

CommThread::~CommThread() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CommThread::enqueue(float* data, int count) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back({data, count});
    ++in_flight_;
  }
  cv_.notify_all();
}

double CommThread::drain() {
  const double start = now_us();
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return in_flight_ == 0; });
  return now_us() - start;
}

double CommThread::take_comm_us() {
  std::lock_guard lock(mu_);
  const double v = comm_us_;
  comm_us_ = 0;
  return v;
}

void CommThread::loop() {
  while (true) {
    Bucket b{};
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      b = queue_.front();
      queue_.pop_front();
    }
    const double start = now_us();
    MPI_Allreduce(MPI_IN_PLACE, b.data, b.count, MPI_FLOAT, MPI_SUM, comm_);
    const double took = now_us() - start;
    {
      std::lock_guard lock(mu_);
      comm_us_ += took;
      --in_flight_;
    }
    cv_.notify_all();
  }
}

}  // namespace perfgate::step_proxy
