// nneonneo/2048-ai's expectimax playing whole games, for tools/peers/expectimax-vs-nneonneo.sh.
// Their 2048.cpp is included from their checkout at build time (it is not part of this
// repository). The move choice is theirs (a fresh eval_state per root move, depth limit
// max(3, distinct tiles - 2), their cut-off and cache), without the printing; the games are
// this harness's: seeded spawns (splitmix64 per game; 2 with 0.9, 4 with 0.1, a uniformly chosen
// empty cell), so every game is reproducible.
//
//   nneonneo_ai GAMES SEED [MAX_SECONDS [CHECKPOINT]]   -> one line per game, then a summary
//
// With CHECKPOINT (a file), a game's state (board, spawn generator, moves, times) is written
// there every 50 moves and when the time budget cuts the game, and a game whose seed matches
// the file resumes from it: a game of theirs can take longer than one sitting. The file is
// removed when the game ends.
#define main nneonneo_main
#include "2048.cpp"
#undef main
#include <chrono>
#include <cstdio>
#include <string>
#include <ctime>

static uint64_t rng;
static uint64_t splitmix64() {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static board_t spawn(board_t b, int *fours) {
    int empty = b == 0 ? 16 : count_empty(b);  // (theirs assumes a non-empty board)
    int k = (int)(splitmix64() % (uint64_t)empty);
    board_t tile = (splitmix64() % 10 == 0) ? 2 : 1;
    if (tile == 2) ++*fours;
    for (int i = 0; i < 16; ++i) {
        if (((b >> (4 * i)) & 0xf) == 0) {
            if (k == 0) return b | (tile << (4 * i));
            --k;
        }
    }
    return b;
}

static int choose(board_t b) {
    float best = 0;
    int bestmove = -1;
    for (int move = 0; move < 4; ++move) {
        eval_state state;
        state.depth_limit = std::max(3, count_distinct_tiles(b) - 2);
        float res = _score_toplevel_move(state, b, move);
        if (res > best) { best = res; bestmove = move; }
    }
    return bestmove;
}

struct Checkpoint {
    unsigned long long seed, rng, board;
    long moves;
    int fours;
    double secs, cpu;
};

static bool read_checkpoint(const char *path, Checkpoint *c) {
    FILE *f = path ? fopen(path, "r") : 0;
    if (!f) return false;
    int n = fscanf(f, "seed %llu rng %llu board %llx moves %ld fours %d seconds %lf cpu %lf", &c->seed, &c->rng,
                   &c->board, &c->moves, &c->fours, &c->secs, &c->cpu);
    fclose(f);
    return n == 7;
}

static void write_checkpoint(const char *path, const Checkpoint &c) {
    if (!path) return;
    std::string tmp = std::string(path) + ".tmp";
    FILE *f = fopen(tmp.c_str(), "w");
    if (!f) return;
    fprintf(f, "seed %llu rng %llu board %016llx moves %ld fours %d seconds %.1f cpu %.1f\n", c.seed, c.rng,
            c.board, c.moves, c.fours, c.secs, c.cpu);
    fclose(f);
    rename(tmp.c_str(), path);  // whole or not at all, even if the process is killed
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 1;
    uint64_t seed = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
    double max_seconds = argc > 3 ? atof(argv[3]) : 1e18;
    const char *checkpoint = argc > 4 ? argv[4] : 0;
    init_tables();
    int reached[16] = {0};
    long total_moves = 0;
    double total_secs = 0;
    int played = 0;
    auto start = std::chrono::steady_clock::now();
    for (int g = 0; g < games; ++g) {
        rng = seed + g;
        int fours = 0;
        board_t b = spawn(spawn(0, &fours), &fours);
        long moves = 0;
        double secs0 = 0, cpu0 = 0;  // time spent in earlier sittings of a resumed game
        Checkpoint c;
        if (read_checkpoint(checkpoint, &c) && c.seed == seed + g) {
            rng = c.rng;
            b = c.board;
            moves = c.moves;
            fours = c.fours;
            secs0 = c.secs;
            cpu0 = c.cpu;
        }
        auto t0 = std::chrono::steady_clock::now();
        std::clock_t c0 = std::clock();
        // Processor time too: when other work shares the machine, moves per processor second
        // is the AI's own speed.
        auto now_secs = [&] { return secs0 + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
        auto now_cpu = [&] { return cpu0 + double(std::clock() - c0) / CLOCKS_PER_SEC; };
        auto save = [&] { write_checkpoint(checkpoint, Checkpoint{seed + g, rng, b, moves, fours, now_secs(), now_cpu()}); };
        bool cut = false;
        for (;;) {
            int m = choose(b);
            if (m < 0) break;
            board_t nb = execute_move(m, b);
            if (nb == b) break;
            b = spawn(nb, &fours);
            ++moves;
            if (moves % 50 == 0) save();
            if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds) { cut = true; break; }
        }
        if (cut) save();
        else if (checkpoint) remove(checkpoint);
        double secs = now_secs();
        double cpu = now_cpu();
        int maxrank = get_max_rank(b);
        double score = score_board(b) - 4.0 * fours;
        printf("game %d (seed %llu): max %d score %.0f moves %ld seconds %.1f moves/s %.1f cpu %.1f moves/cpu-s %.1f%s\n",
               g, (unsigned long long)(seed + g), 1 << maxrank, score, moves, secs, moves / secs, cpu, moves / cpu,
               cut ? " (cut: time budget)" : "");
        fflush(stdout);
        total_moves += moves;
        total_secs += secs;
        if (cut) break;
        ++played;
        for (int r = 1; r <= maxrank; ++r) reached[r]++;
    }
    printf("nneonneo: %d games, %ld moves, %.1f moves/s;", played, total_moves, total_moves / total_secs);
    for (int r = 9; r <= 15; ++r) printf(" %d: %d%%", 1 << r, played ? 100 * reached[r] / played : 0);
    printf("\n");
    return 0;
}
