#include "slurm_text.hpp"

#include <regex>
#include <sstream>

namespace perfgate::scaling::detail {

std::string choose_mpi_plugin(const std::string& mpi_list_output) {
  std::istringstream in(mpi_list_output);
  std::string line;
  bool pmix = false, pmi2 = false;
  while (std::getline(in, line)) {
    // Lines look like "\tpmix" under "MPI plugin types are...".
    const auto b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    const std::string word = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    if (word == "pmix") pmix = true;
    if (word == "pmi2") pmi2 = true;
  }
  return pmix ? "pmix" : pmi2 ? "pmi2" : "none";
}

std::map<int, std::string> rank_hosts_from_srun_log(const std::string& log) {
  std::map<int, std::string> out;
  static const std::regex re(R"(launching StepId=\S+ on host ([^,\s]+), \d+ tasks: ([0-9,\-]+))");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), re); it != std::sregex_iterator();
       ++it) {
    const std::string host = (*it)[1];
    std::istringstream ranges((*it)[2].str());
    std::string range;
    while (std::getline(ranges, range, ',')) {
      const auto dash = range.find('-');
      const int lo = std::stoi(range.substr(0, dash));
      const int hi = dash == std::string::npos ? lo : std::stoi(range.substr(dash + 1));
      for (int r = lo; r <= hi; ++r) out[r] = host;
    }
  }
  return out;
}

std::string step_id_from_srun_log(const std::string& log) {
  static const std::regex re(R"(StepId=(\d+\.\d+))");
  std::smatch m;
  return std::regex_search(log, m, re) ? m[1].str() : "";
}

std::string nodelist_from_srun_log(const std::string& log) {
  static const std::regex re(R"(nodes\(\d+\):`([^']+)')");
  std::smatch m;
  return std::regex_search(log, m, re) ? m[1].str() : "";
}

std::string scontrol_field(const std::string& line, const std::string& field) {
  const std::string key = field + "=";
  std::size_t pos = 0;
  while ((pos = line.find(key, pos)) != std::string::npos) {
    if (pos == 0 || line[pos - 1] == ' ') {
      const auto start = pos + key.size();
      const auto end = line.find_first_of(" \n", start);
      return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    }
    pos += key.size();
  }
  return "";
}

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace perfgate::scaling::detail
