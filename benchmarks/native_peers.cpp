// studeval's C core beside the fastest native 7-card high evaluators, one thread, in
// CPU ns a hand. Built and run by benchmarks/native_report.py, which says how; the
// peers' sources are not part of studeval: build with -DWITH_SKPOKEREVAL and
// -I<SKPokerEval>/src, and with -DWITH_OMPEVAL, -I<OMPEval> and its
// omp/HandEvaluator.cpp, for the peers the user has.
//
//   native_peers HANDS PASSES WHAT
//
// WHAT: "batch_high", "batch_all" (se_rank_batch, one thread; STUDEVAL_KERNEL picks
// the kernel), "batch_high_unchecked" (the same without the check of each hand's
// cards, which the peers do not make), "single" (se_high_rank a hand), "skpokereval" (SevenEval::GetRank
// from card ids), "ompeval" (HandEvaluator::evaluate of a Hand made from the ids in
// the loop), or "verify": every evaluator present ranks the same hands in the same
// order (equal exactly where studeval's are, one order), a line a peer. A timing
// prints "WHAT ns", the best of PASSES passes after one untimed, and a checksum.
#define _POSIX_C_SOURCE 200809L

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

extern "C" {
#include <studeval.h>
}

#ifdef WITH_SKPOKEREVAL
#include "SevenEval.h"
#endif
#ifdef WITH_OMPEVAL
#include "omp/HandEvaluator.h"
#endif

