// access/transam/crc32c.h
//
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), used to checksum WAL
// records. Uses the SSE4.2 crc32 instruction when the CPU has it (checked once
// at run time), else a slicing-by-8 table. Pure functions: safe from any
// thread or process.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hearth::access {

// Continues a CRC-32C over `len` bytes. Start with kCrc32cInit, feed the data
// in any number of pieces, finish with Crc32cFinish. Crc32cFinish(Crc32cUpdate(
// kCrc32cInit, "123456789", 9)) == 0xE3069283.
inline constexpr uint32_t kCrc32cInit = 0xFFFFFFFFu;
uint32_t Crc32cUpdate(uint32_t crc, const void* data, size_t len);
inline constexpr uint32_t Crc32cFinish(uint32_t crc) { return crc ^ 0xFFFFFFFFu; }

// One-shot convenience.
inline uint32_t Crc32c(const void* data, size_t len) { return Crc32cFinish(Crc32cUpdate(kCrc32cInit, data, len)); }

// The portable table implementation, exposed so tests can compare it with the
// hardware path.
uint32_t Crc32cUpdateSoftware(uint32_t crc, const void* data, size_t len);
// True when Crc32cUpdate uses the SSE4.2 instruction on this machine.
bool Crc32cUsesHardware();

}  // namespace hearth::access
