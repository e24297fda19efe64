// golden_ch05.cpp — positional encodings against the oracle's independent PyTorch formulation.
#include <doctest/doctest.h>

#include <cmath>

#include "model/attention/attention.h"
#include "core/matmul.h"
#include "helpers.h"
#include "model/positions/positional.h"
#include "report/vector_measures.h"

TEST_CASE("ch05 golden: the sinusoidal encoding, even and odd d_model") {
    for (const char* path :
         {"data/ch05_positional_encoding.json", "tests/data/ch05_positional_encoding.other.json"}) {
        CAPTURE(path);
        const DataFile data = DataFile::load(path);
        const std::size_t n = data.size("inputs.pe_positions", 0, 1 << 20);
        const Matrix pe = sinusoidal_encoding(n, data.size("inputs.d_model", 0, 1 << 20));
        check_close(pe, data, "pe");
        check_close(sinusoidal_encoding(n, data.size("inputs.odd_d_model", 0, 1 << 20)), data,
                    "pe_odd");
        check_close(row_norms(pe), data, "pe_norms");
        check_close(neighbour_distances(pe), data, "pe_neighbour_distances");
        check_close(binary_positions(n, data.size("inputs.binary_bits", 0, 1 << 20)), data,
                    "binary_positions");
    }
}

TEST_CASE("PE(pos + k) = PE(pos)·M_k, for every pos, with M_k independent of pos") {
    const std::size_t d = 16;
    const Matrix pe = sinusoidal_encoding(40, d);
    for (std::size_t k : {1u, 3u, 7u}) {
        const Matrix M = offset_rotation(k, d);
        for (std::size_t pos : {0u, 5u, 20u, 32u})
            CHECK(max_abs_diff(matmul(row_of(pe, pos), M), row_of(pe, pos + k)) <= 1e-12);
    }
    // the dot product of two positions depends on their distance only
    for (std::size_t k = 0; k < 5; ++k) {
        const double first = matmul(row_of(pe, 0), transpose(row_of(pe, k)))(0, 0);
        for (std::size_t pos = 1; pos + k < 40; ++pos)
            CHECK(std::fabs(matmul(row_of(pe, pos), transpose(row_of(pe, pos + k)))(0, 0) -
                            first) <= 1e-12);
    }
}

TEST_CASE("every sinusoidal row has norm √(d/2) and entries in [−1, 1]") {
    const Matrix pe = sinusoidal_encoding(50, 10);
    for (std::size_t r = 0; r < 50; ++r)
        CHECK(row_norms(pe)(r, 0) == doctest::Approx(std::sqrt(5.0)).epsilon(1e-14));
    for (double x : pe.data) CHECK(std::fabs(x) <= 1.0);
}
