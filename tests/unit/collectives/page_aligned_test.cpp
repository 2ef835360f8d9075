#include <catch2/catch.hpp>

#include <cstdint>

#include "perfgate/collectives/page_aligned.hpp"

using perfgate::collectives::PageAlignedVector;

TEST_CASE("page-aligned buffers start on a page boundary at every size and after growing") {
  for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(4096), std::size_t(16385),
                        std::size_t(1) << 20}) {
    INFO(n);
    PageAlignedVector<float> v(n, 1.5f);
    CHECK(reinterpret_cast<std::uintptr_t>(v.data()) % 4096 == 0);
    CHECK(v.back() == 1.5f);
  }
  PageAlignedVector<std::byte> grown;
  grown.assign(100000, std::byte{7});
  CHECK(reinterpret_cast<std::uintptr_t>(grown.data()) % 4096 == 0);
  CHECK(grown[99999] == std::byte{7});
}
