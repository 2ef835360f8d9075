#include "perfgate/core/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate {

std::string ProcessResult::describe() const {
  if (timed_out) return "timed out";
  if (signal != 0) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit {}", exit_code);
}

std::string ProcessResult::err_tail(std::size_t max_chars) const {
  std::string tail = err.size() > max_chars ? err.substr(err.size() - max_chars) : err;
  while (!tail.empty() && std::isspace(static_cast<unsigned char>(tail.back()))) tail.pop_back();
  return tail;
}

namespace {
bool executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}
}  // namespace

std::optional<std::string> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return executable_file(name) ? std::optional(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? end : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable_file(candidate)) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

namespace {
void close_pipe(int fds[2]) {
  for (int i = 0; i < 2; ++i)
    if (fds[i] >= 0) close(fds[i]);
}
}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts) {
  if (argv.empty()) throw ToolError("run_process: empty argument vector");
  const auto program = find_program(argv[0]);
  if (!program) throw ToolError(argv[0] + ": program not found on PATH");

  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if ((opts.capture_stdout && pipe2(out_pipe, O_CLOEXEC) != 0) ||
      (opts.capture_stderr && pipe2(err_pipe, O_CLOEXEC) != 0)) {
    close_pipe(out_pipe);
    close_pipe(err_pipe);
    throw ToolError(argv[0] + ": cannot create pipe: " + std::strerror(errno));
  }

  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close_pipe(out_pipe);
    close_pipe(err_pipe);
    throw ToolError(argv[0] + ": fork failed: " + std::strerror(errno));
  }
  if (pid == 0) {
    setpgid(0, 0);  // own process group, so a timeout kills the whole tree
    // A measuring child must not outlive a killed parent and go on loading a core.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (opts.capture_stdout) dup2(out_pipe[1], STDOUT_FILENO);
    if (opts.capture_stderr) dup2(err_pipe[1], STDERR_FILENO);
    for (const auto& [k, v] : opts.extra_env) setenv(k.c_str(), v.c_str(), 1);
    if (!opts.working_dir.empty() && chdir(opts.working_dir.c_str()) != 0) _exit(127);
    execv(program->c_str(), cargv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  if (out_pipe[1] >= 0) close(out_pipe[1]), out_pipe[1] = -1;
  if (err_pipe[1] >= 0) close(err_pipe[1]), err_pipe[1] = -1;

  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  bool term_sent = false;
  std::chrono::steady_clock::time_point term_time;
  std::vector<pollfd> fds;
  auto rebuild = [&] {
    fds.clear();
    if (out_pipe[0] >= 0) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_pipe[0] >= 0) fds.push_back({err_pipe[0], POLLIN, 0});
  };
  int status = 0;
  bool reaped = false;
  for (;;) {
    rebuild();
    if (fds.empty()) {
      // Output closed: wait for the child, still honouring the timeout.
      const pid_t r = waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        reaped = true;
        break;
      }
      poll(nullptr, 0, 10);
    } else {
      poll(fds.data(), fds.size(), 50);
      char buf[65536];
      for (const auto& p : fds) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = read(p.fd, buf, sizeof buf);
        std::string& sink = p.fd == out_pipe[0] ? result.out : result.err;
        if (n > 0) {
          sink.append(buf, static_cast<std::size_t>(n));
        } else {
          int& fd = p.fd == out_pipe[0] ? out_pipe[0] : err_pipe[0];
          close(fd);
          fd = -1;
        }
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (opts.timeout && !term_sent && now - start > *opts.timeout) {
      result.timed_out = true;
      kill(-pid, SIGTERM);
      term_sent = true;
      term_time = now;
    }
    if (term_sent && now - term_time > std::chrono::seconds(2)) kill(-pid, SIGKILL);
  }
  if (!reaped) waitpid(pid, &status, 0);
  close_pipe(out_pipe);
  close_pipe(err_pipe);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (result.timed_out) result.signal = 0;
  if (!result.timed_out && result.exit_code == 127 && result.signal == 0 && result.out.empty() &&
      result.err.empty() && !std::filesystem::exists(*program))
    throw ToolError(argv[0] + ": could not be executed");
  return result;
}

}  // namespace perfgate
