// server/executor/hash_memory.h
//
// Estimates of the memory a hash table holds, for keeping the hash
// aggregate and the hash join within ExecContext::hash_mem. Counted from
// what the containers really hold (vector capacities, bucket arrays,
// string heap blocks, one malloc'd node per hash entry), so the estimate
// follows the backend's resident memory closely. Header-only, stateless.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hearth::executor {

// An unordered_map/set node holding a std::string key, as malloc rounds it.
inline constexpr size_t kHashNodeBytes = 64;
// Memory a hash table may use at the least (PostgreSQL's work_mem minimum).
inline constexpr size_t kMinHashMem = 64 * 1024;

// ExecContext::hash_mem as a byte limit (at least kMinHashMem).
inline size_t HashMemLimit(int64_t hash_mem) {
  return std::max(static_cast<size_t>(std::max<int64_t>(hash_mem, 0)), kMinHashMem);
}

// Heap bytes of a string beyond sizeof(std::string) (short ones are inline).
inline size_t StringHeapBytes(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 17 : 0; }

template <typename T>
size_t CapacityBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// Bytes of v's array once n more elements are appended (a full vector doubles).
template <typename T>
size_t GrownBytes(const std::vector<T>& v, size_t n) {
  size_t cap = v.capacity();
  if (v.size() + n > cap) cap = std::max(v.size() + n, 2 * cap);
  return cap * sizeof(T);
}

// Bucket-array bytes of an unordered container once it holds one more entry.
template <typename Table>
size_t GrownBucketBytes(const Table& t) {
  size_t buckets = t.bucket_count();
  if (static_cast<float>(t.size() + 1) > static_cast<float>(buckets) * t.max_load_factor()) buckets = 2 * buckets + 1;
  return buckets * sizeof(void*);
}

}  // namespace hearth::executor
