#include <catch2/catch.hpp>

#include "perfgate/core/byte_size.hpp"
#include "perfgate/core/error.hpp"

using perfgate::InputError;
using perfgate::parse_byte_size;

TEST_CASE("byte sizes take K, M and G suffixes (powers of 1024), in either case") {
  CHECK(parse_byte_size("8", "-b") == 8);
  CHECK(parse_byte_size("0", "-b") == 0);  // whether zero is allowed is the caller's rule
  CHECK(parse_byte_size("64K", "-b") == 65536);
  CHECK(parse_byte_size("64k", "-b") == 65536);
  CHECK(parse_byte_size("1M", "-b") == 1048576);
  CHECK(parse_byte_size("8G", "-e") == 8589934592ULL);
  CHECK(parse_byte_size("9223372036854775807", "-e") == perfgate::kLargestByteSize);
  CHECK(parse_byte_size("8589934591G", "-e") == 8589934591ULL << 30);
}

TEST_CASE("a malformed byte size names the option and the text") {
  CHECK_THROWS_WITH(parse_byte_size("12Q", "--minbytes"), Catch::Contains("--minbytes") &&
                                                              Catch::Contains("'12Q'") &&
                                                              Catch::Contains("unknown suffix"));
  CHECK_THROWS_WITH(parse_byte_size("", "sizes"), Catch::Contains("sizes: '' is not a size"));
  for (const char* bad : {"-1", "+8", " 8", "K", "1.5M", "0x10", "8 K", "8KB", "8KK"})
    CHECK_THROWS_AS(parse_byte_size(bad, "-b"), InputError);
}

TEST_CASE("a byte size past 2^63 - 1 is refused instead of wrapping") {
  // The sweep plans' own parser (before this one was shared) multiplied without a check:
  // "8589934592G" overflowed a signed 64-bit product there.
  for (const char* big : {"9223372036854775808", "18446744073709551616", "8589934592G",
                          "9007199254740992K", "99999999999999999999999G"})
    CHECK_THROWS_WITH(parse_byte_size(big, "-e"), Catch::Contains("more than the largest size"));
}
