#include "event_clock.hpp"

#include <vector>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw ToolError(fmt::format("{}: {}", what, cudaGetErrorString(e)));
}

class EventClock final : public IterationClock {
 public:
  explicit EventClock(cudaStream_t stream) : stream_(stream) {}
  // Made on an owned clock, so that the events made before a failure are freed with it.
  void make_events(int marks) {
    for (int i = 0; i < marks; ++i) {
      cudaEvent_t event = nullptr;
      check(cudaEventCreate(&event), "cudaEventCreate");
      events_.push_back(event);
    }
  }
  EventClock(const EventClock&) = delete;
  EventClock& operator=(const EventClock&) = delete;
  ~EventClock() override {
    for (cudaEvent_t event : events_) cudaEventDestroy(event);
  }

  void mark() override {
    if (recorded_ == events_.size())
      throw ToolError(fmt::format("per-iteration clock: more than {} marks", events_.size()));
    check(cudaEventRecord(events_[recorded_++], stream_), "cudaEventRecord");
  }

  std::vector<double> spans_us() override {
    std::vector<double> spans;
    for (std::size_t i = 1; i < recorded_; ++i) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, events_[i - 1], events_[i]), "cudaEventElapsedTime");
      spans.push_back(static_cast<double>(ms) * 1000.0);
    }
    return spans;
  }

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
  std::size_t recorded_ = 0;
};

}  // namespace

std::unique_ptr<IterationClock> make_event_clock(cudaStream_t stream, int marks) {
  auto clock = std::make_unique<EventClock>(stream);
  clock->make_events(marks);
  return clock;
}

}  // namespace perfgate::collectives
