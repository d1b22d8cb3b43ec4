// storage/page/block.h
//
// Basic on-disk units shared by page, smgr and buffer: the block size, block
// numbers and item offset numbers. Plain value types; safe anywhere.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hearth::storage {

// On-disk: every relation fork is a sequence of kBlockSize-byte blocks.
// Changing it changes the file format of every relation.
inline constexpr size_t kBlockSize = 8192;

// Block number within one relation fork (0-based). 0xFFFFFFFF is never a
// valid block, so a relation fork holds at most 2^32 - 1 blocks (32 TiB).
using BlockNumber = uint32_t;
inline constexpr BlockNumber kInvalidBlockNumber = 0xFFFFFFFFu;

// 1-based index of a line pointer on a page; 0 means "none".
using OffsetNumber = uint16_t;
inline constexpr OffsetNumber kInvalidOffsetNumber = 0;
inline constexpr OffsetNumber kFirstOffsetNumber = 1;

}  // namespace hearth::storage
