// Refuses a case before allocating it, on every rank together: a case the backend cannot run on
// some rank, or whose buffers would not fit some rank's memory. An allocation past what a node
// has ends in the kernel's out-of-memory killer (no message, no document, perhaps another user's
// process), and a refusal on one rank alone would leave the others waiting in a collective.
#include <fmt/format.h>

#include "modes.hpp"

namespace perfgate::collectives {

std::optional<std::string> buffers_do_not_fit(ModeContext& ctx, const CaseShape& shape,
                                              double other_bytes, MemoryShare share) {
  if (ctx.options.max_memory > 0) share.limit = double(ctx.options.max_memory);
  // --bitwise-repeats keeps a copy of the reference output on the host: part of the share when
  // the share is the host's memory (MPI).
  const double reference_bytes =
      ctx.options.bitwise_repeats > 0 && ctx.backend.memory_device() == "Host"
          ? double(buffer_counts(shape.collective, shape.count, shape.ranks).recv *
                   type_size(shape.dtype))
          : 0;
  const double bytes = case_buffer_bytes(shape) + ctx.backend.group_buffer_bytes(shape) +
                       reference_bytes + other_bytes;
  return agreed_memory_shortfall(ctx.comm, bytes, share);
}

std::optional<std::string> case_refused(ModeContext& ctx, const CaseShape& shape,
                                        double other_bytes) {
  if (const std::optional<RankReason> r = ctx.comm.first_reason(ctx.backend.unsupported(shape))) {
    if (r->ranks == static_cast<std::size_t>(ctx.comm.size())) return r->reason;
    return fmt::format("{} (rank {}; {} of {} ranks)", r->reason, r->rank, r->ranks,
                       ctx.comm.size());
  }
  return buffers_do_not_fit(ctx, shape, other_bytes, ctx.backend.memory_share());
}

}  // namespace perfgate::collectives
