// RoPE on the GPU for the `rope` family: the rotate-half form of the CPU reference, with the
// cos/sin table built once per case for the family's `seq` positions (token t at t mod seq).
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/microbench/families/fused_ops.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

constexpr float kRopeBase = 10000.0f;  // the family's base (RopeProblem::angle)

class RopeInstance final : public CudaInstance {
 public:
  RopeInstance(const RopeProblem& p, bool fused)
      : CudaInstance(pc::Precision::f32, {p.x.size()}),
        fused_(fused),
        tokens_(std::int64_t(p.tokens)),
        heads_(std::int64_t(p.heads)),
        d_(std::int64_t(p.d)),
        seq_(std::int64_t(p.seq)),
        x_(upload(p.x, precision_)),
        table_(p.seq * p.d),
        scratch_(fused ? 0 : p.x.size() * sizeof(float)) {
    const std::int64_t width = 16 / std::int64_t(sizeof(float));
    if ((d_ / 2) % width != 0)
      throw CaseUnsupported("cuda rope: d=" + std::to_string(d_) +
                            " needs d/2 to be a multiple of " + std::to_string(width) +
                            " (128-bit accesses per half)");
    pc::rope_table(table_.get(), seq_, d_, kRopeBase, device().stream);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(device().stream));
  }

 private:
  void launch(cudaStream_t s, int) override {
    fused_ ? pc::rope_fused(precision_, x_.get(), table_.get(), seq_, outputs_[0].get(), tokens_,
                            heads_, d_, s)
           : pc::rope_unfused(precision_, x_.get(), table_.get(), seq_, scratch_.get(),
                              outputs_[0].get(), tokens_, heads_, d_, s);
  }
  bool fused_;
  std::int64_t tokens_, heads_, d_, seq_;
  Tensor x_;
  pc::DeviceBuffer<float> table_;  // [seq, d/2] float2
  Tensor scratch_;
};

}  // namespace

PERFGATE_IMPLEMENTATION(rope, RopeProblem, cuda, fused) {
  return make_on_device<RopeInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(rope, RopeProblem, cuda, unfused) {
  return make_on_device<RopeInstance>(problem, false);
}

}  // namespace perfgate::microbench
