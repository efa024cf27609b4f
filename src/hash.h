/* hash.h - a fast 64-bit hash for byte strings (names, whole sample lines).
 *
 * Reads eight bytes at a time and mixes with multiply-xorshift steps; good
 * enough for the hash tables of hashtab.h, keyed by short names and 10 KB lines
 * alike.  Not for adversarial keys (inputs are profiles, not network data).
 */
#ifndef SS_HASH_H
#define SS_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t ss_mix64(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

static inline uint64_t ss_hash(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
    if (len >= 32) {
        /* Four independent lanes keep the multipliers busy on long lines. */
        uint64_t a = h, b = h ^ 0x243f6a8885a308d3ULL, c = h ^ 0x13198a2e03707344ULL,
                 d = h ^ 0xa4093822299f31d0ULL;
        do {
            uint64_t w[4];
            memcpy(w, p, 32);
            a = (a ^ w[0]) * 0x9e3779b97f4a7c15ULL;
            b = (b ^ w[1]) * 0xc2b2ae3d27d4eb4fULL;
            c = (c ^ w[2]) * 0x165667b19e3779f9ULL;
            d = (d ^ w[3]) * 0xd6e8feb86659fd93ULL;
            a ^= a >> 31;
            b ^= b >> 29;
            c ^= c >> 32;
            d ^= d >> 33;
            p += 32;
            len -= 32;
        } while (len >= 32);
        h = ss_mix64(a) ^ ss_mix64(b + 0x9e3779b97f4a7c15ULL) ^ (c * 0xff51afd7ed558ccdULL) ^ d;
    }
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ (w * 0xc2b2ae3d27d4eb4fULL)) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    uint64_t t = 0;
    if (len)
        memcpy(&t, p, len);
    h ^= t * 0x165667b19e3779f9ULL;
    return ss_mix64(h);
}

#endif