namespace {

double thread_cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Random 7-card hands, distinct cards in random order (studeval's codes: 4 x rank +
// suit, the deuce 0), from a fixed seed: every process ranks the same ones.
std::vector<uint8_t> random_hands(size_t n) {
    std::vector<uint8_t> cards(n * 7);
    uint64_t state = 0x0123456789ABCDEFull;
    uint8_t deck[52];
    for (size_t h = 0; h < n; h++) {
        for (int c = 0; c < 52; c++) deck[c] = uint8_t(c);
        for (int i = 0; i < 7; i++) {
            int j = i + int(splitmix64(state) % uint64_t(52 - i));
            std::swap(deck[i], deck[j]);
            cards[h * 7 + size_t(i)] = deck[i];
        }
    }
    return cards;
}

// The best of `passes` timed passes (one untimed first), in ns a hand; `sum` keeps
// the outputs alive.
template <class Pass> double best_ns(size_t n, int passes, Pass pass, uint64_t &sum) {
    sum = pass();
    double best = 1e300;
    for (int p = 0; p < passes; p++) {
        double start = thread_cpu_seconds();
        sum += pass();
        best = std::min(best, thread_cpu_seconds() - start);
    }
    return best * 1e9 / double(n);
}

uint64_t fold(const std::vector<uint16_t> &out) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a of the outputs
    for (uint16_t v : out) h = (h ^ v) * 1099511628211ull;
    return h;
}

// Whether `theirs` orders the hands as studeval's high ranks do (smaller better):
// sorted by studeval's rank, theirs (larger better) falls exactly where ours rises.
bool same_order(const std::vector<uint16_t> &ours, const std::vector<uint16_t> &theirs) {
    std::vector<std::pair<uint16_t, uint16_t>> pairs(ours.size());
    for (size_t i = 0; i < ours.size(); i++) pairs[i] = {ours[i], theirs[i]};
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    for (size_t i = 1; i < pairs.size(); i++)
        if (pairs[i].first == pairs[i - 1].first || pairs[i].second >= pairs[i - 1].second)
            return false;
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: native_peers HANDS PASSES WHAT\n");
        return 2;
    }
    size_t n = size_t(std::strtoull(argv[1], nullptr, 10));
    int passes = std::atoi(argv[2]);
    const char *what = argv[3];
    std::vector<uint8_t> cards = random_hands(n);
    std::vector<uint16_t> high(n), low(n), low8(n);
    uint64_t sum = 0;
    size_t bad = 0;
    double ns = -1;
    if (!std::strncmp(what, "batch_", 6)) {
        bool all = !std::strcmp(what, "batch_all");
        int check = std::strcmp(what, "batch_high_unchecked") != 0;
        if (!all && check && std::strcmp(what, "batch_high")) {
            std::fprintf(stderr, "native_peers: no such measure: %s\n", what);
            return 2;
        }
        ns = best_ns(n, passes, [&] {
            se_rank_batch(cards.data(), n, 7, 7, high.data(), all ? low.data() : nullptr,
                          all ? low8.data() : nullptr, 1, check, &bad);
            return uint64_t(high[n / 2]) + (all ? low[n / 3] : 0);
        }, sum);  // threads=1: the calling thread, whose CPU time is timed
        std::printf("kernel %s\n", se_batch_kernel());
    } else if (!std::strcmp(what, "single")) {
        ns = best_ns(n, passes, [&] {
            for (size_t h = 0; h < n; h++) high[h] = uint16_t(se_high_rank(&cards[h * 7], 7));
            return uint64_t(high[n / 2]);
        }, sum);
#ifdef WITH_SKPOKEREVAL
    } else if (!std::strcmp(what, "skpokereval")) {
        // SKPokerEval numbers the ace of spades 0 and the deuce of clubs 51: its ids,
        // made before the timing (the same suits: 51 - code keeps each code's suit apart).
        std::vector<uint8_t> ids(cards.size());
        for (size_t i = 0; i < cards.size(); i++) ids[i] = uint8_t(51 - cards[i]);
        ns = best_ns(n, passes, [&] {
            for (size_t h = 0; h < n; h++) {
                const uint8_t *c = &ids[h * 7];
                high[h] = SevenEval::GetRank(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
            }
            return uint64_t(high[n / 2]);
        }, sum);
#endif
#ifdef WITH_OMPEVAL
    } else if (!std::strcmp(what, "ompeval")) {
        omp::HandEvaluator evaluator;  // OMPEval's ids are studeval's codes
        ns = best_ns(n, passes, [&] {
            for (size_t h = 0; h < n; h++) {
                const uint8_t *c = &cards[h * 7];
                omp::Hand hand = omp::Hand::empty() + omp::Hand(c[0]) + omp::Hand(c[1]) +
                                 omp::Hand(c[2]) + omp::Hand(c[3]) + omp::Hand(c[4]) +
                                 omp::Hand(c[5]) + omp::Hand(c[6]);
                high[h] = evaluator.evaluate(hand);
            }
            return uint64_t(high[n / 2]);
        }, sum);
#endif
    } else if (!std::strcmp(what, "verify")) {
        std::vector<uint16_t> ours(n), theirs(n);
        if (se_rank_batch(cards.data(), n, 7, 7, ours.data(), nullptr, nullptr, 1, 1, &bad)) {
            std::printf("verify studeval FAILED: the batch refused row %zu\n", bad);
            return 1;
        }
        for (size_t h = 0; h < n; h++)
            if (se_high_rank(&cards[h * 7], 7) != ours[h]) {
                std::printf("verify single FAILED at hand %zu\n", h);
                return 1;
            }
        std::printf("verify single ok: se_high_rank equals the batch on %zu hands\n", n);
#ifdef WITH_SKPOKEREVAL
        for (size_t h = 0; h < n; h++) {
            const uint8_t *c = &cards[h * 7];
            theirs[h] = SevenEval::GetRank(uint8_t(51 - c[0]), uint8_t(51 - c[1]),
                                           uint8_t(51 - c[2]), uint8_t(51 - c[3]),
                                           uint8_t(51 - c[4]), uint8_t(51 - c[5]),
                                           uint8_t(51 - c[6]));
        }
        std::printf("verify skpokereval %s\n", same_order(ours, theirs) ? "ok" : "FAILED");
#endif
#ifdef WITH_OMPEVAL
        omp::HandEvaluator evaluator;
        for (size_t h = 0; h < n; h++) {
            omp::Hand hand = omp::Hand::empty();
            for (int i = 0; i < 7; i++) hand += omp::Hand(cards[h * 7 + size_t(i)]);
            theirs[h] = evaluator.evaluate(hand);
        }
        std::printf("verify ompeval %s\n", same_order(ours, theirs) ? "ok" : "FAILED");
#endif
        return 0;
    } else {
        std::fprintf(stderr, "native_peers: no evaluator %s in this build\n", what);
        return 2;
    }
    std::printf("%s %.3f %016llx %llu\n", what, ns, (unsigned long long)fold(high),
                (unsigned long long)sum);
    return 0;
}
