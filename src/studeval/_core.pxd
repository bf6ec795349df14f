# Declarations of the C core's public API (csrc/include/studeval.h).
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef extern from "studeval.h" nogil:
    const char *SE_VERSION
    int SE_HIGH_CLASSES
    int SE_LOW_CLASSES
    int SE_LOW8_CLASSES
    int SE_NO_LOW
    int SE_MAX_THREADS

    ctypedef enum se_status:
        SE_OK
        SE_BAD_SIZE
        SE_INVALID_CARD
        SE_DUPLICATE_CARD
        SE_BAD_ARGUMENT
        SE_INVALID_ROW
        SE_NO_DEAL
        SE_NO_MEMORY
        SE_TOO_BIG
        SE_STOPPED
        SE_ILLEGAL
        SE_NO_ROOM

    int se_high_rank(const uint8_t *cards, int n)
    int se_low_rank(const uint8_t *cards, int n)
    int se_low8_rank(const uint8_t *cards, int n)
    int se_up_high_rank(const uint8_t *cards, int n)
    int se_up_low_rank(const uint8_t *cards, int n)
    se_status se_rank_batch(const uint8_t *cards, size_t rows, size_t row_stride, int k,
                            uint16_t *high, uint16_t *low, uint16_t *low8, int threads,
                            int check, size_t *first_bad_row)
    se_status se_rank_batch_strided(const uint8_t *cards, size_t rows, size_t row_stride,
                                    size_t col_stride, int k, uint16_t *high, uint16_t *low,
                                    uint16_t *low8, int threads, int check,
                                    size_t *first_bad_row)
    se_status se_random_hands(uint64_t seed, size_t count, int size, uint8_t *out,
                              size_t row_stride)
    enum:
        SE_PARSE_ROW
        SE_LINE_BLANK
        SE_LINE_OTHER
    se_status se_parse_lines(const uint8_t *text, size_t length, uint8_t *cards,
                             uint8_t *status, size_t max_lines, size_t *lines,
                             size_t *counts)
    int se_parse_cards(const uint8_t *text, size_t length, uint8_t *codes, int max_cards)
    int SE_MAX_TEXT_FIELDS
    ctypedef struct se_text_field:
        const char *text
        size_t text_size
        const uint32_t *offsets
        uint32_t count
        const void *index
        size_t index_stride
        int index_bytes

    se_status se_format_rows(const se_text_field *fields, int field_count, size_t rows,
                             char *out, size_t room, size_t *written, size_t *bad_row)
    int se_high_class(int rank, int ranks_out[5])
    int se_low_class(int rank, int ranks_out[5])
    int se_cpu_count()
    const char *se_batch_kernel()
    const char *se_batch_kernel_why()
    const char *se_batch_kernels()
    void se_set_batch_min_rows_per_thread(size_t rows)
    size_t se_batch_min_rows_per_thread()
    size_t se_threads_started()
    const char *se_status_text(int status)

    int SE_EQ_MAX_PLAYERS
    int SE_EQ_UNITS
    int SE_EQ_CHUNK_SAMPLES

    ctypedef enum se_game:
        SE_GAME_STUD
        SE_GAME_STUD8
        SE_GAME_RAZZ
        SE_GAME_STUD_HILO_NOQ

    ctypedef struct se_equity_spot:
        se_game game
        int players
        int known[8]
        uint8_t cards[8][7]
        int dead_count
        uint8_t dead[52]
        int dead_unknown

    ctypedef struct se_equity_counts:
        uint64_t deals
        int community
        uint64_t share[8]
        uint64_t share_sq[8]
        uint64_t high_win[8]
        uint64_t high_tie[8]
        uint64_t low_win[8]
        uint64_t low_tie[8]
        uint64_t scoop[8]
        uint64_t low_share[8]

    se_status se_equity_deals(const se_equity_spot *spot, double *deals, int *community)
    se_status se_equity_sample(const se_equity_spot *spot, uint64_t seed, uint64_t first_chunk,
                               uint64_t chunks, int threads, se_equity_counts *out)
    se_status se_equity_sample_part(const se_equity_spot *spot, uint64_t seed, uint64_t chunk,
                                    int samples, se_equity_counts *out)
    se_status se_equity_sample_steps(const se_equity_spot *spot, uint64_t seed, int step,
                                     uint64_t most, double target_se, se_equity_counts *out)
    ctypedef struct se_progress:
        size_t done
        size_t total
        size_t stop
    se_status se_equity_enumerate(const se_equity_spot *spot, int threads, se_progress *progress,
                                  se_equity_counts *out)
    se_status se_equity_count_heads_up(const se_equity_spot *spot, size_t max_records,
                                       int threads, se_progress *progress, se_equity_counts *out)
    ctypedef struct se_equity_range:
        int seat
        int width
        size_t count
        const uint8_t *cards
        const double *weights

    se_status se_equity_sample_ranges(const se_equity_spot *spot, const se_equity_range *ranges,
                                      int n_ranges, uint64_t seed, uint64_t first_chunk,
                                      uint64_t chunks, int threads, se_equity_counts *out)
    se_status se_equity_tuples(const se_equity_spot *spot, const int *seats, const int *widths,
                               int n_seats, const uint8_t *cards, size_t tuples,
                               size_t max_records, int threads, se_progress *progress,
                               se_equity_counts *out)

    # Queries (PQL): trials and a program of operations.
    int SE_QUERY_MAX_PLAYERS
    int SE_QUERY_MAX_OPS
    int SE_QUERY_MAX_OUTPUTS
    int SE_QUERY_EXACT_RUNOUTS
    int SE_QUERY_RUNOUTS
    ctypedef enum se_query_code:
        SE_Q_CONST
        SE_Q_ADD
        SE_Q_SUB
        SE_Q_MUL
        SE_Q_DIV
        SE_Q_NEG
        SE_Q_LT
        SE_Q_LE
        SE_Q_GT
        SE_Q_GE
        SE_Q_EQ
        SE_Q_NE
        SE_Q_AND
        SE_Q_OR
        SE_Q_NOT
        SE_Q_HI_RATING
        SE_Q_LO_RATING
        SE_Q_HAND_TYPE
        SE_Q_BEST_HI
        SE_Q_BEST_LO
        SE_Q_EQUITY
        SE_Q_WINS_HI
        SE_Q_TIES_HI
        SE_Q_WINS_LO
        SE_Q_TIES_LO
        SE_Q_SCOOPS
        SE_Q_WINNING_TYPE
        SE_Q_UP_TYPE
        SE_Q_LOW_TYPE
        SE_Q_NUT_HI
        SE_Q_NUT_LO
        SE_Q_OUTS
        SE_Q_HVH_EQUITY
        SE_Q_STREET_EQUITY
        SE_Q_UP_IN
    ctypedef struct se_query_op:
        int code
        int a
        int b
        int player
        int street
        double value
    ctypedef struct se_query_program:
        int n_ops
        const se_query_op *ops
        int n_outputs
        const int *outputs
    ctypedef struct se_query_player:
        int n_up
        uint8_t up[4]
        int width
        size_t count
        const uint8_t *combos
        const double *weights
    ctypedef struct se_query_spot:
        se_game game
        int players
        se_query_player player[7]
        int n_dead
        const uint8_t *dead
    se_status se_query_sample(const se_query_spot *spot, const se_query_program *program,
                              uint64_t seed, uint64_t first_trial, size_t trials, int threads,
                              double *out)
    se_status se_query_eval(int game, int players, const se_query_program *program,
                            const uint8_t *dead, int n_dead, const uint8_t *cards,
                            size_t trials, int threads, double *out)

    # Solving a street (heads-up fixed limit).
    int SE_SOLVE_MAX_NODES
    int SE_SOLVE_MAX_COMBOS
    int SE_SOLVE_MAX_BOARDS
    long long SE_SOLVE_MAX_CHIPS
    ctypedef struct se_solve_node:
        int kind
        int seat
        int first_child
        int n_children
        int tied
        double put[2]
    ctypedef struct se_solve_spot:
        se_game game
        double pot
        double rake_rate
        double rake_cap
        uint8_t up[2][4]
        int count[2]
        const uint8_t *hidden[2]
        const double *weights[2]
        const int *group[2]
        int n_groups[2]
        int n_nodes
        const se_solve_node *nodes
        int n_boards
        const uint8_t *boards
    ctypedef struct se_solver:
        pass
    se_status se_solve_new(const se_solve_spot *spot, se_solver **out)
    se_status se_solve_run(se_solver *s, int iterations, int threads, se_progress *progress)
    int se_solve_iterations(const se_solver *s)
    se_status se_solve_strategy(const se_solver *s, int node, double *out, size_t size)
    se_status se_solve_values(se_solver *s, double value[2], double *ev0, double *ev1,
                              double *met0, double *met1, const size_t size[2])
    void se_solve_free(se_solver *s)
    se_status se_solve_best_response(const se_solve_spot *spot, const double *strategy,
                                     size_t size, double value[2])

    # The fixed-limit engine.
    int SE_ENGINE_MAX_SEATS
    int SE_UNKNOWN_CARD
    int64_t SE_ENGINE_MAX_CHIPS

    ctypedef enum se_action:
        SE_ACT_FOLD
        SE_ACT_CHECK
        SE_ACT_CALL
        SE_ACT_BRING_IN
        SE_ACT_COMPLETE
        SE_ACT_BET
        SE_ACT_RAISE

    ctypedef struct se_table_rules:
        int seats
        int64_t ante, bring_in, small_bet, big_bet, rake
        int bring_in_highest, ace_low, board_low, open_pair
        int bring_in_tie_position, action_tie_suit
        int short_all_in_full_bet, bring_in_passes_left, cap_heads_up, deck_reuses_muck
        int short_bring_in_opens, cap_skips_all_in

    ctypedef struct se_legal:
        int fold, check
        int64_t call, bring_in
        int complete_count, bet_count, raise_count
        int64_t complete_to[2]
        int64_t bet_to[2]
        int64_t raise_to[2]

    ctypedef enum se_event_kind:
        SE_EVENT_FOLD
        SE_EVENT_CALL
        SE_EVENT_COMPLETE
        SE_EVENT_BET
        SE_EVENT_RAISE
        SE_EVENT_ANTE
        SE_EVENT_DEAL
        SE_EVENT_COMMUNITY
        SE_EVENT_MUCK

    ctypedef struct se_event:
        se_event_kind kind
        int8_t seat
        uint8_t street
        uint8_t card_count
        uint8_t cards[7]
        int64_t amount
        int64_t to

    ctypedef struct se_hand:
        se_table_rules rules
        int street, actor, showdown, over, settle_due, community
        int64_t stacks[8]
        int64_t contributions[8]
        int64_t payouts[8]
        int64_t rake_taken
        uint8_t cards[8][7]
        int card_count[8]
        uint8_t up[8][4]
        int up_count[8]
        uint8_t folded[8]
        uint8_t out[8]
        uint8_t shown[8]
        uint8_t dealt[8]
        uint64_t known
        se_event *events
        size_t events_count
        uint8_t deck[52]
        int deck_count

    se_status se_hand_init(se_hand *hand, const se_table_rules *rules, const int64_t *stacks)
    se_status se_hand_restart(se_hand *hand, const se_table_rules *rules, const int64_t *stacks)
    void se_hand_free(se_hand *hand)
    se_status se_hand_copy(se_hand *dst, const se_hand *src)
    se_status se_hand_set_deck(se_hand *hand, const uint8_t *cards, int count)
    void se_hand_fix_deck(se_hand *hand)
    se_status se_hand_deal(se_hand *hand, int seat, const uint8_t *cards, int count)
    int se_hand_card_free(const se_hand *hand, int card, int count)
    se_status se_hand_deal_community(se_hand *hand, int card)
    se_status se_hand_deal_random(se_hand *hand, uint64_t seed)
    void se_hand_legal(const se_hand *hand, se_legal *legal)
    se_status se_hand_act(se_hand *hand, se_action action, int64_t to)
    se_status se_hand_show(se_hand *hand, const uint8_t *down, int count)
    se_status se_hand_muck(se_hand *hand)
    se_status se_hand_pay(se_hand *hand, const int64_t *payouts, int64_t rake)

    # A finished hand's seats.
    ctypedef struct se_seat_summary:
        int64_t returned, showdown_won
        int8_t showdown, scooped
    int se_hand_summary(const se_hand *h, int scoops, se_seat_summary *out)

    # Hand histories: one hand's lines read by a room's templates and replayed.
    int SE_HIST_MAX_LISTED
    int SE_HIST_UNSURE
    int SE_HIST_SETTLE

    ctypedef enum se_hist_role:
        SE_HIST_ANTE
        SE_HIST_DEAL
        SE_HIST_BRING_IN
        SE_HIST_COMPLETE
        SE_HIST_BET
        SE_HIST_RAISE
        SE_HIST_CALL
        SE_HIST_CHECK
        SE_HIST_FOLD
        SE_HIST_ALL_IN
        SE_HIST_RETURN
        SE_HIST_SHOW
        SE_HIST_MUCK
        SE_HIST_COLLECT
        SE_HIST_STREET
        SE_HIST_SEAT
        SE_HIST_REVEAL
        SE_HIST_TOTAL
        SE_HIST_STRICT
        SE_HIST_WON
        SE_HIST_NAME

    ctypedef struct se_hist_template:
        int role
        int value
        const char *text

    int SE_HIST_POT_AFTER_RAKE
    int SE_HIST_RETURNS_UNWRITTEN
    int SE_HIST_COLLECTS_RETURNS
    int SE_HIST_FIRST_STREET_3
    int SE_HIST_DEALS_REPEAT_ALL
    int SE_HIST_RAKE_UNWRITTEN
    int SE_HIST_CARD_BY_CARD
    int SE_HIST_STREETS_BY_DEALS
    int SE_HIST_HERO_MARKED
    int SE_HIST_SIGN_DOLLAR
    int SE_HIST_SIGN_EURO
    int SE_HIST_SIGN_POUND

    ctypedef struct se_hist_grammar:
        se_hist_template *templates
        int count
        int flags
        int compiled

    ctypedef struct se_hist_money:
        int64_t digits
        int places
        int sign

    ctypedef struct se_hist_hand:
        int unsure_at
        int header_end
        int listed
        int seat_number[10]
        int name_at[10]
        int name_len[10]
        int places, players, hero
        int player[8]
        int64_t stacks[8]
        int64_t ante, bring_in, small_bet, big_bet, rake
        int signs, stack_signs
        int64_t collected[8]

    int se_hist_compile(se_hist_grammar *grammar)
    int se_hist_read(const se_hist_grammar *grammar, const char *text, size_t size,
                     se_hist_hand *hand)
    int se_hist_prepare(se_hist_hand *hand, const char *small_bet, int small_len,
                        const char *big_bet, int big_len)
    int se_hist_play(se_hist_hand *hand, se_hand *table)
    int64_t se_hist_unwritten_rake(se_hist_hand *hand, const int64_t *returned)
    int se_hist_check_end(se_hist_hand *hand, const int64_t *returned)
    int se_hist_read_ipoker(const char *text, size_t size, const char *hero, int hero_len,
                            int tournament, se_hist_hand *hand)
    int se_hist_read_merge(const char *text, size_t size, int tournament, se_hist_hand *hand)
    ctypedef struct se_hist_stamp:
        int id_at, id_end, rest_at, time_at, time_end, zone_at, zone_end
        int again_at, again_end
        int clock[6]
    int se_hist_stamp_of(const char *text, size_t size, const char *prefix,
                         se_hist_stamp *out)
    int SE_HIST_MAX_HEADS
    int64_t se_hist_line_starts(const char *text, size_t size, size_t at,
                                const char *const *heads, const size_t *sizes, int count,
                                int64_t first_line, int64_t *starts, int64_t *numbers,
                                size_t room)

    # Settlement of a showdown in C.
    ctypedef struct se_settle_rules:
        se_game game
        int64_t chip, rake
        int rake_at_most, odd_chip_played, odd_chip_low_high_card, odd_chips_first_seat
        int odd_chip_half_low, split_pots_merged

    se_status se_settle(const se_settle_rules *rules, int seats, const uint8_t (*cards)[7],
                        const uint8_t *live, int community, const int64_t *contributions,
                        int64_t *payouts, int64_t *returned, int64_t *rake_taken)

    # Tables: many hands stepped together.
    int SE_TABLE_ACTIONS
    int SE_TABLE_HISTORY

    ctypedef struct se_tables_view:
        int8_t *actor
        uint8_t *legal
        int64_t *totals
        int8_t *street
        int64_t *pot
        int64_t *to_call
        int64_t *stacks
        int64_t *bets
        uint8_t *folded
        uint8_t *cards
        uint8_t *up
        uint8_t *history
        int64_t *rewards
        uint8_t *done
        uint64_t *hands_played

    ctypedef struct se_tables:
        size_t n
        se_table_rules rules
        se_tables_view view

    void se_hand_table_choices(const se_hand *hand, uint8_t *legal, int64_t *totals, int *kinds)
    se_status se_tables_init(se_tables *tables, size_t n, const se_table_rules *rules,
                             const se_settle_rules *settle, uint64_t seed,
                             const se_tables_view *view)
    se_status se_tables_start(se_tables *tables, const int64_t *stacks)
    se_status se_tables_reset(se_tables *tables, uint64_t seed)
    se_status se_tables_check(const se_tables *tables, const int64_t *actions, size_t *bad)
    se_status se_tables_step(se_tables *tables, const int64_t *actions, int threads,
                             int *workers, size_t *bad)
    se_status se_tables_last(const se_tables *tables, size_t i, const se_hand **hand)
    void se_tables_free(se_tables *tables)
