#include "perfgate/collectives/watchdog.hpp"

namespace perfgate::collectives {

Watchdog::Watchdog(double timeout_s, std::function<void()> on_timeout)
    : timeout_s_(timeout_s), on_timeout_(std::move(on_timeout)) {
  if (timeout_s_ > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  stop();
}

void Watchdog::stop() {
  stop_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::arm() {
  if (timeout_s_ <= 0) return;
  const auto budget =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_));
  deadline_ = (Clock::now() + budget).time_since_epoch().count();
}

void Watchdog::disarm() {
  deadline_ = 0;
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    // Polling keeps arm() a single atomic store on the hot path.
    wake_.wait_for(lock, std::chrono::milliseconds(20));
    const Clock::rep deadline = deadline_;
    if (deadline != 0 && Clock::now().time_since_epoch().count() > deadline) {
      on_timeout_();
      return;
    }
  }
}

}  // namespace perfgate::collectives
