#pragma once
// Logs captured through a launcher that labels every line with the rank that printed it:
// Open MPI's `mpirun --tag-output` ("[1,0]<stdout>:"; `--output tag-detailed` adds
// "[host:pid]"; `--timestamp-output` puts ctime's date right before the tag, and without
// `--tag-output` before "<stdout>:" alone, with no rank),
// Slurm's `srun --label` ("0: ", padded to the widest rank) and MPICH's or Intel MPI's
// `mpiexec -l` ("[0] "). Also the host names pdsh and clush put before each node's lines
// ("dgx-a01: "): there each node ran a test of its own.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::baselines {

enum class TagStyle { open_mpi, slurm, mpich, host };

// "open-mpi", "slurm", "mpich" or "host".
const char* tag_style_name(TagStyle style);

struct LineTag {
  TagStyle style;
  std::string rank;    // as the launcher printed it, without its padding; empty: none printed;
                       // the host's name for TagStyle::host
  std::size_t length;  // characters the tag takes at the start of the line
};

// The launcher's tag at the start of `line`, when it carries one.
std::optional<LineTag> read_line_tag(std::string_view line);

// `text` could name hosts as pdsh and clush print them: letters, digits, '.', '-', '_', and for
// several hosts ',' and the brackets of a range ("dgx-a[01-04],dgx-b07"), the first a letter or
// digit; not digits alone (srun's rank).
bool names_hosts(std::string_view text);

// `line` without a launcher's tag.
std::string_view without_line_tag(std::string_view line);

// How the lines of one log are tagged, read from the first line a parser needs (for nccl-tests,
// its table header): untagged when that line carries no tag. Lines of the same style from other
// ranks are set apart; lines without a tag (the launcher's own) pass as they are.
class LogTagging {
 public:
  static LogTagging of(std::string_view text,
                       const std::function<bool(std::string_view)>& is_anchor);

  // The anchor line's tag; nullopt for an untagged log.
  const std::optional<LineTag>& anchor() const { return anchor_; }

  struct Line {
    std::string_view text;                  // as its process printed it
    std::optional<std::string> other_rank;  // set when a rank other than the anchor's printed it
  };
  Line untag(std::string_view line) const;

 private:
  std::optional<LineTag> anchor_;
  // A space between an Open MPI tag and the line, as the anchor line has it: dropped from each.
  bool space_after_ = false;
};

}  // namespace perfgate::baselines
