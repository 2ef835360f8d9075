// A PMPI interposer for tests, loaded with LD_PRELOAD: counts the MPI calls that show how
// perfgate-collectives launches its operations (blocking or nonblocking collectives, barriers,
// waits, where all_reduce's buffers start) and, at MPI_Finalize, writes them to
// "$MPI_CALL_COUNTS.<rank>" as "name count" lines. It uses MPI's own profiling interface, so the
// program runs unchanged.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

std::map<std::string, long>& counts() {
  static std::map<std::string, long> c;
  return c;
}

void count(const char* name) {
  ++counts()[name];
}

// Where in its page a buffer starts ("MPI_Allreduce.recv_page_offset.12"): -u's misalignment.
void count_page_offset(const char* call, const char* buffer, const void* p) {
  if (p == MPI_IN_PLACE) return;
  const auto offset = reinterpret_cast<std::uintptr_t>(p) % 4096;
  count((std::string(call) + "." + buffer + "_page_offset." + std::to_string(offset)).c_str());
}

}  // namespace

extern "C" {

int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  count("MPI_Allreduce");
  count_page_offset("MPI_Allreduce", "send", s);
  count_page_offset("MPI_Allreduce", "recv", r);
  return PMPI_Allreduce(s, r, n, t, o, c);
}

int MPI_Iallreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c,
                   MPI_Request* q) {
  count("MPI_Iallreduce");
  return PMPI_Iallreduce(s, r, n, t, o, c, q);
}

int MPI_Iallgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                   MPI_Comm c, MPI_Request* q) {
  count("MPI_Iallgather");
  return PMPI_Iallgather(s, sn, st, r, rn, rt, c, q);
}

int MPI_Ireduce_scatter_block(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c,
                              MPI_Request* q) {
  count("MPI_Ireduce_scatter_block");
  return PMPI_Ireduce_scatter_block(s, r, n, t, o, c, q);
}

int MPI_Ibcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* q) {
  count("MPI_Ibcast");
  return PMPI_Ibcast(b, n, t, root, c, q);
}

int MPI_Ireduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c,
                MPI_Request* q) {
  count("MPI_Ireduce");
  return PMPI_Ireduce(s, r, n, t, o, root, c, q);
}

int MPI_Ialltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c, MPI_Request* q) {
  count("MPI_Ialltoall");
  return PMPI_Ialltoall(s, sn, st, r, rn, rt, c, q);
}

int MPI_Igather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c, MPI_Request* q) {
  count("MPI_Igather");
  return PMPI_Igather(s, sn, st, r, rn, rt, root, c, q);
}

int MPI_Iscatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c, MPI_Request* q) {
  count("MPI_Iscatter");
  return PMPI_Iscatter(s, sn, st, r, rn, rt, root, c, q);
}

int MPI_Isend(const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request* q) {
  count("MPI_Isend");
  return PMPI_Isend(b, n, t, dest, tag, c, q);
}

int MPI_Waitall(int n, MPI_Request* q, MPI_Status* st) {
  count("MPI_Waitall");
  return PMPI_Waitall(n, q, st);
}

int MPI_Barrier(MPI_Comm c) {
  count("MPI_Barrier");
  return PMPI_Barrier(c);
}

int MPI_Finalize() {
  const char* prefix = std::getenv("MPI_CALL_COUNTS");
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (prefix != nullptr) {
    const std::string path = std::string(prefix) + "." + std::to_string(rank);
    if (FILE* f = std::fopen(path.c_str(), "w")) {
      for (const auto& [name, n] : counts()) std::fprintf(f, "%s %ld\n", name.c_str(), n);
      std::fclose(f);
    }
  }
  return PMPI_Finalize();
}

}  // extern "C"
