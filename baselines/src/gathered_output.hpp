#pragma once
// Output gathered per node: pdsh's `dshbak` and `clush -b` print each node's lines once, under
// a header naming the node (or the nodes that printed the very same lines):
//   ----------------       dshbak: 16 dashes; clush: 15
//   node-a                 dshbak -c: "node-[a-b],node-d"; clush -b: "node-a,node-b (2)"
//   ----------------
// clush's progress counter ("clush: 2/2" and a carriage return) may share the first rule's line
// in a log that caught its standard error.
#include <functional>
#include <optional>
#include <string_view>

#include "unwrapped_log.hpp"

namespace perfgate::baselines {

// The log with each block's lines behind its nodes' names, as pdsh tags them ("node-a: ..."),
// and the headers left out; lines before the first header as they are. nullopt when no header
// stands before the first line `is_anchor` accepts: the log is not gathered.
std::optional<UnwrappedLog> tag_gathered_blocks(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor);

}  // namespace perfgate::baselines
