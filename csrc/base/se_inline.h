/* SE_INLINE: a function every caller gets inlined (the hot loops rely on it). Internal. */
#ifndef SE_INLINE_H
#define SE_INLINE_H

#if defined(_MSC_VER)
#include <intrin.h>
#define SE_INLINE static __forceinline
#else
#define SE_INLINE static inline __attribute__((always_inline))
#endif

#endif /* SE_INLINE_H */
