// Refuses a case whose buffers would not fit, before allocating them: an allocation past what a
// node has ends in the kernel's out-of-memory killer (no message, no document, perhaps another
// user's process), and a failed one on one rank alone would leave the others waiting.
#include "modes.hpp"

namespace perfgate::collectives {

std::optional<std::string> buffers_do_not_fit(ModeContext& ctx, const CaseShape& shape,
                                              double other_bytes) {
  MemoryShare share = ctx.backend.memory_share();
  if (ctx.options.max_memory > 0) share.limit = double(ctx.options.max_memory);
  return agreed_memory_shortfall(ctx.comm, case_buffer_bytes(shape) + other_bytes, share);
}

}  // namespace perfgate::collectives
