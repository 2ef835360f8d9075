#pragma once
// The attention scores a mask keeps: the count both backends' FLOP models rest on.
#include <algorithm>
#include <cstddef>

namespace perfgate {

// Over lq query rows and lk keys: all lq·lk, or with the bottom-right aligned causal mask
// (query i sees keys up to i + lk − lq) and m = min(lq, lk): m·lk − m(m−1)/2, i.e.
// Sq·Sk − Sq(Sq−1)/2 when Sq ≤ Sk; with lq > lk the first lq − lk rows see no key.
inline std::size_t kept_scores(bool causal, std::size_t lq, std::size_t lk) {
  if (!causal) return lq * lk;
  const std::size_t m = std::min(lq, lk);
  return m * lk - m * (m - 1) / 2;
}

}  // namespace perfgate
