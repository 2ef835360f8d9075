#include <sys/statfs.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

namespace fs = std::filesystem;

namespace {

// The folder that will hold the store: its own folder, or the nearest one that exists yet.
fs::path existing_folder(const fs::path& store) {
  fs::path dir = fs::absolute(store).parent_path();
  std::error_code ec;
  while (!dir.empty() && !fs::is_directory(dir, ec) && dir != dir.root_path())
    dir = dir.parent_path();
  return dir.empty() ? fs::path("/") : dir;
}

std::string human_bytes(std::uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / static_cast<double>(1ull << 30);
  if (gib >= 1.0) return fmt::format("{:.1f} GiB", gib);
  return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / static_cast<double>(1ull << 20));
}

}  // namespace

std::optional<std::string> network_filesystem_name(std::uint64_t statfs_type) {
  // Magic numbers from linux/magic.h and the file systems' own headers.
  switch (statfs_type) {
    case 0x6969:
      return "NFS";
    case 0x517B:
      return "SMB";
    case 0xFF534D42:
      return "CIFS";
    case 0xFE534D42:
      return "SMB2";
    case 0x0BD00BD0:
      return "Lustre";
    case 0x47504653:
      return "GPFS";
    case 0x01021997:
      return "9p";
    case 0x65735546:
      return "FUSE";
    case 0x00C36400:
      return "Ceph";
    case 0x5346414F:
      return "AFS";
    case 0x6B414653:
      return "kAFS";
    case 0x73757245:
      return "Coda";
    case 0x7461636F:
      return "OCFS2";
    case 0x01161970:
      return "GFS2";
    case 0x19830326:
      return "BeeGFS";
    case 0xAAD7AAEA:
      return "PanFS";
    case 0x564C:
      return "NCP";
    default:
      return std::nullopt;
  }
}

std::vector<Finding> check_store_location(const fs::path& store, std::uint64_t warn_free_bytes,
                                          std::uint64_t error_free_bytes) {
  const fs::path dir = existing_folder(store);
  std::vector<Finding> out;
  struct statfs sfs {};
  if (statfs(dir.c_str(), &sfs) != 0) {
    return {{"store.filesystem", Level::error,
             fmt::format("{}: cannot inspect the store's folder: {}", dir.string(),
                         std::strerror(errno))}};
  }
  if (const auto net = network_filesystem_name(static_cast<std::uint64_t>(sfs.f_type))) {
    out.push_back({"store.filesystem", Level::error,
                   fmt::format("{}: the store's folder {} is on a network file system ({}); "
                               "SQLite locking is unreliable there and perfgate refuses to write "
                               "it: keep the store on local disk and ship result documents to it",
                               store.string(), dir.string(), *net)});
  } else {
    out.push_back(
        {"store.filesystem", Level::info, fmt::format("{}: on a local file system", dir.string())});
  }
  struct statvfs svfs {};
  if (statvfs(dir.c_str(), &svfs) == 0) {
    const std::uint64_t free_bytes =
        static_cast<std::uint64_t>(svfs.f_bavail) * static_cast<std::uint64_t>(svfs.f_frsize);
    const Level level = free_bytes < error_free_bytes  ? Level::error
                        : free_bytes < warn_free_bytes ? Level::warning
                                                       : Level::info;
    out.push_back({"store.free_space", level,
                   fmt::format("{}: {} free{}", dir.string(), human_bytes(free_bytes),
                               level == Level::info ? "" : ": ingest may fail with a full disk")});
  }
  return out;
}

void require_local_store(const fs::path& store) {
  for (const auto& f : check_store_location(store, 0, 0))
    if (f.check == "store.filesystem" && f.level == Level::error) throw ToolError(f.message);
}

}  // namespace perfgate::preflight
