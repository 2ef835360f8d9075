// A watchdog's abort must not wait forever on a thread blocked inside the call it should end.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include "perfgate/collectives/watchdog.hpp"

using perfgate::collectives::abort_when_free;

TEST_CASE("the abort runs under the lock when the lock is free", "[watchdog]") {
  std::timed_mutex mutex;
  int aborted = 0;
  CHECK(abort_when_free(mutex, [&] {
    CHECK_FALSE(mutex.try_lock());  // held by the abort itself
    ++aborted;
  }));
  CHECK(aborted == 1);
  CHECK(mutex.try_lock());  // and released after it
  mutex.unlock();
}

TEST_CASE("the abort gives up on a lock held by a blocked thread", "[watchdog]") {
  std::timed_mutex mutex;
  std::promise<void> release;
  std::promise<void> holding;
  std::thread blocked([&] {
    const std::lock_guard lock(mutex);
    holding.set_value();
    release.get_future().wait();  // an enqueue waiting for a peer that never comes
  });
  holding.get_future().wait();
  int aborted = 0;
  CHECK_FALSE(abort_when_free(
      mutex, [&] { ++aborted; }, std::chrono::milliseconds(50)));
  CHECK(aborted == 0);
  release.set_value();
  blocked.join();
}
