#pragma once
// A plain blocked fp32 GEMM, the compute load of the MPI backend's overlap benchmark.
namespace perfgate::collectives {

// c = a × b for n×n row-major matrices.
void blocked_gemm(int n, const float* a, const float* b, float* c);

}  // namespace perfgate::collectives
