#pragma once
// Logs captured with Open MPI's `mpirun --xml`: one <mpirun> element holding each process's
// output in <stdout rank="0">...</stdout> elements (<stderr> too, and without a rank for
// mpirun's own messages), a line or part of a line each. The text is escaped: &lt; &gt; &amp;
// for markup, &#010; for the newline, &#NNN; for every byte outside printable ASCII (UTF-8's
// two bytes of "é" as &#195;&#169;). `--display-map` adds a <map> element, and mpirun's own
// lines (" Data for JOB ...") stand between elements. `--tag-output` and `--timestamp-output`
// change nothing in this form.
#include <string>
#include <string_view>

#include "unwrapped_log.hpp"

namespace perfgate::baselines {

// True when `text` opens with <mpirun>, after blanks.
bool is_open_mpi_xml(std::string_view text);

// Each process's lines behind the tag `--tag-output` gives them ("[1,0]<stdout>:"), in the order
// their ends arrived; the lines of rankless elements and those between elements as they are,
// untagged; each line's file line is that of the XML its end stood on.
// Throws InputError naming `source` and the line of an element without its end, an attribute
// or an escape that cannot be read.
UnwrappedLog unwrap_open_mpi_xml(std::string_view text, const std::string& source);

}  // namespace perfgate::baselines
