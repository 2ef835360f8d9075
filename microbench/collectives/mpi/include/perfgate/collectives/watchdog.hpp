#pragma once
// A thread that ends the job when an operation does not complete in time, instead of letting a
// nightly job hang. arm() before each operation, disarm() when the batch has completed.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace perfgate::collectives {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  // `on_timeout` runs on the watchdog thread, once; it is expected not to return (it exits).
  Watchdog(double timeout_s, std::function<void()> on_timeout);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm();  // the deadline is now + timeout
  void disarm();
  // Ends the watch (also done on destruction); if the timeout is being handled, waits for that,
  // which does not return: what on_timeout reads is never destroyed under it.
  void stop();
  double timeout_s() const { return timeout_s_; }

 private:
  void watch();

  double timeout_s_;
  std::function<void()> on_timeout_;
  std::atomic<Clock::rep> deadline_{0};  // 0: disarmed
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

// A watchdog's abort of what another thread uses under `mutex`: that thread may be blocked inside
// the very call the abort should end (NCCL connects to its peers on first use), so the abort waits
// for the lock at most `patience` and otherwise gives up, leaving the resource to the process's
// exit, which the timeout brings anyway. Returns whether `abort` ran.
template <class Abort>
bool abort_when_free(std::timed_mutex& mutex, Abort&& abort,
                     std::chrono::milliseconds patience = std::chrono::seconds(2)) {
  std::unique_lock lock(mutex, std::defer_lock);
  if (!lock.try_lock_for(patience)) return false;
  abort();
  return true;
}

// Arms a watchdog for its lifetime, so an exception cannot leave it armed.
class ArmedWatch {
 public:
  explicit ArmedWatch(Watchdog& w) : watchdog_(w) { watchdog_.arm(); }
  ~ArmedWatch() { watchdog_.disarm(); }
  ArmedWatch(const ArmedWatch&) = delete;
  ArmedWatch& operator=(const ArmedWatch&) = delete;

 private:
  Watchdog& watchdog_;
};

}  // namespace perfgate::collectives
