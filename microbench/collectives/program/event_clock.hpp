#pragma once
// -I 1's marks on a GPU, as nccl-tests makes them: a CUDA event recorded on the operations'
// stream before each iteration and after the last, read once the stream is done.
#include <cuda_runtime.h>

#include <memory>

#include "backend.hpp"

namespace perfgate::collectives {

// The events are made here, before the timed loop starts, so that marking costs one record.
std::unique_ptr<IterationClock> make_event_clock(cudaStream_t stream, int marks);

}  // namespace perfgate::collectives
