#ifndef CRACELAB_SHA256_H
#define CRACELAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

// Hashing (SHA256Blocks.c). Part of CRaceLabSupport.h.

// Hashing.

/// SHA-256's block function over `blocks` 64-byte blocks at `data` (SHA256.swift does the rest).
void rl_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
