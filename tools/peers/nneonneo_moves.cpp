// The native-moves workload on nneonneo/2048-ai's move code, for tools/peers/moves-vs-nneonneo.sh.
// Their 2048.cpp is included from their checkout at build time (it is not part of this
// repository); this harness only drives it. The same workload as
// crates/ref2048/examples/moves_workload.rs: 2^20 boards from splitmix64(0x2048), each moved
// in all four directions, 30 times; prints the checksum (wrapping sum of every result) and
// the time.
#define main nneonneo_main
#include "2048.cpp"
#undef main
#include <chrono>
#include <vector>

static uint64_t splitmix64(uint64_t &s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main() {
    auto t0 = std::chrono::steady_clock::now();
    init_tables();
    std::vector<board_t> boards(1 << 20);
    uint64_t s = 0x2048;
    for (auto &b : boards) b = splitmix64(s);
    auto t1 = std::chrono::steady_clock::now();
    uint64_t sum = 0;
    for (int rep = 0; rep < 30; ++rep) {
        for (board_t b : boards) {
            asm volatile("" : "+r"(b));  // the same opaque barrier as black_box on our side
            for (int m = 0; m < 4; ++m) sum += execute_move(m, b);
        }
    }
    auto t2 = std::chrono::steady_clock::now();
    double moves = 30.0 * 4 * boards.size();
    double ns = std::chrono::duration<double, std::nano>(t2 - t1).count();
    double total = std::chrono::duration<double>(t2 - t0).count();
    printf("checksum %016llx  moves %.0f  %.3f ns/move  %.1f Mmoves/s  (process %.3f s)\n",
           (unsigned long long)sum, moves, ns / moves, moves / ns * 1e3, total);
    return 0;
}
