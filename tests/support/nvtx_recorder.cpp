// An NVTX injection library for tests: what Nsight Systems is to a profiled process, reduced to
// writing each domain, push and pop to the file $PERFGATE_NVTX_LOG (appending, one line each).
// A process loads it when NVTX_INJECTION64_PATH names it, through NVTX's own loader.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void note(const std::string& line) {
  const char* path = std::getenv("PERFGATE_NVTX_LOG");
  if (path == nullptr) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

// A domain handle is the domain's name, kept for the process's life.
const char* name_of(nvtxDomainHandle_t domain) {
  return domain != nullptr ? reinterpret_cast<const std::string*>(domain)->c_str() : "(global)";
}

nvtxDomainHandle_t create_domain(const char* name) {
  note(std::string("domain ") + name);
  return reinterpret_cast<nvtxDomainHandle_t>(new std::string(name));
}

int push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  const bool ascii = attributes != nullptr && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII;
  note(std::string("push ") + name_of(domain) + " " +
       (ascii ? attributes->message.ascii : "(not ascii)"));
  return 0;
}

int pop(nvtxDomainHandle_t domain) {
  note(std::string("pop ") + name_of(domain));
  return 0;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (callbacks == nullptr ||
      callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) == 0 ||
      size <= NVTX_CBID_CORE2_DomainCreateA)
    return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = reinterpret_cast<NvtxFunctionPointer>(&create_domain);
  *table[NVTX_CBID_CORE2_DomainRangePushEx] = reinterpret_cast<NvtxFunctionPointer>(&push);
  *table[NVTX_CBID_CORE2_DomainRangePop] = reinterpret_cast<NvtxFunctionPointer>(&pop);
  return 1;
}
