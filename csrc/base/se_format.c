/* Text rows from lookup tables (see studeval.h): the writer behind the command
 * line's csv, jsonl and table output. The texts are the caller's; this only
 * concatenates them, row by row, checking every index and the room left. */
#include "studeval.h"

#include <string.h>

#if defined(_MSC_VER)
#define SE_FORMAT_INLINE static __forceinline
#else
#define SE_FORMAT_INLINE static inline __attribute__((always_inline))
#endif

/* The index field f takes in row r (uint8 or uint16 columns). */
static uint32_t se_field_index(const se_text_field *f, size_t r) {
    const uint8_t *at = (const uint8_t *)f->index + r * f->index_stride;
    if (f->index_bytes == 1) return *at;
    uint16_t value;
    memcpy(&value, at, sizeof value); /* the column need not be aligned */
    return value;
}

/* Copies `length` bytes, as one fixed-size copy of `wide` bytes when the source
 * and the destination both have that much room (the bytes past `length` are
 * written over by what follows, or lie past the end the caller keeps). */
SE_FORMAT_INLINE void se_copy_text(char *out, const char *text, size_t length, size_t wide,
                                   int room_to_spare) {
    if (room_to_spare) {
        switch (wide) {
        case 16: memcpy(out, text, 16); return;
        case 32: memcpy(out, text, 32); return;
        case 64: memcpy(out, text, 64); return;
        default: break;
        }
    }
    memcpy(out, text, length);
}

/* se_format_quick's answer when its case does not apply (nothing written). */
#define SE_NOT_QUICK 1

/* The common case, when the room holds the longest rows with 64 bytes to spare
 * and every text has 64 spare bytes: each field's texts copied in one fixed-size
 * block of wide[i] <= 64 bytes, no other check than the index's. A block reaches
 * at most 64 bytes past the text written so far, which never passes rows times
 * the longest row (the sum of each field's longest text, `longest`). Returns
 * SE_OK, SE_INVALID_ROW or SE_NOT_QUICK. */
static int se_format_quick(const se_text_field *fields, int field_count, size_t rows,
                           char *out, size_t room, const size_t *wide, const size_t *longest,
                           size_t *written, size_t *bad_row) {
    /* Locals, not the caller's structs: stores into `out` may alias anything a
     * pointer reaches, and would make the compiler reload the fields each time. */
    const char *text[SE_MAX_TEXT_FIELDS];
    const uint32_t *offsets[SE_MAX_TEXT_FIELDS];
    const uint8_t *index[SE_MAX_TEXT_FIELDS];
    size_t stride[SE_MAX_TEXT_FIELDS], block[SE_MAX_TEXT_FIELDS];
    uint32_t count[SE_MAX_TEXT_FIELDS];
    int bytes[SE_MAX_TEXT_FIELDS];
    size_t longest_row = 0;
    for (int i = 0; i < field_count; i++) {
        const se_text_field *f = &fields[i];
        if (wide[i] == 0 || f->text_size - f->offsets[f->count] < 64) return SE_NOT_QUICK;
        text[i] = f->text;
        offsets[i] = f->offsets;
        index[i] = (const uint8_t *)f->index;
        stride[i] = f->index_stride;
        block[i] = wide[i];
        count[i] = f->count;
        bytes[i] = f->index_bytes;
        longest_row += longest[i];
    }
    if (rows > 0 && (room < 64 || (room - 64) / rows < longest_row)) return SE_NOT_QUICK;
    size_t at = 0;
    for (size_t r = 0; r < rows; r++) {
        for (int i = 0; i < field_count; i++) {
            const uint8_t *p = index[i] + r * stride[i];
            uint32_t k = *p;
            if (bytes[i] == 2) {
                uint16_t value;
                memcpy(&value, p, sizeof value);
                k = value;
            }
            if (k >= count[i]) {
                if (bad_row != NULL) *bad_row = r;
                *written = at;
                return SE_INVALID_ROW;
            }
            uint32_t begin = offsets[i][k];
            se_copy_text(out + at, text[i] + begin, 0, block[i], 1);
            at += offsets[i][k + 1] - begin;
        }
    }
    *written = at;
    return SE_OK;
}

se_status se_format_rows(const se_text_field *fields, int field_count, size_t rows, char *out,
                         size_t room, size_t *written, size_t *bad_row) {
    size_t wide[SE_MAX_TEXT_FIELDS], longest[SE_MAX_TEXT_FIELDS];
    if (fields == NULL || field_count < 1 || field_count > SE_MAX_TEXT_FIELDS ||
        (rows > 0 && out == NULL) || written == NULL)
        return SE_BAD_ARGUMENT;
    for (int i = 0; i < field_count; i++) {
        const se_text_field *f = &fields[i];
        if (f->text == NULL || f->offsets == NULL || f->count == 0 || f->index == NULL ||
            (f->index_bytes != 1 && f->index_bytes != 2))
            return SE_BAD_ARGUMENT;
        longest[i] = 0;
        for (uint32_t j = 0; j < f->count; j++) {
            if (f->offsets[j + 1] < f->offsets[j] || f->offsets[j + 1] > f->text_size)
                return SE_BAD_ARGUMENT; /* offsets must not fall or pass the text */
            size_t length = f->offsets[j + 1] - f->offsets[j];
            if (length > longest[i]) longest[i] = length;
        }
        wide[i] = longest[i] <= 16 ? 16 : longest[i] <= 32 ? 32 : longest[i] <= 64 ? 64 : 0;
    }
    int quick = se_format_quick(fields, field_count, rows, out, room, wide, longest, written,
                                bad_row);
    if (quick != SE_NOT_QUICK) return (se_status)quick;
    size_t at = 0;
    for (size_t r = 0; r < rows; r++) {
        for (int i = 0; i < field_count; i++) {
            const se_text_field *f = &fields[i];
            uint32_t index = se_field_index(f, r);
            if (index >= f->count) {
                if (bad_row != NULL) *bad_row = r;
                *written = at;
                return SE_INVALID_ROW;
            }
            uint32_t begin = f->offsets[index];
            size_t length = f->offsets[index + 1] - begin;
            if (length > room - at) {
                if (bad_row != NULL) *bad_row = r;
                *written = at;
                return SE_NO_ROOM; /* the caller gave too small a buffer */
            }
            int spare = wide[i] > 0 && wide[i] <= room - at && wide[i] <= f->text_size - begin;
            se_copy_text(out + at, f->text + begin, length, wide[i], spare);
            at += length;
        }
    }
    *written = at;
    return SE_OK;
}
